import { z } from 'zod';
import { SOURCE_KINDS, SUPPRESSION_REASONS } from '../../domain/suppression.ts';
import { channel, event } from '../define.ts';

// The do-not-call list (issue 27): a list per workspace and one shared by every workspace. Entries
// are added by hand, from calls (Do not call again, accepted offers) and from files; every contact
// list and launch holds their numbers back.

const count = z.number().int().nonnegative();
const listId = z.number().int().positive();
/** A number as typed or exported ("+91 98123 45678", "09812345678"), read with the country. */
const numberText = z.string().trim().min(1, 'Type a number').max(64);
const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, 'not an E.164 number');
const reason = z.enum(SUPPRESSION_REASONS);
const callId = z.string().min(1).max(200);
/** Which list: the active workspace's own, or the one shared by every workspace. */
const shared = z.boolean();
const scope = z.enum(['workspace', 'shared', 'both']);
const isoTime = z.string().datetime({ offset: true });

export const suppressionSourceSchema = z.object({
  kind: z.enum(SOURCE_KINDS),
  ref: z.string().max(500),
  at: z.string(),
});

export const suppressionEntrySchema = z.object({
  number: e164,
  shared: z.boolean(),
  reason,
  sources: z.array(suppressionSourceSchema),
  addedBy: z.string(),
  addedAt: z.string(),
  expiresAt: z.string().nullable(),
});
export type SuppressionEntryView = z.infer<typeof suppressionEntrySchema>;

export const suppressionOfferSchema = z.object({
  id: z.number().int().positive(),
  kind: z.enum(['dnd_skipped', 'opt_out_phrase']),
  callId: z.string(),
  number: e164,
  phrase: z.string().nullable(),
  excerpt: z.string().nullable(),
  createdAt: z.string(),
});
export type SuppressionOffer = z.infer<typeof suppressionOfferSchema>;

const offersSummary = z.object({ dndSkipped: count, optOutPhrases: count });

const addResult = z.object({
  added: count,
  merged: count,
  /** Numbers that could not be read, each with why. */
  refused: z.array(z.object({ number: z.string(), message: z.string() })),
});

export const suppressionChannels = {
  'suppression:list': channel(
    z
      .object({
        scope: scope.default('both'),
        search: z.string().max(64).default(''),
        offset: count.default(0),
        limit: z.number().int().positive().max(500).default(100),
      })
      .strict(),
    z.object({ total: count, entries: z.array(suppressionEntrySchema) }),
  ),
  'suppression:add': channel(
    z
      .object({
        numbers: z.array(numberText).min(1).max(10_000),
        reason: reason.default('manual'),
        shared: shared.default(false),
        /** The default country for numbers typed without their prefix (IN or +91). */
        country: z.string().trim().min(1).max(8).default('IN'),
        expiresAt: isoTime.nullable().default(null),
      })
      .strict(),
    addResult,
  ),
  'suppression:remove': channel(
    z.object({ numbers: z.array(e164).min(1).max(10_000), shared: shared.default(false) }).strict(),
    z.object({ removed: count, undoToken: z.string().nullable() }),
  ),
  /** Puts back the entries of the last removal (the toast's Undo). */
  'suppression:undo-remove': channel(
    z.object({ undoToken: z.string().min(1).max(100) }).strict(),
    z.object({ restored: count }),
  ),
  'suppression:history': channel(
    z.object({ number: e164 }).strict(),
    z.object({
      events: z.array(
        z.object({
          shared: z.boolean(),
          action: z.string(),
          reason: z.string(),
          source: suppressionSourceSchema.nullable(),
          by: z.string(),
          at: z.string(),
        }),
      ),
    }),
  ),
  /** "Do not call again" on a call or a Campaign results selection. */
  'suppression:from-calls': channel(
    z
      .object({
        callIds: z.array(callId).min(1).max(10_000),
        reason: reason.default('opted_out'),
        shared: shared.default(false),
      })
      .strict(),
    addResult,
  ),
  /** "Do not call again" on a Campaign results selection: the contacts of the chosen outcomes. */
  'suppression:from-results': channel(
    z
      .object({
        bulkListId: z.string().min(1).max(200),
        outcomes: z.array(z.string().min(1).max(40)).min(1).max(40),
        reason: reason.default('opted_out'),
        shared: shared.default(false),
      })
      .strict(),
    addResult,
  ),
  /** Numbers the results propose (DND_SKIPPED calls, opt-out phrases), never added by themselves. */
  'suppression:offers': channel(
    z.object({ kind: z.enum(['dnd_skipped', 'opt_out_phrase']).optional() }).strict(),
    z.object({ counts: offersSummary, offers: z.array(suppressionOfferSchema) }),
  ),
  /** Accepts (adds) or dismisses offers; `all` takes every open offer of the kind (one click). */
  'suppression:resolve-offers': channel(
    z.union([
      z
        .object({ ids: z.array(z.number().int().positive()).min(1).max(10_000), accept: z.boolean() })
        .strict(),
      z.object({ all: z.enum(['dnd_skipped', 'opt_out_phrase']), accept: z.boolean() }).strict(),
    ]),
    z.object({ resolved: count, counts: offersSummary }),
  ),
  /** Looks for new offers now (after a sync this runs by itself). */
  'suppression:scan': channel(z.object({}).strict(), z.object({ scanned: count, counts: offersSummary })),
  'suppression:phrases': channel(z.object({}).strict(), z.object({ phrases: z.array(z.string()) })),
  /** Replaces the opt-out phrase list; transcripts are scanned again with it. */
  'suppression:set-phrases': channel(
    z.object({ phrases: z.array(z.string().trim().min(2).max(200)).max(500) }).strict(),
    z.object({ phrases: z.array(z.string()) }),
  ),
  /** Rows of a contact list held back from the upload (valid, not excluded, suppressed), per reason. */
  'suppression:list-check': channel(
    z.object({ listId }).strict(),
    z.object({ total: count, byReason: z.partialRecord(reason, count) }),
  ),
  /**
   * Takes the numbers of an imported contact list (read by the contacts engine: encoding,
   * delimiter, phone column, country) into the suppression list. A `reason`, `added_at` or
   * `expires_at` column (the export's) is kept per row; otherwise the reason given applies.
   */
  'suppression:import-list': channel(
    z.object({ listId, reason: reason.default('imported'), shared: shared.default(false) }).strict(),
    z.object({ added: count, merged: count, skipped: count }),
  ),
  'suppression:export': channel(
    z.union([
      z
        .object({
          scope: scope.default('both'),
          format: z.enum(['csv', 'xlsx']).default('csv'),
          path: z.string().trim().min(1).max(4096),
        })
        .strict(),
      z
        .object({
          scope: scope.default('both'),
          format: z.enum(['csv', 'xlsx']).default('csv'),
          download: z.literal(true),
        })
        .strict(),
    ]),
    z.object({
      rows: count,
      bytes: count,
      fileName: z.string(),
      path: z.string().nullable(),
      downloadUrl: z.string().nullable(),
    }),
  ),
};

export const suppressionEvents = {
  /** The list or the offers changed: open contact lists recount, the page and offer banners reload. */
  'suppression:changed': event(z.object({ workspaceId: z.string(), counts: offersSummary })),
};
