import { z } from 'zod';
import { transcriptTurnSchema } from './callDetails.ts';

/** Fields every event carries (notes §6, "Common fields"). */
const commonFields = {
  call_id: z.string(),
  call_sid: z.string().nullish(),
  agent_id: z.string().nullish(),
  workspace_id: z.string().nullish(),
  custom_args_values: z.record(z.string(), z.unknown()).nullish(),
  agent_name: z.string().nullish(),
  version_id: z.string().nullish(),
  /** Credits; null until computed. */
  call_cost: z.number().nullish(),
  overall_latency_seconds: z.number().nullish(),
  first_utterance_seconds: z.number().nullish(),
  tool_call_logs: z.array(z.unknown()).nullish(),
};

const transcriptField = z.union([z.array(transcriptTurnSchema), z.string()]).nullish();

export const analysisDataSchema = z.looseObject({
  summary: z.string().nullish(),
  classification: z.string().nullish(),
  key_points: z.array(z.string()).nullish(),
  action_items: z.array(z.string()).nullish(),
  sentiment: z.string().nullish(),
  call_disconnect_reason: z.string().nullish(),
});

export const callStartedPayloadSchema = z.object({
  event_type: z.literal('call_started'),
  ...commonFields,
  sub_status: z.string().nullish(),
  version_slug: z.string().nullish(),
  version_description: z.string().nullish(),
});

/** Sent for each attempt; `status` is completed, failed or retry (no sub_status in the docs). */
export const callCompletedPayloadSchema = z.object({
  event_type: z.literal('call_completed'),
  ...commonFields,
  call_duration: z.number().nullish(),
  agent_message_count: z.number().int().nullish(),
  user_message_count: z.number().int().nullish(),
  call_type: z.string().nullish(),
  to_number: z.string().nullish(),
  from_number: z.string().nullish(),
  bulk_list_id: z.string().nullish(),
  status: z.string().nullish(),
  called_on: z.string().nullish(),
  transcript: transcriptField,
  retry_count: z.number().int().nullish(),
});

export const recordingCompletedPayloadSchema = z.object({
  event_type: z.literal('recording_completed'),
  ...commonFields,
  recording_url: z.string().nullish(),
  recording_duration: z.number().nullish(),
});

export const platformAnalysisCompletedPayloadSchema = z.object({
  event_type: z.literal('platform_analysis_completed'),
  ...commonFields,
  analysis_data: analysisDataSchema.nullish(),
});

export const clientAnalysisCompletedPayloadSchema = z.object({
  event_type: z.literal('client_analysis_completed'),
  ...commonFields,
  analysis_data: z.record(z.string(), z.unknown()).nullish(),
});

/** The whole call in one payload; the docs' field list is partial, so extra fields pass through. */
export const allProcessingCompletedPayloadSchema = z.looseObject({
  event_type: z.literal('all_processing_completed'),
  ...commonFields,
  status: z.string().nullish(),
  sub_status: z.string().nullish(),
  transcript: transcriptField,
  recording_url: z.string().nullish(),
  call_duration: z.number().nullish(),
  to_number: z.string().nullish(),
  from_number: z.string().nullish(),
  bulk_list_id: z.string().nullish(),
  platform_analysis: z.record(z.string(), z.unknown()).nullish(),
  client_analysis: z.record(z.string(), z.unknown()).nullish(),
  platform_analysis_status: z.string().nullish(),
  client_analysis_status: z.string().nullish(),
});

export const webhookPayloadSchema = z.discriminatedUnion('event_type', [
  callStartedPayloadSchema,
  callCompletedPayloadSchema,
  recordingCompletedPayloadSchema,
  platformAnalysisCompletedPayloadSchema,
  clientAnalysisCompletedPayloadSchema,
  allProcessingCompletedPayloadSchema,
]);
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/**
 * Per-call callback (`callback_url` on the individual call): sent on each status change, with the
 * transcript as a string (docs: get-started/tutorials/webhooks).
 */
export const legacyCallbackPayloadSchema = z.object({
  status: z.string(),
  data: z.object({
    call_id: z.string(),
    call_direction: z.string().nullish(),
    status: z.string().nullish(),
    call_duration: z.number().nullish(),
    recording_url: z.string().nullish(),
    transcript: transcriptField,
    agent_id: z.string().nullish(),
    retry: z.number().int().nullish(),
    from_number: z.string().nullish(),
    to_number: z.string().nullish(),
    custom_args_values: z.record(z.string(), z.unknown()).nullish(),
    analysis: z.record(z.string(), z.unknown()).nullish(),
  }),
  message: z.string().nullish(),
});
export type LegacyCallbackPayload = z.infer<typeof legacyCallbackPayloadSchema>;
