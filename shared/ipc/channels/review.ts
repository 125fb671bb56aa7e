import { z } from 'zod';
import { channel } from '../define.ts';

// QA review of calls: marks (reviewed, a flag with a reason, a note, who and when) kept on this
// computer per workspace and call id, never sent to the calling service; the editable list of flag
// reasons; the QA report CSV of a campaign. Filters by review live in the calls filter
// (`callFilterSchema.review`, `.flagReasons`).

const count = z.number().int().nonnegative();
const workspaceId = z.string().min(1).max(200);
const callId = z.string().min(1).max(200);
const reasonId = z.number().int().positive();
const bulkListId = z.string().min(1).max(200);

export const REASON_LABEL_MAX = 60;
export const NOTE_MAX = 2000;
export const REVIEWER_MAX = 100;

const reasonLabel = z
  .string()
  .trim()
  .min(1, 'Give the reason a name')
  .max(REASON_LABEL_MAX, `A reason has at most ${REASON_LABEL_MAX} characters`);

/** A flag reason. Removed ones stay readable on the marks that use them, but cannot be chosen. */
export const reviewReasonSchema = z.object({
  id: reasonId,
  label: z.string(),
  removed: z.boolean(),
  /** Marks (every workspace) flagged with it. */
  uses: count,
});
export type ReviewReason = z.infer<typeof reviewReasonSchema>;

/** The review of one call; every field null/false when it was never reviewed. */
export const reviewMarkSchema = z.object({
  workspaceId,
  callId,
  reviewed: z.boolean(),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  flag: z.object({ reasonId, label: z.string(), removed: z.boolean() }).nullable(),
  flaggedAt: z.string().nullable(),
  flaggedBy: z.string().nullable(),
  note: z.string().nullable(),
  notedAt: z.string().nullable(),
  notedBy: z.string().nullable(),
  /** Last change of any part (null: never marked). */
  updatedAt: z.string().nullable(),
});
export type ReviewMark = z.infer<typeof reviewMarkSchema>;

const reasonsAnswer = z.object({ reasons: z.array(reviewReasonSchema) });

export const reviewChannels = {
  /** A call's review (of the active workspace's call). */
  'review:get': channel(z.object({ callId }).strict(), z.object({ mark: reviewMarkSchema })),
  /**
   * Changes a call's review: any of reviewed, the flag (a reason id, or null to clear it) and the
   * note (null or blank clears it). Flagging marks the call reviewed too. Stored on this computer only.
   */
  'review:set': channel(
    z
      .object({
        callId,
        reviewed: z.boolean().optional(),
        flagReasonId: reasonId.nullable().optional(),
        note: z.string().max(NOTE_MAX, `A note has at most ${NOTE_MAX} characters`).nullable().optional(),
      })
      .strict()
      .refine((r) => r.reviewed !== undefined || r.flagReasonId !== undefined || r.note !== undefined, {
        message: 'Say what to change: reviewed, flagReasonId or note',
      }),
    z.object({ mark: reviewMarkSchema }),
  ),
  /** Every flag reason in list order, removed ones included (`removed`). */
  'review:reasons': channel(z.object({}).strict(), reasonsAnswer),
  'review:add-reason': channel(z.object({ label: reasonLabel }).strict(), reasonsAnswer),
  'review:rename-reason': channel(z.object({ id: reasonId, label: reasonLabel }).strict(), reasonsAnswer),
  /** Takes a reason off the list; marks flagged with it keep it (shown as removed). */
  'review:remove-reason': channel(z.object({ id: reasonId }).strict(), reasonsAnswer),
  /** The name written on marks as "who" (default: the computer's user name). */
  'review:reviewer': channel(z.object({}).strict(), z.object({ name: z.string() })),
  'review:set-reviewer': channel(
    z
      .object({
        name: z
          .string()
          .trim()
          .min(1, 'Give a reviewer name')
          .max(REVIEWER_MAX, `A name has at most ${REVIEWER_MAX} characters`),
      })
      .strict(),
    z.object({ name: z.string() }),
  ),
  /**
   * The QA report of a campaign as CSV (every call of it: id, number, time of the attempt, outcome,
   * reviewed, flag reason, note, reviewer, reviewed at), to `path` or as a one-time download.
   */
  'review:report': channel(
    z.union([
      z
        .object({
          workspaceId: workspaceId.optional(),
          bulkListId,
          path: z.string().trim().min(1).max(4096),
        })
        .strict(),
      z.object({ workspaceId: workspaceId.optional(), bulkListId, download: z.literal(true) }).strict(),
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
