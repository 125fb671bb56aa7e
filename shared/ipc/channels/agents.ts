import { z } from 'zod';
import { eventTypes } from '../../service/enums.ts';
import { subscriptionMethods } from '../../service/agent.ts';
import { hasUrlCredentials, WEBHOOK_URL_CREDENTIALS_MESSAGE } from '../../service/common.ts';
import { channel, event } from '../define.ts';
import { contactFilterSchema } from './contacts.ts';

// The agent library: agents of each workspace synced into SQLite (every page of the listing, then
// each agent by id), read offline by the Agents section, the contacts mapping and the campaign
// builder; local draft agents made from a pasted prompt; the event subscriptions editor (saved with
// PATCH /agent/v1, kept as a draft offline); the per-list variable mapping, lint and prompt preview.

const agentId = z.string().trim().min(1, 'Choose an agent').max(200);
const versionId = z.string().min(1).max(200);
const listId = z.number().int().positive();
const rowNumber = z.number().int().positive();
const count = z.number().int().nonnegative();
const variableName = z.string().trim().min(1).max(100);
const columnName = z.string().max(500);

// ---------------------------------------------------------------- sync state

/** How fresh the active workspace's local copy is. */
export const agentSyncStateSchema = z.object({
  workspaceId: z.string().nullable(),
  /** A sync is running now. */
  running: z.boolean(),
  /** When the last complete sync finished (ISO), null when never synced. */
  syncedAt: z.string().nullable(),
  /** Seconds since syncedAt when this answer was made (for "synced 5 min ago"), null when never. */
  ageSeconds: count.nullable(),
  /** Why the last sync failed, in plain words (cached data stays shown), null after a success. */
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  /** Progress of the running sync: agents read by id so far, of total (null until the listing is read). */
  progress: z.object({ done: count, total: count.nullable() }).nullable(),
});
export type AgentSyncState = z.infer<typeof agentSyncStateSchema>;

// ---------------------------------------------------------------- library

/** One agent of the local library (a synced agent or a local draft). */
export const agentSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Archived on the service: kept and shown, marked archived. */
  archived: z.boolean(),
  /** A local draft made from a pasted prompt: never on the service, cannot be launched against. */
  isLocalDraft: z.boolean(),
  language: z.string().nullable(),
  /** Versions the agent has (0 for an agent without version details). */
  versions: count,
  activeVersionId: z.string().nullable(),
  /**
   * Variables a contact list supplies for the active version: declared custom variables and the
   * prompt's `@{{var}}` placeholders, `callee_name` always; never `mobile_number` (the phone column).
   */
  variables: z.array(z.string()),
  /** When the local copy of this agent was last written (ISO). */
  updatedAt: z.string(),
  /** A subscriptions edit waits to be saved (offline or failed save). */
  hasSubscriptionsDraft: z.boolean(),
});
export type AgentSummary = z.infer<typeof agentSummarySchema>;

/** One piece of a prompt for highlighting: plain text, or a `@{{name}}` placeholder as written. */
export const promptPieceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('placeholder'), name: z.string(), text: z.string() }),
]);
export type PromptPiece = z.infer<typeof promptPieceSchema>;

/** Where a variable occurs in a prompt: 1-based line, the `## section` it sits under, the line's text. */
export const occurrenceSchema = z.object({
  line: z.number().int().positive(),
  section: z.string().nullable(),
  excerpt: z.string(),
});

export const agentVariableSchema = z.object({
  name: z.string(),
  /** Declared in the agent's custom variables. */
  declared: z.boolean(),
  /** callee_name and mobile_number: always present (the upload supplies them). */
  builtIn: z.boolean(),
  occurrences: z.array(occurrenceSchema),
});
export type AgentVariable = z.infer<typeof agentVariableSchema>;

