import { z } from 'zod';
import { parseIsoDateTime } from '../domain/dates.ts';

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM (00:00 to 23:59)');

/** An IANA zone name the runtime knows (Intl is part of the language, so this stays pure). */
export const ianaTimeZoneSchema = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return tz.length > 0;
  } catch {
    return false;
  }
}, 'must be an IANA time zone name such as Asia/Kolkata');

const nonNegativeInt = z.number().int().min(0);

export const callRetryConfigSchema = z.object({
  retry_count: nonNegativeInt.optional(),
  retry_busy: nonNegativeInt.optional(),
  retry_not_picked: nonNegativeInt.optional(),
  retry_failed: nonNegativeInt.optional(),
});
export type CallRetryConfig = z.infer<typeof callRetryConfigSchema>;

export const callTimeSchema = z.object({
  call_start_time: hhmm.optional(),
  call_end_time: hhmm.optional(),
  timezone: ianaTimeZoneSchema.optional(),
  /** Appears in the campaign start request; ISO date-time (no offset in the notes' sample: UTC) or null. */
  scheduled_at: z
    .string()
    .refine((t) => parseIsoDateTime(t) !== null, 'must be an ISO 8601 date-time such as 2026-09-25T10:30:00')
    .nullable()
    .optional(),
});
export type CallTime = z.infer<typeof callTimeSchema>;

/**
 * `call_config` (seed, "Call configuration object"). The keys the seed lists are checked; other
 * keys the real service knows (voicemail, transfer, …) pass through untouched.
 */
export const callConfigSchema = z.looseObject({
  idle_timeout_warning: nonNegativeInt.optional(),
  idle_timeout_end: nonNegativeInt.optional(),
  max_call_length: z.number().int().positive().optional(),
  call_retry_config: callRetryConfigSchema.optional(),
  call_time: callTimeSchema.optional(),
});
export type CallConfig = z.infer<typeof callConfigSchema>;

/**
 * `call_config` of `make-call-async`: "object with call_retry_config and call_time" (seed §3); the
 * idle timeouts and the call length are "individual call only" (the upload carries the list's).
 */
export const campaignCallConfigSchema = z.strictObject({
  call_retry_config: callRetryConfigSchema.optional(),
  call_time: callTimeSchema.optional(),
});
export type CampaignCallConfig = z.infer<typeof campaignCallConfigSchema>;

/** The part of a whole `call_config` that `make-call-async` takes. */
export const campaignCallConfigOf = (c: CallConfig): CampaignCallConfig => ({
  ...(c.call_retry_config ? { call_retry_config: c.call_retry_config } : {}),
  ...(c.call_time ? { call_time: c.call_time } : {}),
});
