// The campaign window's checks, shared by the builder's validation and the CLI: both times as the
// service writes them (`DD/MM/YYYY, HH:MM` in an IANA zone), start in the future, end after start.
import { ianaTimeZoneSchema } from '../service/callConfig.ts';
import { campaignTimeToInstant, parseCampaignTime } from './dates.ts';

/**
 * A `DD/MM/YYYY, HH:MM` wall-clock time as the date pickers of `locale` show it (`11/24/2026, 09:30 AM`
 * in en-US); the text itself when it does not parse or no locale is given (the CLI's own format).
 */
export function formatWallClock(text: string, locale?: string): string {
  if (!locale) return text;
  const p = parseCampaignTime(text);
  if (!p.ok) return text;
  try {
    return new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'UTC',
    }).format(Date.UTC(p.value.year, p.value.month - 1, p.value.day, p.value.hour, p.value.minute));
  } catch {
    return text;
  }
}

export interface ScheduleProblem {
  field: 'start' | 'end' | 'timezone';
  message: string;
}

export function scheduleProblems(
  start: string,
  end: string,
  timezone: string,
  nowMs: number,
  /** The UI's locale: dates in the messages read as its pickers show them. */
  locale?: string,
): ScheduleProblem[] {
  const f = (t: string) => formatWallClock(t, locale);
  if (!ianaTimeZoneSchema.safeParse(timezone).success)
    return [
      { field: 'timezone', message: `Time zone "${timezone}" is not an IANA name such as Asia/Kolkata` },
    ];
  const problems: ScheduleProblem[] = [];
  const s = campaignTimeToInstant(start, timezone);
  const e = campaignTimeToInstant(end, timezone);
  if (!s.ok) problems.push({ field: 'start', message: `Start: ${s.message}` });
  else if (s.value <= nowMs)
    problems.push({ field: 'start', message: `Start ${f(start)} (${timezone}) is not in the future` });
  if (!e.ok) problems.push({ field: 'end', message: `End: ${e.message}` });
  else if (s.ok && e.value <= s.value)
    problems.push({
      field: 'end',
      message: `End ${f(end)} is not after the start ${f(start)} (both ${timezone})`,
    });
  return problems;
}