export const agentVersionSchema = z.object({
  id: z.string(),
  /** slug, else description, else the id. */
  label: z.string(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  /** Full prompt (sections joined with `## Title`), null for a multi-node agent without one. */
  promptText: z.string().nullable(),
  pieces: z.array(promptPieceSchema),
  variables: z.array(agentVariableSchema),
});
export type AgentVersion = z.infer<typeof agentVersionSchema>;

export const EVENT_TYPES = eventTypes;
export const SUBSCRIPTION_METHODS = subscriptionMethods;

/** A header of a stored subscription: its value never leaves the back end. */
export const maskedHeaderSchema = z.object({
  name: z.string(),
  /** Bullets and at most the last 2 characters ("••••••ab"). */
  masked: z.string(),
});

/** A subscription as the editor shows it. `key` names it in a save request (keep masked values). */
export const subscriptionViewSchema = z.object({
  key: z.string(),
  eventTypes: z.array(z.string()),
  callbackUrl: z.string(),
  method: z.string(),
  headers: z.array(maskedHeaderSchema),
});
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>;

export const subscriptionsDraftSchema = z.object({
  subscriptions: z.array(subscriptionViewSchema),
  savedAt: z.string(),
  /** Why it is a draft ("You are offline…", "The service refused …"). */
  reason: z.string(),
});

export const agentDetailSchema = agentSummarySchema.extend({
  agentType: z.string().nullable(),
  voice: z.string().nullable(),
  introMessage: z.string().nullable(),
  /** Every version; a single pseudo-version `root` when the service sends no version details. */
  agentVersions: z.array(agentVersionSchema),
  /** As last synced (cached), keys `c:<index>`. */
  subscriptions: z.array(subscriptionViewSchema),
  /** An unsaved edit (keys `d:<index>`), or null. */
  subscriptionsDraft: subscriptionsDraftSchema.nullable(),
  /** The local draft's pasted prompt (null for a synced agent). */
  draftPrompt: z.string().nullable(),
});
export type AgentDetail = z.infer<typeof agentDetailSchema>;

// ---------------------------------------------------------------- subscriptions editor input

export const headerInputSchema = z
  .object({
    name: z.string().max(200),
    /** Omitted: keep the stored value of this header name in the subscription `from` names. */
    value: z.string().max(4096).optional(),
  })
  .strict();

/**
 * Shapes only, and a callback URL without credentials (the rule every side shares); the back end
 * validates the rest and names the field (`subscriptions.0.callbackUrl`).
 */
export const subscriptionInputSchema = z
  .object({
    /** The subscription this one was edited from (`c:0`, `d:1`), for masked header values. */
    from: z.string().max(20).optional(),
    eventTypes: z.array(z.string().max(100)).max(20),
    callbackUrl: z
      .string()
      .max(4096)
      .refine((u) => !hasUrlCredentials(u), WEBHOOK_URL_CREDENTIALS_MESSAGE),
    method: z.string().max(10),
    headers: z.array(headerInputSchema).max(50),
  })
  .strict();
export type SubscriptionInput = z.infer<typeof subscriptionInputSchema>;

// ---------------------------------------------------------------- mapping, lint, preview

export const mappingSourceSchema = z.enum([
  /** The list's phone column (mobile_number): fixed. */
  'phone',
  /** Chosen by the operator (and remembered for this agent). */
  'manual',
  /** Column named exactly like the variable. */
  'exact',
  /** Same name ignoring case, spaces and underscores. */
  'similar',
  /** The column this agent used in the last list mapped. */
  'last-list',
  /** No column. */
  'none',
]);

export const variableColumnSchema = z.object({
  variable: z.string(),
  /** '' = not mapped. */
  column: z.string(),
  source: mappingSourceSchema,
  /** Marked optional by the operator (for this list and agent): its empty cells block nothing. */
  optional: z.boolean(),
});
export type VariableColumn = z.infer<typeof variableColumnSchema>;

const mappingAnswer = z.object({
  listId,
  agentId: z.string(),
  /** The version the mapping is for (the active one when the request named none). */
  versionId: z.string().nullable(),
  /** Every variable of the version: mobile_number first, then callee_name, then the prompt's. */
  mapping: z.array(variableColumnSchema),
  /** The list's columns (file header). */
  columns: z.array(z.string()),
});
export type AgentMapping = z.infer<typeof mappingAnswer>;

const mappingRequest = { listId, agentId, versionId: versionId.optional() };

export const lintSchema = z.object({
  /** Placeholders with no column. */
  unmapped: z.array(z.string()),
  /** Mapped columns empty in some rows the upload would carry (valid, not excluded). */
  emptyColumns: z.array(
    z.object({
      variable: z.string(),
      column: z.string(),
      emptyRows: count,
      /** contacts:rows filter that shows those rows. */
      filter: z.string(),
      /** Marked optional: its empty cells are sent as a dash (see OPTIONAL_BLANK_VALUE) and block nothing. */
      optional: z.boolean(),
    }),
  ),
  /**
   * Rows of the upload the service will refuse: rows with any non-optional mapped variable empty
   * (the service's row check, `<Column> is empty (needed for <variable>)`). Each row counts once.
   */
  rowsServiceWillDrop: count,
  /** contacts:rows filter that shows those rows (null when there are none). */
  refusalFilter: z.string().nullable(),
  /** Columns no variable uses (not uploaded); the phone column never counts. */
  unusedColumns: z.array(z.string()),
  /** Rows the upload would carry now. */
  uploadRows: count,
});
export type AgentLint = z.infer<typeof lintSchema>;

export const previewSegmentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('value'), name: z.string(), column: z.string(), value: z.string() }),
  /** No column mapped (column null) or an empty cell. */
  z.object({ kind: z.literal('missing'), name: z.string(), column: z.string().nullable() }),
]);
export type PreviewSegment = z.infer<typeof previewSegmentSchema>;

