// A test call: the number typed as contact lists take it (national with the campaign's default
// country, or international) and the window it carries. The individual call takes its own
// `call_config.call_time`, so a test call either rings now (a window opening this minute) or keeps
// the campaign's daily window, in which case the operator is told before it is placed when it will
// ring and why it waits.
import { isWithinCallWindow, nextCallWindowOpening } from './callConfig.ts';
import { instantToZoned } from './dates.ts';
import { libraryE164 } from './phone/libraryPhone.ts';
import { resolveDefaultCountry } from './phone/country.ts';
import { phoneText } from './phone/excelDamage.ts';

export type TestCallNumber = { ok: true; e164: string } | { ok: false; message: string };

/** `98765 43210` with IN (or +91) → `+919876543210`, checked as the contact lists check numbers. */
export function parseTestCallNumber(text: string, countryCode: string): TestCallNumber {
  const raw = phoneText(text.trim());
  if (!raw) return { ok: false, message: 'Type the number to call.' };
  const country = resolveDefaultCountry(countryCode);
  if (!country && !raw.startsWith('+'))
    return {
      ok: false,
      message: `Give the number with its country prefix (+91…): the campaign's country code "${countryCode}" is not one the app knows.`,
    };
  const e164 = libraryE164(raw, country?.country ?? 'IN');
  return e164
    ? { ok: true, e164 }
    : {
        ok: false,
        message: `${text.trim()} is not a valid phone number${country ? ` for ${country.country} (+${country.callingCode})` : ''}.`,
      };
}

/** How long a test call keeps its own window open when it rings now. */
export const RING_NOW_MINUTES = 120;

export interface TestCallTiming {
  callTime: { call_start_time: string; call_end_time: string; timezone: string; scheduled_at: null };
  /** ISO instant the call will wait for; null when it rings now. */
  waitsUntil: string | null;
  /** Plain words: when it rings and why. */
  note: string;
}

const hhmm = (ms: number, tz: string) => {
  const z = instantToZoned(ms, tz);
  return `${String(z.hour).padStart(2, '0')}:${String(z.minute).padStart(2, '0')}`;
};

function inWords(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h} h${m > 0 ? ` ${m} min` : ''}` : `${m} min`;
}

/**
 * `now`: the call carries a window from this minute for two hours in the campaign's zone, so it
 * rings at once whatever the campaign's window. `campaign-window`: the campaign's daily window; if it
 * is closed, the call waits for it and the note says until when.
 */
export function testCallTiming(input: {
  mode: 'now' | 'campaign-window';
  nowMs: number;
  timezone: string;
  windowStart: string;
  windowEnd: string;
}): TestCallTiming {
  const tz = input.timezone;
  if (input.mode === 'now') {
    const from = hhmm(input.nowMs, tz);
    const to = hhmm(input.nowMs + RING_NOW_MINUTES * 60_000, tz);
    return {
      callTime: { call_start_time: from, call_end_time: to, timezone: tz, scheduled_at: null },
      waitsUntil: null,
      note: `Rings now: the test call carries its own window ${from}–${to} (${tz}), not the campaign's.`,
    };
  }
  const w = { callStartTime: input.windowStart, callEndTime: input.windowEnd, timezone: tz };
  const callTime = {
    call_start_time: input.windowStart,
    call_end_time: input.windowEnd,
    timezone: tz,
    scheduled_at: null,
  };
  if (isWithinCallWindow(input.nowMs, w))
    return {
      callTime,
      waitsUntil: null,
      note: `Rings now: the campaign's daily window ${input.windowStart}–${input.windowEnd} (${tz}) is open.`,
    };
  const opens = nextCallWindowOpening(input.nowMs, w);
  return {
    callTime,
    waitsUntil: new Date(opens).toISOString(),
    note: `Waits until ${hhmm(opens, tz)} (${tz}), in ${inWords(opens - input.nowMs)}: the campaign's daily window ${input.windowStart}–${input.windowEnd} is closed now (${hhmm(input.nowMs, tz)}). The service keeps the call registered until then.`,
  };
}
