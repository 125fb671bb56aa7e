import { z } from 'zod';

/** Call `status` (seed, "States and transitions"). */
export const callStatuses = [
  'registered',
  'ongoing',
  'retry',
  'error',
  'completed',
  'failed',
  'cancelled',
  'forwarded',
] as const;
export type CallStatus = (typeof callStatuses)[number];
export const callStatusSchema = z.enum(callStatuses);

/** Statuses after which a call never changes again. */
export const terminalCallStatuses: readonly CallStatus[] = [
  'error',
  'completed',
  'failed',
  'cancelled',
  'forwarded',
];

/** Call `sub_status` values of the seed. */
export const callSubStatuses = [
  'IN_DB',
  'QUEUED',
  'ACCEPTED',
  'RATE_LIMITED',
  'RETRY_LIMIT_REACHED',
  'RETRY_SCHEDULED',
  'FAILED',
  'USER_DID_NOT_JOIN',
  'USER_LEFT',
  'USER_BECAME_IDLE',
  'CAMPAIGN_TIME_EXCEEDED',
  'MAX_CALL_DURATION',
  'NOT_ABLE_TO_CALL',
  'USER_TERMINATED',
  'DND_SKIPPED',
  'VOICEMAIL_DETECTED',
  'VOICEMAIL_DETECTED_VIA_LLM',
  'PRE_CALL_API_FAILED',
  'RECONCILED_TO_ERROR_FROM_REGISTERED',
  'RECONCILED_TO_ERROR_FROM_RETRY',
  'RECONCILED_TO_ERROR_FROM_ONGOING',
  'RECONCILED_TO_COMPLETED_FROM_ONGOING',
] as const;
export type CallSubStatus = (typeof callSubStatuses)[number];
/** What the sandbox sends: the seed's list only. */
export const callSubStatusSchema = z.enum(callSubStatuses);
/**
 * What readers accept: the seed's list, `PIPECAT_TIMEOUT` (notes §10) and any other upper-case code,
 * so a new value on the real service never breaks a history sync.
 */
export const callSubStatusReadSchema = z.string();

/** Bulk list (large campaign) statuses: the seed's three plus the upload-status flow of notes §1. */
export const bulkListStatuses = [
  'verifying',
  'uploaded',
  'processing',
  'completed',
  'ready',
  'failed',
  'scheduled',
  'draft',
] as const;
export type BulkListStatus = (typeof bulkListStatuses)[number];

/** The six webhook event types (seed, "Events"). */
export const eventTypes = [
  'call_started',
  'call_completed',
  'recording_completed',
  'platform_analysis_completed',
  'client_analysis_completed',
  'all_processing_completed',
] as const;
export type EventType = (typeof eventTypes)[number];
export const eventTypeSchema = z.enum(eventTypes);

export const callDirections = ['outbound', 'inbound', 'webcall'] as const;
export type CallDirection = (typeof callDirections)[number];
