import { z } from 'zod';
import { callStatusSchema, callStatuses, callSubStatusReadSchema } from './enums.ts';
import { parseServiceTimestamp } from './normalize.ts';

/** A timestamp in any documented form (with or without microseconds and offset). */
const serviceTimestampSchema = z
  .string()
  .refine((s) => parseServiceTimestamp(s) !== null, 'must be an ISO 8601 date-time');

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
  id: z.string(),
  to_number: z.string().nullish(),
  name: z.string().nullish(),
  status: z.string(),
  sub_status: callSubStatusReadSchema.nullish(),
  transcript: z.union([z.string(), z.array(z.record(z.string(), z.unknown()))]).nullish(),
  audio_recording: z.string().nullish(),
  created_at: serviceTimestampSchema,
  agent: callAgentSchema.nullish(),
  call_duration: z.number().nullish(),
  call_attempt_time: serviceTimestampSchema.nullish(),
  call_cost: z.number().nullish(),
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
