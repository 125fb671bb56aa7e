import { z } from 'zod';
import {
  bulkListId,
  callId,
  campaignOutcomeSchema,
  CAMPAIGN_OUTCOMES,
  count,
  isoTime,
  workspaceId,
} from './fields.ts';
import { recordingInfoSchema, recordingStateSchema } from './recordings.ts';

// The Calls table: its filter (also used by export and stats), sort, a row with its search
// snippet, and the detail of one call; and what the CSV export answers.

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

export const callsExportResultSchema = z.object({
  rows: count,
  bytes: count,
  fileName: z.string(),
  path: z.string().nullable(),
  downloadUrl: z.string().nullable(),
});
