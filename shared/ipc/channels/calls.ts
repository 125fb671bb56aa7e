import { z } from 'zod';
import { channel, event } from '../define.ts';
import { contactListSchema } from './contacts.ts';
import {
  callCampaignSchema,
  campaignResultRowSchema,
  liveStatusSchema,
  outcomeCountsSchema,
} from './calls/campaigns.ts';
import {
  bulkListId,
  callId,
  campaignOutcomeSchema,
  CAMPAIGN_OUTCOMES,
  count,
  isoTime,
  workspaceId,
} from './calls/fields.ts';
import {
  callDetailSchema,
  callFilterSchema,
  callsExportResultSchema,
  callSortSchema,
  callSummarySchema,
} from './calls/list.ts';
import { diskUsageSchema } from './calls/recordings.ts';
import { callStatsSchema } from './calls/stats.ts';
import { quarantinedRecordSchema, syncStatusSchema } from './calls/sync.ts';

// Calls: history synced from the calling service into SQLite (per workspace), the recordings saved
// in the data folder before their URLs expire, and offline review (list, search, detail, charts,
// campaign results, follow-up lists, CSV export). Every read answers from SQLite only.
// The channels are here; their schemas live in calls/ by job, re-exported below so that importers
// keep this one path.

export { CALL_STATUSES, CAMPAIGN_OUTCOMES, campaignOutcomeSchema } from './calls/fields.ts';
export type { CampaignOutcome } from './calls/fields.ts';
export * from './calls/campaigns.ts';
export * from './calls/list.ts';
export * from './calls/recordings.ts';
export * from './calls/stats.ts';
export * from './calls/sync.ts';

const workspaceOnly = z.object({ workspaceId: workspaceId.optional() }).strict();

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
