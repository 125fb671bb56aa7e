// The plan view: how many calls, how they fit day by day into the daily window inside the campaign
// window, an estimated finish for the concurrency, and credits needed against available. Every date
// is read in the campaign's timezone. An overnight daily window (20:00–09:00) is planned as one window
// spanning midnight, as the service dials it (an end before the start wraps), and the plan says so.
// The launch checks (launchChecks.ts) and the confirmation use the same figures.
import { isOvernightWindow } from '../../../shared/domain/callingHours.ts';
import { nextCallWindowClose, nextCallWindowOpening } from '../../../shared/domain/callConfig.ts';
import { campaignTimeToInstant, instantToZoned } from '../../../shared/domain/dates.ts';
import type { CampaignPlan, CampaignSettings } from '../../../shared/ipc/channels/campaigns.ts';
import { flowFor } from './launchRequest.ts';
import { permittedHoursWarning } from './validateSettings.ts';

/** Lines a workspace dials at once at 100% concurrency (an assumption, said in the plan's note). */
export const ASSUMED_LINES = 10;

export interface FitInput {
  calls: number;
  /** `DD/MM/YYYY, HH:MM` in `timezone`. */
  start: string;
  end: string;
  timezone: string;
  windowStart: string;
  windowEnd: string;
  maxCallLengthSeconds: number;
  /** 0–100; absent = 100 (the service's default: all slots). */
  concurrency: number | undefined;
  /** Plan from this instant when it is after the start (a queued launch sent late). */
  from?: number;
}

export interface Fit {
  callsPerHour: number;
  lines: number;
  callSeconds: number;
  days: CampaignPlan['days'];
  estimatedFinish: number | null;
  callsNotFitting: number;
  start: number | null;
  end: number | null;
}

/** The calls placed day by day in the daily windows between start and end, at the assumed rate. */
export function fitCalls(f: FitInput): Fit {
  // A call holds a line for about half its maximum length plus 30 s of dialling.
  const callSeconds = f.maxCallLengthSeconds / 2 + 30;
  const concurrency = f.concurrency ?? 100;
  // The service gives a campaign at least one line whatever its percentage.
  const lines = Math.max(1, (ASSUMED_LINES * concurrency) / 100);
  const callsPerHour = Math.round(((lines * 3600) / callSeconds) * 10) / 10;
  const start = campaignTimeToInstant(f.start, f.timezone);
  const end = campaignTimeToInstant(f.end, f.timezone);
  const base = { callsPerHour, lines, callSeconds };
  if (!start.ok || !end.ok || end.value <= start.value)
    return {
      ...base,
      days: [],
      estimatedFinish: null,
      callsNotFitting: f.calls,
      start: start.ok ? start.value : null,
      end: end.ok ? end.value : null,
    };
  const w = { callStartTime: f.windowStart, callEndTime: f.windowEnd, timezone: f.timezone };
  const overnight = isOvernightWindow(f.windowStart, f.windowEnd);
  const days: CampaignPlan['days'] = [];
  let left = f.calls;
  let at = Math.max(start.value, f.from ?? start.value);
  let finish: number | null = null;
  for (let guard = 0; left > 0 && guard < 400; guard++) {
    const open = nextCallWindowOpening(at, w);
    if (open >= end.value) break;
    const close = Math.min(nextCallWindowClose(open, w) ?? open + 86_400_000, end.value);
    const hours = (close - open) / 3_600_000;
    const fit = Math.min(left, Math.floor(hours * callsPerHour));
    if (fit > 0) {
      const z = instantToZoned(open, f.timezone);
      const zc = instantToZoned(close, f.timezone);
      const pad = (n: number) => String(n).padStart(2, '0');
      days.push({
        date: `${z.year}-${pad(z.month)}-${pad(z.day)}`,
        windowStart: `${pad(z.hour)}:${pad(z.minute)}`,
        windowEnd: `${pad(zc.hour)}:${pad(zc.minute)}`,
        overnight: overnight && (zc.day !== z.day || zc.month !== z.month || zc.year !== z.year),
        calls: fit,
      });
      left -= fit;
      if (left === 0) finish = open + (fit / callsPerHour) * 3_600_000;
    }
    at = close + 60_000;
  }
  return {
    ...base,
    days,
    estimatedFinish: finish,
    callsNotFitting: left,
    start: start.value,
    end: end.value,
  };
}

const formatLines = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The plan's note: the lines and concurrency it used, so the figures can be checked. */
export function assumptionOf(fit: Fit, concurrency: number | undefined, overnight: boolean): string {
  const pct = concurrency ?? 100;
  const lines = `${formatLines(fit.lines)} line${fit.lines === 1 ? '' : 's'} at once (${pct}% concurrency of ${ASSUMED_LINES} assumed lines${pct * ASSUMED_LINES < 100 ? ', at least 1' : ''})`;
  const night = overnight
    ? '; the daily window spans midnight: each window opens in the evening and closes the next morning'
    : '';
  return `${lines}, about ${Math.round(fit.callSeconds)} s a call, retries not counted${night}`;
}

export interface CreditsReading {
  available: number | null;
  checkedAt: string | null;
  source: 'service' | 'cached' | null;
  reason: string | null;
}

export function planCampaign(
  s: CampaignSettings,
  rows: { valid: number; invalid: number; drops?: number },
  credits: CreditsReading | number | null,
): CampaignPlan {
  const reading: CreditsReading =
    typeof credits === 'object' && credits !== null
      ? credits
      : { available: credits, checkedAt: null, source: credits === null ? null : 'cached', reason: null };
  // The rows the service will drop are sent but never called: neither calls nor credits.
  const drops = Math.min(rows.drops ?? 0, rows.valid);
  const calls = rows.valid - drops;
  const fit = fitCalls({
    calls,
    start: s.start,
    end: s.end,
    timezone: s.timezone,
    windowStart: s.call.windowStart,
    windowEnd: s.call.windowEnd,
    maxCallLengthSeconds: s.call.maxCallLengthSeconds,
    concurrency: s.concurrency,
  });
  const overnight = isOvernightWindow(s.call.windowStart, s.call.windowEnd);
  // One credit a call (the service refuses a start with fewer credits than valid rows).
  const needed = calls;
  const hoursWarning = permittedHoursWarning(s, Date.now());
  return {
    calls,
    rowsServiceWillDrop: drops,
    invalid: rows.invalid,
    // The flow goes by the rows the upload file carries (the launch decides it so).
    flow: flowFor(rows.valid),
    callsPerHour: fit.callsPerHour,
    credits: {
      needed,
      available: reading.available,
      sufficient: reading.available === null ? null : reading.available >= needed,
      checkedAt: reading.checkedAt,
      source: reading.source,
      reason: reading.reason,
    },
    assumption: assumptionOf(fit, s.concurrency, overnight),
    days: fit.days,
    estimatedFinish: fit.estimatedFinish === null ? null : new Date(fit.estimatedFinish).toISOString(),
    callsNotFitting: fit.callsNotFitting,
    timezone: s.timezone,
    start: fit.start === null ? null : new Date(fit.start).toISOString(),
    end: fit.end === null ? null : new Date(fit.end).toISOString(),
    window: { start: s.call.windowStart, end: s.call.windowEnd, overnight },
    hoursWarning,
  };
}
