// Hours in which the recipients of a campaign may be called, by country and purpose, and the check of
// a campaign's daily window against them. A window outside these hours is a warning the operator must
// acknowledge (the app cannot know every exemption), not a refusal. Operators add rows as they learn
// the rules of other countries.
import { zoneOffsetMinutes } from './dates.ts';

export const CALL_PURPOSES = ['promotional', 'loan-recovery', 'other'] as const;
export type CallPurpose = (typeof CALL_PURPOSES)[number];

export const PURPOSE_LABELS: Record<CallPurpose, string> = {
  promotional: 'Promotional (marketing, offers)',
  'loan-recovery': 'Recovery of overdue loans',
  other: 'Other (no calling-hours rule known)',
};

export interface PermittedHours {
  /** ISO 3166 alpha-2 code of the recipients' country. */
  country: string;
  countryName: string;
  /** The recipients' local zone the hours are read in. */
  timezone: string;
  /** Dialing prefix (as the campaign's country code writes it). */
  dialCode: string;
  purpose: CallPurpose;
  from: string;
  to: string;
  rule: string;
}

export const PERMITTED_HOURS: readonly PermittedHours[] = [
  {
    country: 'IN',
    countryName: 'India',
    timezone: 'Asia/Kolkata',
    dialCode: '+91',
    purpose: 'promotional',
    from: '09:00',
    to: '21:00',
    rule: 'TRAI’s commercial communications rules (TCCCPR 2018)',
  },
  {
    country: 'IN',
    countryName: 'India',
    timezone: 'Asia/Kolkata',
    dialCode: '+91',
    purpose: 'loan-recovery',
    from: '08:00',
    to: '19:00',
    rule: 'the RBI’s 2022 circular to lenders and their recovery agents',
  },
];

/** The table's row for a campaign country code (`+91`, `91` or `IN`) and purpose, if any. */
export function permittedHoursFor(countryCode: string, purpose: CallPurpose): PermittedHours | null {
  const code = countryCode.trim().toUpperCase();
  const dial = code.startsWith('+') ? code : /^\d+$/.test(code) ? `+${code}` : null;
  return (
    PERMITTED_HOURS.find(
      (p) => p.purpose === purpose && (p.country === code || (dial !== null && p.dialCode === dial)),
    ) ?? null
  );
}

const minutesOf = (hhmm: string): number => {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};
const hhmmOf = (minutes: number): string => {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/** True when the daily window `from`–`to` ends the next day (an end before the start). */
export const isOvernightWindow = (from: string, to: string): boolean => minutesOf(to) < minutesOf(from);

export interface HoursCheck {
  rule: PermittedHours;
  /** The window in the recipients' local time (HH:MM). */
  localFrom: string;
  localTo: string;
  /** Plain words for the operator; null when the window is inside the permitted hours. */
  warning: string | null;
}

/**
 * The daily window (HH:MM in `timezone`) against the permitted hours of the recipients' country for
 * `purpose`, read on the day of `atMs` (zone offsets change with daylight saving). Null when the
 * table has no row for the country and purpose.
 */
export function checkCallingHours(input: {
  countryCode: string;
  purpose: CallPurpose;
  windowStart: string;
  windowEnd: string;
  timezone: string;
  atMs: number;
}): HoursCheck | null {
  const rule = permittedHoursFor(input.countryCode, input.purpose);
  const start = minutesOf(input.windowStart);
  const end = minutesOf(input.windowEnd);
  if (!rule || Number.isNaN(start) || Number.isNaN(end)) return null;
  let shift: number;
  try {
    shift = zoneOffsetMinutes(input.atMs, rule.timezone) - zoneOffsetMinutes(input.atMs, input.timezone);
  } catch {
    return null; // an unknown campaign zone is named by the schedule checks
  }
  const localStart = start + shift;
  // Length of the window in minutes: equal ends mean all day; an earlier end wraps past midnight.
  const length = end === start ? 1440 : (end - start + 1440) % 1440;
  const from = minutesOf(rule.from);
  const to = minutesOf(rule.to);
  const s = ((localStart % 1440) + 1440) % 1440;
  const inside = s >= from && s + length <= to;
  const localFrom = hhmmOf(localStart);
  const localTo = hhmmOf(localStart + length);
  const zoneNote = shift === 0 ? '' : ` (${localFrom}–${localTo} in ${rule.countryName})`;
  const window = length === 1440 ? 'all day' : `${input.windowStart}–${input.windowEnd} ${input.timezone}`;
  return {
    rule,
    localFrom,
    localTo,
    warning: inside
      ? null
      : `The daily window ${window}${zoneNote} is outside the hours ${rule.countryName} permits for ${PURPOSE_LABELS[input.purpose].replace(/ \(.*\)$/, '').toLowerCase()} calls: ${rule.from}–${rule.to} local time under ${rule.rule}.`,
  };
}
