// The campaign window's checks, shared by the builder's validation and the CLI: both times as the
// service writes them (`DD/MM/YYYY, HH:MM` in an IANA zone), start in the future, end after start.
import { ianaTimeZoneSchema } from '../service/callConfig.ts';
import { campaignTimeToInstant } from './dates.ts';

export interface ScheduleProblem {
  field: 'start' | 'end' | 'timezone';
  message: string;
}

export function scheduleProblems(
  start: string,
  end: string,
  timezone: string,
  nowMs: number,
): ScheduleProblem[] {
  if (!ianaTimeZoneSchema.safeParse(timezone).success)
    return [
      { field: 'timezone', message: `Time zone "${timezone}" is not an IANA name such as Asia/Kolkata` },
    ];
  const problems: ScheduleProblem[] = [];
  const s = campaignTimeToInstant(start, timezone);
  const e = campaignTimeToInstant(end, timezone);
  if (!s.ok) problems.push({ field: 'start', message: `Start: ${s.message}` });
  else if (s.value <= nowMs)
    problems.push({ field: 'start', message: `Start ${start} (${timezone}) is not in the future` });
  if (!e.ok) problems.push({ field: 'end', message: `End: ${e.message}` });
  else if (s.ok && e.value <= s.value)
    problems.push({ field: 'end', message: `End ${end} is not after the start ${start}` });
  return problems;
}
