// call_config defaults, parsing and calling-window arithmetic. Units are not documented: we read
// idle timeouts and max_call_length as seconds (notes §8: "very likely seconds") and the retry
// delays (retry_busy, retry_not_picked, retry_failed) as minutes (the notes' plausible guess).
import { callConfigSchema } from '../service/callConfig.ts';
import type { CallConfig } from '../service/callConfig.ts';
import { instantToZoned, zonedToInstant } from './dates.ts';
import type { ParseResult } from './dates.ts';

export const retryDelayUnitSeconds = 60;

export interface ResolvedCallConfig {
  idleTimeoutWarningSeconds: number;
  idleTimeoutEndSeconds: number;
  maxCallLengthSeconds: number;
  retryCount: number;
  retryBusyMinutes: number;
  retryNotPickedMinutes: number;
  retryFailedMinutes: number;
  callStartTime: string; // HH:MM
  callEndTime: string; // HH:MM
  timezone: string;
  scheduledAt: string | null;
}

/** The values the notes' examples show. */
export const callConfigDefaults: ResolvedCallConfig = {
  idleTimeoutWarningSeconds: 10,
  idleTimeoutEndSeconds: 15,
  maxCallLengthSeconds: 300,
  retryCount: 3,
  retryBusyMinutes: 30,
  retryNotPickedMinutes: 30,
  retryFailedMinutes: 30,
  callStartTime: '08:00',
  callEndTime: '20:00',
  timezone: 'Asia/Kolkata',
  scheduledAt: null,
};

export function resolveCallConfig(
  c: CallConfig | null | undefined,
  defaults = callConfigDefaults,
): ResolvedCallConfig {
  const r = c?.call_retry_config;
  const t = c?.call_time;
  return {
    idleTimeoutWarningSeconds: c?.idle_timeout_warning ?? defaults.idleTimeoutWarningSeconds,
    idleTimeoutEndSeconds: c?.idle_timeout_end ?? defaults.idleTimeoutEndSeconds,
    maxCallLengthSeconds: c?.max_call_length ?? defaults.maxCallLengthSeconds,
    retryCount: r?.retry_count ?? defaults.retryCount,
    retryBusyMinutes: r?.retry_busy ?? defaults.retryBusyMinutes,
    retryNotPickedMinutes: r?.retry_not_picked ?? defaults.retryNotPickedMinutes,
    retryFailedMinutes: r?.retry_failed ?? defaults.retryFailedMinutes,
    callStartTime: t?.call_start_time ?? defaults.callStartTime,
    callEndTime: t?.call_end_time ?? defaults.callEndTime,
    timezone: t?.timezone ?? defaults.timezone,
    scheduledAt: t?.scheduled_at ?? defaults.scheduledAt,
  };
}

/** Parse `call_config` sent as a JSON string (multipart uploads); messages name the field. */
export function parseCallConfigText(text: string): ParseResult<CallConfig> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, message: 'call_config is not valid JSON' };
  }
  return checkCallConfig(raw);
}

export function checkCallConfig(raw: unknown): ParseResult<CallConfig> {
  const parsed = callConfigSchema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = ['call_config', ...(issue?.path ?? []).map(String)].join('.');
  return { ok: false, message: `${where}: ${issue?.message ?? 'invalid'}` };
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

export interface CallWindow {
  callStartTime: string;
  callEndTime: string;
  timezone: string;
}

/**
 * Whether instant `ms` falls in the daily window [start, end) in the window's zone. An end before
 * the start wraps past midnight; equal start and end means "all day".
 */
export function isWithinCallWindow(ms: number, w: CallWindow): boolean {
  const start = minutesOf(w.callStartTime);
  const end = minutesOf(w.callEndTime);
  if (start === end) return true;
  const z = instantToZoned(ms, w.timezone);
  const now = z.hour * 60 + z.minute;
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/**
 * The first of `minuteOfDay` today, tomorrow or the day after (in `timezone`, today being the day of
 * `ms`) that `accept` takes; null when none does.
 */
function firstDailyInstant(
  ms: number,
  timezone: string,
  minuteOfDay: number,
  accept: (candidate: number) => boolean,
): number | null {
  const z = instantToZoned(ms, timezone);
  for (let dayOffset = 0; dayOffset <= 2; dayOffset++) {
    const d = new Date(Date.UTC(z.year, z.month - 1, z.day + dayOffset));
    const candidate = zonedToInstant(
      {
        year: d.getUTCFullYear(),
        month: d.getUTCMonth() + 1,
        day: d.getUTCDate(),
        hour: Math.floor(minuteOfDay / 60),
        minute: minuteOfDay % 60,
      },
      timezone,
    );
    if (accept(candidate)) return candidate;
  }
  return null;
}

/** The first instant ≥ `ms` inside the window (`ms` itself when already inside). */
export function nextCallWindowOpening(ms: number, w: CallWindow): number {
  if (isWithinCallWindow(ms, w)) return ms;
  const start = minutesOf(w.callStartTime);
  return firstDailyInstant(ms, w.timezone, start, (at) => at >= ms) ?? ms; // null: unreachable for valid windows
}

/** The first instant > `ms` at which the window closes (null for an all-day window). */
export function nextCallWindowClose(ms: number, w: CallWindow): number | null {
  const start = minutesOf(w.callStartTime);
  const end = minutesOf(w.callEndTime);
  if (start === end) return null;
  return firstDailyInstant(ms, w.timezone, end, (at) => at > ms);
}
