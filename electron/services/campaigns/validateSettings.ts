// The builder's settings checked before anything is sent; every problem names its field.
import { isLocalDraftAgent } from '../agents/draftAgents.ts';
import { checkCallingHours } from '../../../shared/domain/callingHours.ts';
import type { CallPurpose } from '../../../shared/domain/callingHours.ts';
import { scheduleProblems } from '../../../shared/domain/campaignSchedule.ts';
import { campaignTimeToInstant } from '../../../shared/domain/dates.ts';
import type { CampaignSettings, FieldError } from '../../../shared/ipc/channels/campaigns.ts';
import { callConfigSchema } from '../../../shared/service/callConfig.ts';
import { hasUrlCredentials, WEBHOOK_URL_CREDENTIALS_MESSAGE } from '../../../shared/service/common.ts';
import type { CallConfig } from '../../../shared/service/callConfig.ts';
import { countryCodeSchema } from '../../../shared/service/upload.ts';

const E164 = /^\+[1-9]\d{6,14}$/;

/** Every problem at once, each naming its field; `locale` writes dates as the UI's pickers do. */
export function validateSettings(s: CampaignSettings, nowMs: number, locale?: string): FieldError[] {
  const errors: FieldError[] = [];
  const add = (field: string, message: string) => errors.push({ field, message });
  if (s.listId === null) add('listId', 'Choose a contact list');
  if (!s.agentId?.trim()) add('agentId', 'Choose an agent');
  else if (isLocalDraftAgent(s.agentId))
    add('agentId', 'This agent is a local draft: it is not on the service, so it cannot be launched');
  if (!s.name.trim()) add('name', 'Give the campaign a name');
  if (!countryCodeSchema.safeParse(s.countryCode).success)
    add('countryCode', 'Country code must be a dialing prefix such as +91 (or a code such as IN)');
  if (s.numberSource.kind === 'numbers') {
    if (s.numberSource.fromNumbers.length === 0)
      add('numberSource', 'Choose at least one caller number, or a number pool instead');
    for (const n of s.numberSource.fromNumbers)
      if (n.startsWith('+') && !E164.test(n))
        add('numberSource', `Caller number ${n} is not an E.164 number`);
  } else if (!s.numberSource.numberPoolId.trim())
    add('numberSource', 'Choose a number pool, or caller numbers instead');
  for (const p of scheduleProblems(s.start, s.end, s.timezone, nowMs, locale)) add(p.field, p.message);
  // Outside the recipients' permitted hours: a warning the operator must acknowledge to launch.
  const hoursWarning = permittedHoursWarning(s, nowMs);
  if (hoursWarning && !s.hoursAcknowledged)
    add(
      'hoursAcknowledged',
      `${hoursWarning} Change the daily window, or confirm that these calls may be made then.`,
    );
  if (s.call.idleTimeoutWarningSeconds >= s.call.idleTimeoutEndSeconds)
    add('call.idleTimeoutWarningSeconds', 'The idle warning must come before the idle hang-up');
  if (s.callbackUrl.trim() && !/^https?:\/\/[^\s/]+/i.test(s.callbackUrl.trim()))
    add('callbackUrl', 'Callback URL must start with http:// or https://');
  else if (hasUrlCredentials(s.callbackUrl)) add('callbackUrl', WEBHOOK_URL_CREDENTIALS_MESSAGE);
  return errors;
}

/** The permitted-hours warning for the settings (read on the campaign's start day), or null. */
export const permittedHoursWarning = (s: CampaignSettings, nowMs: number): string | null =>
  hoursWarningOf(
    {
      countryCode: s.countryCode,
      purpose: s.purpose,
      windowStart: s.call.windowStart,
      windowEnd: s.call.windowEnd,
      timezone: s.timezone,
      start: s.start,
    },
    nowMs,
  );

/**
 * The permitted-hours warning of a daily window (`start` is `DD/MM/YYYY, HH:MM` in `timezone`: the
 * rule is read on that day), or null: the app's builder and plan and the CLI's `launch` say the same.
 */
export function hoursWarningOf(
  w: {
    countryCode: string;
    purpose: CallPurpose;
    windowStart: string;
    windowEnd: string;
    timezone: string;
    start: string;
  },
  nowMs: number,
): string | null {
  const start = campaignTimeToInstant(w.start, w.timezone);
  try {
    return (
      checkCallingHours({
        countryCode: w.countryCode,
        purpose: w.purpose,
        windowStart: w.windowStart,
        windowEnd: w.windowEnd,
        timezone: w.timezone,
        atMs: start.ok ? start.value : nowMs,
      })?.warning ?? null
    );
  } catch {
    return null; // an unknown zone is named by the schedule checks
  }
}

/** `call_config` as the service wants it (retry delays in minutes, timeouts in seconds). */
export function callConfigOf(s: CampaignSettings): CallConfig {
  return callConfigSchema.parse({
    idle_timeout_warning: s.call.idleTimeoutWarningSeconds,
    idle_timeout_end: s.call.idleTimeoutEndSeconds,
    max_call_length: s.call.maxCallLengthSeconds,
    call_retry_config: {
      retry_count: s.call.retryCount,
      retry_busy: s.call.retryBusyMinutes,
      retry_not_picked: s.call.retryNotPickedMinutes,
      retry_failed: s.call.retryFailedMinutes,
    },
    call_time: { call_start_time: s.call.windowStart, call_end_time: s.call.windowEnd, timezone: s.timezone },
  });
}
