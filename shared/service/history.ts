import { z } from 'zod';
import { callStatusSchema, callStatuses, callSubStatusReadSchema } from './enums.ts';
import { checkCallRecord } from './callRecordCheck.ts';
import { checkServiceTimestamp } from './normalize.ts';

/**
 * A timestamp in any documented form (with or without microseconds and offset), read strictly: a
 * field out of range (2025-02-30, 25:61:61) or a year outside 1970–2100 is refused, never rolled over.
 */
const serviceTimestampSchema = z.string().superRefine((s, ctx) => {
  const r = checkServiceTimestamp(s);
  if ('problem' in r)
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(s.slice(0, 60))} ${r.problem}` });
});

/**
 * Per-field ranges of a call record's numbers (a record outside them is refused, or clamped where
 * the call is still worth keeping). call_duration: seconds, negative refused, above 24 h clamped to
 * 24 h (1e308 would overflow every date computed from it); call_cost: credits, negative or above a
 * million refused (a cost is never invented).
 */
export const MAX_CALL_DURATION_S = 24 * 3600;
export const MAX_CALL_COST = 1_000_000;
const callDurationSchema = z
  .number()
  .min(0, 'must not be negative')
  .transform((s) => Math.min(s, MAX_CALL_DURATION_S));
const callCostSchema = z
  .number()
  .min(0, 'must not be negative')
  .max(MAX_CALL_COST, `must be at most ${MAX_CALL_COST.toLocaleString('en-US')} credits`);

/** `agent` object of a call record. */
export const callAgentSchema = z.object({
  id: z.string(),
  agent_name: z.string().nullish(),
  agent_version_id: z.string().nullish(),
  orchestration_mode: z.string().nullish(),
  version: z
    .object({
      version_id: z.string().nullish(),
      version_slug: z.string().nullish(),
    })
    .nullish(),
});
export type CallAgent = z.infer<typeof callAgentSchema>;

/**
 * One call record of `GET /calling/history` (seed, "Call record"). Readers are tolerant: everything a
 * queued call may not have yet is nullable, and `transcript` may come as a JSON-encoded string (seed)
 * or as the list itself.
 */
export const callRecordSchema = z.object({
  /** Ids are ≤ 200 characters everywhere else (the IPC contract's callId). */
  id: z.string().min(1).max(200),
  to_number: z.string().nullish(),
  name: z.string().nullish(),
  status: z.string(),
  sub_status: callSubStatusReadSchema.nullish(),
  transcript: z.union([z.string(), z.array(z.record(z.string(), z.unknown()))]).nullish(),
  audio_recording: z.string().nullish(),
  created_at: serviceTimestampSchema,
  agent: callAgentSchema.nullish(),
  call_duration: callDurationSchema.nullish(),
  call_attempt_time: serviceTimestampSchema.nullish(),
  call_cost: callCostSchema.nullish(),
  call_type: z.string().nullish(),
  inbound_from: z.string().nullish(),
  credits_processed: z.boolean().nullish(),
  from_numbers: z.array(z.string()).nullish(),
  voicemail_detected: z.boolean().nullish(),
});
export type CallRecord = z.infer<typeof callRecordSchema>;

/** `total` is an integer; the real service was observed sending a string ("many", notes §9). */
export const historyTotalSchema = z.union([z.number().int(), z.string()]);

export const historyResponseSchema = z.object({
  calls: z.array(callRecordSchema),
  limit: z.number().int(),
  offset: z.number().int(),
  count: z.number().int(),
  total: historyTotalSchema,
});
export type HistoryResponse = z.infer<typeof historyResponseSchema>;

/** The page with its records unread: each is checked on its own (readCallRecords). */
export const historyEnvelopeSchema = historyResponseSchema.extend({ calls: z.array(z.unknown()) });

/**
 * A history page with its records unread: the sync sends the page's text to the DB worker, which
 * reads, checks and stores the records there (a row copied between threads cost more than reading
 * it twice). The rest is what the sync pages by.
 */
export interface HistoryPageText {
  /** The page as received (JSON, its envelope checked). */
  text: string;
  count: number;
  total: number | null;
  /** Records on the page, valid or not. */
  items: number;
  /** Each record's `recordKeyOf`. */
  keys: string[];
}

/** A record of a history page that failed its schema: kept apart (quarantined), never stored as a call. */
export interface RejectedRecord {
  /** The record's id when it has a readable one. */
  callId: string | null;
  /** The first failing field's path (`created_at`, `agent.id`), or `record`. */
  field: string;
  reason: string;
  /** The record as received (JSON), cut at MAX_REJECTED_RAW characters. */
  raw: string;
}

export const MAX_REJECTED_RAW = 64 * 1024;

/**
 * A page's records, each checked on its own: one bad record never fails its page. The valid ones
 * parsed; the others with the first failing field and why.
 */
export function readCallRecords(items: readonly unknown[]): {
  records: CallRecord[];
  rejected: RejectedRecord[];
} {
  const records: CallRecord[] = [];
  const rejected: RejectedRecord[] = [];
  for (const item of items) {
    // The hand-written check first (the sync's hot path); a record it refuses is asked of the
    // schema, which says which field and why.
    const checked = checkCallRecord(item);
    if (checked) {
      records.push(checked);
      continue;
    }
    const r = callRecordSchema.safeParse(item);
    if (r.success) {
      records.push(r.data);
      continue;
    }
    const issue = r.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.join('.') : 'record';
    rejected.push({
      callId: readableId(item),
      field,
      reason: `${field}: ${issue?.message ?? 'invalid'}`,
      raw: rawOfRecord(item),
    });
  }
  return { records, rejected };
}

/** A record's id when it has a readable one (a string of 1–200 characters), else null. */
export function readableId(item: unknown): string | null {
  const id =
    typeof item === 'object' && item !== null && 'id' in item && typeof item.id === 'string' ? item.id : null;
  return id !== null && id.length > 0 && id.length <= 200 ? id : null;
}

/** A record as received (JSON), cut at MAX_REJECTED_RAW characters. */
function rawOfRecord(item: unknown): string {
  const raw = JSON.stringify(item) ?? String(item);
  return raw.length > MAX_REJECTED_RAW ? raw.slice(0, MAX_REJECTED_RAW) : raw;
}

/**
 * What tells a page's records apart in a window (its distinct ids are counted against the window's
 * total): the id of a valid record, `callId ?? raw` of a refused one (readCallRecords). A valid
 * record's id is always readable, so the readable id, else the record as received.
 */
export const recordKeyOf = (item: unknown): string => readableId(item) ?? rawOfRecord(item);

/**
 * The service's declared defaults when a date is left out (history/get-call-history): one fixed,
 * stale day. A request without dates therefore returns that day only, never "everything".
 */
export const historyDefaultStartDate = '2025-09-25T00:00:00+05:30';
export const historyDefaultEndDate = '2025-09-25T23:59:59+05:30';

/**
 * Query of `GET /calling/history` as the client sends it: always an explicit window (without one
 * the service answers its fixed default day).
 */
export const historyQuerySchema = z.object({
  /** ISO 8601 with a timezone offset. */
  start_date: z.iso.datetime({ offset: true }),
  end_date: z.iso.datetime({ offset: true }),
  limit: z.number().int().min(0).optional(),
  offset: z.number().int().min(0).optional(),
  agent_id: z.string().min(1).optional(),
  status: callStatusSchema.optional(),
  bulk_list_id: z.string().min(1).optional(),
});
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

export const historyStatusValues = callStatuses;
