import { z } from 'zod';
import { CALL_OUTCOMES } from '../../domain/callOutcome.ts';
import { callStatuses } from '../../service/enums.ts';
import { channel, event } from '../define.ts';
import { contactListSchema } from './contacts.ts';

// Calls: history synced from the calling service into SQLite (per workspace), the recordings saved
// in the data folder before their URLs expire, and offline review (list, search, detail, charts,
// campaign results, follow-up lists, CSV export). Every read answers from SQLite only.

const count = z.number().int().nonnegative();
const isoTime = z.iso.datetime({ offset: true });
const workspaceId = z.string().min(1).max(200);
const callId = z.string().min(1).max(200);
const bulkListId = z.string().min(1).max(200);

/** Where a call's recording stands on this machine. */
export const RECORDING_STATES = ['pending', 'saved', 'expired', 'failed', 'none'] as const;
export type RecordingState = (typeof RECORDING_STATES)[number];
export const recordingStateSchema = z.enum(RECORDING_STATES);

/** Statuses the service documents; stored calls may carry others (shown as they came). */
export const CALL_STATUSES = callStatuses;

/**
 * What a call, or a contact row of a launched list (its latest call), came to: the outcome table of
 * shared/domain/callOutcome.ts ("not_called": a row with no call yet).
 */
export const CAMPAIGN_OUTCOMES = CALL_OUTCOMES;
export type CampaignOutcome = (typeof CAMPAIGN_OUTCOMES)[number];
export const campaignOutcomeSchema = z.enum(CAMPAIGN_OUTCOMES);

// ---------------------------------------------------------------- sync