export const previewSchema = z.object({
  row: rowNumber,
  pos: count,
  /** Rows in the filter (to show "row 12 of 9,874"). */
  total: count,
  segments: z.array(previewSegmentSchema),
  missing: z.array(z.string()),
  /** With extractFirstName: callee_name as the service would use it, and as in the file. */
  firstName: z.object({ original: z.string(), used: z.string() }).nullable(),
});
export type PromptPreview = z.infer<typeof previewSchema>;

// ---------------------------------------------------------------- channels

const agentAnswer = z.object({ agent: agentDetailSchema });
const draftName = z.string().trim().min(1, 'Name is required').max(100);
const draftPrompt = z.string().trim().min(1, 'Paste the prompt').max(200_000);

export const agentsChannels = {
  /** The active workspace's local library (SQLite; never asks the service), with its sync state. */
  'agents:list': channel(
    z.object({ search: z.string().max(200).optional() }).strict(),
    z.object({ agents: z.array(agentSummarySchema), sync: agentSyncStateSchema }),
  ),
  /** Syncs the active workspace now (the Refresh button); fails in plain words, cache kept. */
  'agents:sync': channel(z.object({}).strict(), z.object({ sync: agentSyncStateSchema, agents: count })),
  'agents:sync-state': channel(z.object({}).strict(), z.object({ sync: agentSyncStateSchema })),
  'agents:get': channel(z.object({ agentId }).strict(), agentAnswer),

  /** A local draft agent from a pasted prompt (variables from its placeholders). */
  'agents:create-draft': channel(
    z.object({ name: draftName, prompt: draftPrompt, language: z.string().max(50).optional() }).strict(),
    agentAnswer,
  ),
  'agents:update-draft': channel(
    z
      .object({
        agentId,
        name: draftName.optional(),
        prompt: draftPrompt.optional(),
        language: z.string().max(50).optional(),
      })
      .strict(),
    agentAnswer,
  ),
  'agents:delete-draft': channel(z.object({ agentId }).strict(), z.object({ deleted: z.boolean() })),

  /**
   * Validates (naming the field), then PATCH /agent/v1 edit_event_subscriptions. Offline or
   * unreachable: kept as a draft (outcome 'draft'). 401, refusals: a failure in plain words, the
   * edit kept as a draft too.
   */
  'agents:save-subscriptions': channel(
    z.object({ agentId, subscriptions: z.array(subscriptionInputSchema).max(50) }).strict(),
    z.object({ outcome: z.enum(['saved', 'draft']), message: z.string(), agent: agentDetailSchema }),
  ),
  'agents:discard-subscriptions-draft': channel(z.object({ agentId }).strict(), agentAnswer),

  /** The variable → column mapping for a list (saved one, else auto-mapped). */
  'agents:mapping': channel(z.object(mappingRequest).strict(), mappingAnswer),
  /** Saves the operator's mapping for this list and agent (remembered for the agent's next list). */
  'agents:set-mapping': channel(
    z
      .object({
        ...mappingRequest,
        mapping: z
          .array(
            z
              .object({ variable: variableName, column: columnName, optional: z.boolean().optional() })
              .strict(),
          )
          .max(300),
      })
      .strict(),
    mappingAnswer,
  ),
  /** Lint of the list's current mapping for the agent, counted in SQLite. */
  'agents:lint': channel(z.object(mappingRequest).strict(), lintSchema),
  /** The prompt rendered for one row (by its position in a contacts:rows filter). */
  'agents:preview': channel(
    z
      .object({
        ...mappingRequest,
        filter: contactFilterSchema,
        pos: count,
        extractFirstName: z.boolean().optional(),
      })
      .strict(),
    previewSchema,
  ),
  /** The next (or previous) row in the filter after `fromPos` with a missing value. */
  'agents:next-problem-row': channel(
    z
      .object({
        ...mappingRequest,
        filter: contactFilterSchema,
        fromPos: z.number().int().min(-1),
        direction: z.enum(['next', 'previous']).optional(),
      })
      .strict(),
    z.object({ pos: count.nullable(), row: rowNumber.nullable(), missing: z.array(z.string()) }),
  ),
  /** variables_map for a launch and the upload's columns, derived from the list's mapping. */
  'agents:variables-map': channel(
    z.object(mappingRequest).strict(),
    z.object({
      /** variable → upload column name (the variable name itself). */
      variablesMap: z.record(z.string(), z.string()),
      /** Columns of the upload file after Mobile Number, in order. */
      uploadColumns: z.array(z.string()),
    }),
  ),
};

export const agentsEvents = {
  /** The active workspace's library changed or a sync started/finished. */
  'agents:sync-changed': event(z.object({ sync: agentSyncStateSchema })),
};