export const SYNC_STATES = ['idle', 'running', 'done', 'failed', 'cancelled'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

export const recordingCountsSchema = z.object({
  pending: count,
  saved: count,
  expired: count,
  failed: count,
  none: count,
});
export type RecordingCounts = z.infer<typeof recordingCountsSchema>;

/** A history record a sync refused. */
export const quarantinedRecordSchema = z.object({
  /** The record's call id, when it had a readable one. */
  callId: z.string().nullable(),
  /** The first failing field (`created_at`, `call_cost`, `record`). */
  field: z.string(),
  reason: z.string(),
  /** The record as received (JSON, at most 64 KiB). */
  raw: z.string(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
});
export type QuarantinedRecord = z.infer<typeof quarantinedRecordSchema>;

/** One workspace's sync: what the current (or last) pass did, and what is stored. */
export const syncStatusSchema = z.object({
  workspaceId,
  state: z.enum(SYNC_STATES),
  /** What a running pass is doing now. */
  phase: z.enum(['history', 'revisit', 'campaigns', 'recordings']).nullable(),
  /** This pass: call records received, new ones, changed ones, pages read, retried requests. */
  received: count,
  inserted: count,
  updated: count,
  pages: count,
  retries: count,
  /** This pass: records refused by their schema (bad date, number out of range), quarantined. */
  skipped: count,
  /** Refused records kept for the workspace (listed by `calls:quarantine`). */
  quarantined: count,
  /** Time windows of this pass done / planned (a progress bar). */
  windowsDone: count,
  windowsTotal: count,
  /** Calls stored for the workspace. */
  calls: count,
  recordings: recordingCountsSchema,
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** When a pass last stored every page (the history is complete up to `watermark`). */
  lastSyncedAt: z.string().nullable(),
  watermark: z.string().nullable(),
  /** Why a pass failed or what it waits for ("Key rejected", "Retrying in 4 s (server error)"). */
  message: z.string().nullable(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;

// ---------------------------------------------------------------- list, filter, sort

export const CALL_SORT_KEYS = [
  'created_at',
  'attempted_at',
  'call_duration',
  'call_cost',
  'name',
  'status',
] as const;
export type CallSortKey = (typeof CALL_SORT_KEYS)[number];

/** The review filter's choices (QA review marks). */
export const REVIEW_FILTERS = ['reviewed', 'unreviewed', 'flagged'] as const;
export type ReviewFilter = (typeof REVIEW_FILTERS)[number];

/** Filters of the Calls table (all optional; absent = any). Also used by export and stats. */
export const callFilterSchema = z
  .object({
    /** Default: the active workspace. */
    workspaceId: workspaceId.optional(),
    bulkListId: bulkListId.optional(),
    agentId: z.string().min(1).max(200).optional(),
    statuses: z.array(z.string().min(1).max(60)).max(20).optional(),
    subStatuses: z.array(z.string().min(1).max(80)).max(40).optional(),
    /** Outcomes of the outcome table (shared/domain/callOutcome.ts). */
    outcomes: z.array(campaignOutcomeSchema).max(CAMPAIGN_OUTCOMES.length).optional(),
    /** created_at >= from and < to. */
    from: isoTime.optional(),
    to: isoTime.optional(),
    voicemail: z.boolean().optional(),
    /** Seconds, inclusive. */
    minDuration: z.number().nonnegative().optional(),
    maxDuration: z.number().nonnegative().optional(),
    minCost: z.number().nonnegative().optional(),
    maxCost: z.number().nonnegative().optional(),
    recording: z.array(recordingStateSchema).max(5).optional(),
    /** Full-text search over transcripts, names and numbers (words; a trailing word matches as a prefix). */
    search: z.string().max(200).optional(),
    /** QA review marks kept on this computer (channels/review.ts): reviewed, not yet, or flagged. */
    review: z.enum(REVIEW_FILTERS).optional(),
    /** Flagged with one of these reasons (`review:reasons` ids). */
    flagReasons: z.array(z.number().int().positive()).max(50).optional(),
  })
  .strict();
export type CallFilter = z.infer<typeof callFilterSchema>;

export const callSortSchema = z.object({ by: z.enum(CALL_SORT_KEYS), dir: z.enum(['asc', 'desc']) }).strict();
export type CallSort = z.infer<typeof callSortSchema>;

/** A piece of highlighted text: render `hit` parts marked (never as HTML). */
export const snippetPartSchema = z.object({ text: z.string(), hit: z.boolean() });
export type SnippetPart = z.infer<typeof snippetPartSchema>;

/** One row of the Calls table. */
export const callSummarySchema = z.object({
  id: callId,
  workspaceId,
  /** The campaign (bulk list) this call belongs to, when a campaign sync linked it. */
  bulkListId: z.string().nullable(),
  toNumber: z.string().nullable(),
  name: z.string().nullable(),
  status: z.string(),
  subStatus: z.string().nullable(),
  /** When the call was queued (UTC ISO). */
  createdAt: z.string(),
  /** When it was dialled (UTC ISO): the time of the call; null when it never was. */
  attemptedAt: z.string().nullable(),
  /** What it came to (the outcome table). */
  outcome: campaignOutcomeSchema,
  callDuration: z.number().nullable(),
  callCost: z.number().nullable(),
  voicemail: z.boolean().nullable(),
  agentId: z.string().nullable(),
  agentName: z.string().nullable(),
  recording: recordingStateSchema,
  /** With a search: where it matched (transcript, name or number), hits marked. */
  snippet: z.array(snippetPartSchema).nullable(),
});
export type CallSummary = z.infer<typeof callSummarySchema>;

export const transcriptTurnViewSchema = z.object({
  speaker: z.enum(['agent', 'user', 'other']),
  text: z.string(),
});

export const recordingInfoSchema = z.object({
  state: recordingStateSchema,
  /** Absolute path of the saved file (shown to the operator), or null. */
  path: z.string().nullable(),
  bytes: count.nullable(),
  sha256: z.string().nullable(),
  /** When the service's URL stops working (UTC ISO), when known. */
  expiresAt: z.string().nullable(),
  attempts: count,
  error: z.string().nullable(),
  /**
   * Same-origin address that plays the saved file offline (browser host: a tokened
   * `/recordings/<token>`; Electron: `app://desk/recordings/<token>`), or null when not saved.
   * Never the service's URL and never a secret.
   */
  playUrl: z.string().nullable(),
});
export type RecordingInfo = z.infer<typeof recordingInfoSchema>;

export const callDetailSchema = callSummarySchema.omit({ snippet: true }).extend({
  callType: z.string().nullable(),
  callAttemptTime: z.string().nullable(),
  fromNumbers: z.array(z.string()),
  inboundFrom: z.string().nullable(),
  creditsProcessed: z.boolean().nullable(),
  /** The conversation; empty when there is none or it could not be read (see transcriptRaw). */
  transcript: z.array(transcriptTurnViewSchema),
  /** The transcript as received when it could not be read as turns, else null. */
  transcriptRaw: z.string().nullable(),
  recording: recordingInfoSchema,
  firstSeenAt: z.string(),
  updatedAt: z.string(),
  /** The record as the service last sent it (pretty JSON). */
  rawJson: z.string(),
});
export type CallDetail = z.infer<typeof callDetailSchema>;

// ---------------------------------------------------------------- stats (charts)

export const callStatsSchema = z.object({
  /** Every call matching the filter, dialled or not. */
  total: count,
  /** Calls with an attempt time (never-dialled calls are left out of every time, duration and rate). */
  dialled: count,
  byStatus: z.array(z.object({ status: z.string(), count })),
  bySubStatus: z.array(z.object({ subStatus: z.string(), count })),
  /** Calls per outcome of the outcome table, in its order (outcomes with none left out). */
  outcomes: z.array(z.object({ outcome: campaignOutcomeSchema, count })),
  /**
   * Contacts → dialled → answered → completed, counted by number: contacts are the launched list's
   * uploaded rows (a campaign launched here) or the distinct numbers called; answered = completed or
   * voicemail; completed = a conversation that completed.
   */
  funnel: z.object({ contacts: count, dialled: count, answered: count, completed: count }),
  /** Dialled calls per bucket of their attempt time (UTC), oldest first. */
  overTime: z.object({
    bucket: z.enum(['hour', 'day']),
    points: z.array(
      z.object({ at: z.string(), calls: count, answered: count, completed: count, cost: z.number() }),
    ),
  }),
  /** Duration histogram of answered calls, in seconds: [from, to) per bin. */
  duration: z.array(z.object({ from: z.number(), to: z.number(), count })),
  cost: z.object({
    total: z.number(),
    average: z.number().nullable(),
    max: z.number().nullable(),
    /** Total cost over completed calls (null: none completed). */
    perCompleted: z.number().nullable(),
  }),
  /** Talk time of answered calls. */
  durationSeconds: z.object({ total: z.number(), average: z.number().nullable(), answered: count }),
  voicemail: count,
  /**
   * Dialled and answered calls by weekday (0 = Monday) and hour of their attempt, in each call's
   * campaign timezone (the local launch's), else `timeZone`.
   */
  heatmap: z.object({
    timeZone: z.string(),
    /** Calls placed in a campaign timezone other than `timeZone` (so the operator knows). */
    campaignZones: z.array(z.string()),
    cells: z.array(
      z.object({
        weekday: z.number().int().min(0).max(6),
        hour: z.number().int().min(0).max(23),
        dialled: count,
        answered: count,
      }),
    ),
  }),
});
export type CallStats = z.infer<typeof callStatsSchema>;

// ---------------------------------------------------------------- campaigns and results

/** A campaign known on this machine: a bulk list id with calls, or launched from a contact list. */
export const callCampaignSchema = z.object({
  bulkListId,
  workspaceId,
  /** The contact list it was launched from (campaign_lists), or null. */
  listId: z.number().int().positive().nullable(),
  listName: z.string().nullable(),
  /** The operator's name for the campaign (the launch made here, else the service's listing). */
  campaignName: z.string().nullable(),
  /** When it was launched (or created on the service), to tell apart campaigns of the same name. */
  startedAt: z.string().nullable(),
  calls: count,
  firstCallAt: z.string().nullable(),
  lastCallAt: z.string().nullable(),
});
export type CallCampaign = z.infer<typeof callCampaignSchema>;

export const outcomeCountsSchema = z.object(
  Object.fromEntries(CAMPAIGN_OUTCOMES.map((o) => [o, count])) as Record<CampaignOutcome, typeof count>,
);
export type OutcomeCounts = z.infer<typeof outcomeCountsSchema>;

/** A contact row of a launched list with its latest call. */
export const campaignResultRowSchema = z.object({
  /** Spreadsheet row of the contact list. */
  row: z.number().int().positive(),
  cells: z.array(z.string()),
  /** E.164 with '+', or null. */
  phone: z.string().nullable(),
  outcome: campaignOutcomeSchema,
  /** The latest call to the number in this campaign, or null (not called yet). */
  callId: z.string().nullable(),
  status: z.string().nullable(),
  subStatus: z.string().nullable(),
  /** When the latest call was dialled (UTC ISO), null when it never was. */
  calledAt: z.string().nullable(),
  /** When the latest call was queued (UTC ISO), null without a call. */
  queuedAt: z.string().nullable(),
  callDuration: z.number().nullable(),
  calls: count,
});
export type CampaignResultRow = z.infer<typeof campaignResultRowSchema>;

export const callsExportResultSchema = z.object({
  rows: count,
  bytes: count,
  fileName: z.string(),
  path: z.string().nullable(),
  downloadUrl: z.string().nullable(),
});

export const diskUsageSchema = z.object({
  /** Bytes of recordings in the data folder (saved and partial downloads); files: saved ones. */
  bytes: count,
  files: count,
  /** Of `bytes`, the downloads under way or waiting to be resumed (`.part` files). */
  partialBytes: count,
  folder: z.string(),
  /** Saved recordings older than this many days are deleted (state back to `expired`); null = keep. */
  retentionDays: z.number().int().positive().nullable(),
  /** A recording larger than this many MB (1,000,000 bytes) is not downloaded (default 200). */
  maxMegabytes: z.number().int().positive(),
  byState: recordingCountsSchema,
});
export type DiskUsage = z.infer<typeof diskUsageSchema>;

const workspaceOnly = z.object({ workspaceId: workspaceId.optional() }).strict();

/** A campaign launched from here, with the figures of its calls synced so far. */
export const liveCampaignSchema = z.object({
  bulkListId,
  name: z.string(),
  /** Still running (its calls are polled while online) or finished. */
  running: z.boolean(),
  contacts: count,
  dialled: count,
  answered: count,
  completed: count,
  /** Contacts not done yet (open calls and rows with no call yet). */
  left: count,
  /** Sum of the calls' cost (credits). */
  credits: z.number(),
  /** At the dialling pace so far (UTC ISO), null when unknown or done. */
  estimatedFinishAt: z.string().nullable(),
});
export type LiveCampaign = z.infer<typeof liveCampaignSchema>;

export const liveStatusSchema = z.object({
  workspaceId,
  campaigns: z.array(liveCampaignSchema),
  /** A running campaign's calls are being polled (online, something running). */
  polling: z.boolean(),
  /** When the figures were last brought up to date from the service (UTC ISO), null: never here. */
  updatedAt: z.string().nullable(),
});
export type LiveStatus = z.infer<typeof liveStatusSchema>;

export const callsChannels = {
  /**
   * Starts a sync of a workspace (default: the active one) and answers at once; progress comes as
   * `calls:sync-progress`. A running sync is not started twice (`started: false`).
   * `since`: re-read from this time (default: from the watermark, or 90 days back the first time).
   */
  'calls:sync': channel(
    z
      .object({
        workspaceId: workspaceId.optional(),
        since: isoTime.optional(),
        recordings: z.boolean().optional(),
      })
      .strict(),
    z.object({ started: z.boolean(), status: syncStatusSchema }),
  ),
  'calls:sync-cancel': channel(workspaceOnly, z.object({ cancelled: z.boolean(), status: syncStatusSchema })),
  'calls:sync-status': channel(workspaceOnly, syncStatusSchema),
  /**
   * History records a sync refused (kept apart, never stored as calls): the newest first, with the
   * field and why; a record the service later sends valid leaves the list.
   */
  'calls:quarantine': channel(
    z
      .object({ workspaceId: workspaceId.optional(), limit: z.number().int().min(1).max(1000).optional() })
      .strict(),
    z.object({ total: count, rows: z.array(quarantinedRecordSchema) }),
  ),

  /** A window of the filtered, sorted calls (≤ 500 rows) and how many match. */
  'calls:list': channel(
    z
      .object({
        filter: callFilterSchema,
        sort: callSortSchema.optional(),
        offset: count,
        limit: z.number().int().min(1).max(500),
      })
      .strict(),
    z.object({ total: count, offset: count, rows: z.array(callSummarySchema) }),
  ),
  'calls:get': channel(z.object({ callId }).strict(), z.object({ call: callDetailSchema })),
  /** Agents, statuses and sub-statuses present, for the filter menus. */
  'calls:facets': channel(
    workspaceOnly,
    z.object({
      agents: z.array(z.object({ id: z.string(), name: z.string().nullable(), calls: count })),
      statuses: z.array(z.object({ value: z.string(), calls: count })),
      subStatuses: z.array(z.object({ value: z.string(), calls: count })),
    }),
  ),
  'calls:campaigns': channel(workspaceOnly, z.object({ campaigns: z.array(callCampaignSchema) })),
  /** Chart data of the filtered calls (a campaign: `filter.bulkListId`). */
  'calls:stats': channel(
    z
      .object({
        filter: callFilterSchema,
        /** IANA timezone for calls whose campaign has none on this computer (default: UTC). */
        timeZone: z.string().min(1).max(100).optional(),
      })
      .strict(),
    callStatsSchema,
  ),
  /** The filtered calls as CSV (the CLI's columns, formula-safe): to `path`, or a one-time download. */
  'calls:export': channel(
    z.union([
      z
        .object({
          filter: callFilterSchema,
          sort: callSortSchema.optional(),
          path: z.string().trim().min(1).max(4096),
        })
        .strict(),
      z
        .object({ filter: callFilterSchema, sort: callSortSchema.optional(), download: z.literal(true) })
        .strict(),
    ]),
    callsExportResultSchema,
  ),
  /**
   * Every contact row of the list launched as `bulkListId` with its latest call's outcome (a window,
   * optionally of some outcomes), and the counts per outcome.
   */
  'calls:campaign-results': channel(
    z
      .object({
        workspaceId: workspaceId.optional(),
        bulkListId,
        outcomes: z.array(campaignOutcomeSchema).max(CAMPAIGN_OUTCOMES.length).optional(),
        offset: count,
        limit: z.number().int().min(1).max(500),
      })
      .strict(),
    z.object({
      bulkListId,
      listId: z.number().int().positive(),
      listName: z.string(),
      counts: outcomeCountsSchema,
      total: count,
      offset: count,
      rows: z.array(campaignResultRowSchema),
    }),
  ),
  /** The rows of the chosen outcomes become a new contact list (same columns and mapping). */
  'calls:follow-up-list': channel(
    z
      .object({
        workspaceId: workspaceId.optional(),
        bulkListId,
        outcomes: z
          .array(campaignOutcomeSchema)
          .min(1, 'Choose at least one outcome')
          .max(CAMPAIGN_OUTCOMES.length),
        name: z.string().trim().min(1, 'Give the list a name').max(200),
      })
      .strict(),
    z.object({ list: contactListSchema, rows: count }),
  ),

  /** Campaigns launched from here with live counters (from SQLite; polled while running and online). */
  'calls:live': channel(workspaceOnly, liveStatusSchema),
  'recordings:disk-usage': channel(z.object({}).strict(), diskUsageSchema),
  'recordings:set-retention': channel(
    z.object({ retentionDays: z.number().int().min(1).max(3650).nullable() }).strict(),
    diskUsageSchema,
  ),
  /** The recording size cap, in MB: larger recordings are refused (declared or streamed). */
  'recordings:set-max-size': channel(
    z.object({ maxMegabytes: z.number().int().min(1).max(100_000) }).strict(),
    diskUsageSchema,
  ),
};

export const callsEvents = {
  /** A sync's progress (at most a few per second) and its end. */
  'calls:sync-progress': event(syncStatusSchema),
  /** Calls were stored or changed (refresh open views of this workspace). */
  'calls:changed': event(z.object({ workspaceId, calls: count })),
  /** A live pass of running campaigns started or ended (`running`), with the counters after it. */
  'calls:live-changed': event(liveStatusSchema.extend({ running: z.boolean() })),
};
