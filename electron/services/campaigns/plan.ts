// The plan view: how many calls, how they fit day by day into the daily window inside the campaign
// window, an estimated finish for the concurrency, and credits needed against available.
import { nextCallWindowClose, nextCallWindowOpening } from '../../../shared/domain/callConfig.ts';
import { campaignTimeToInstant, instantToZoned } from '../../../shared/domain/dates.ts';
import type { CampaignPlan, CampaignSettings } from '../../../shared/ipc/channels/campaigns.ts';
import { flowFor } from './launchRequest.ts';

/** Lines a workspace dials at once at 100% concurrency (the sandbox's default slots; an assumption). */
export const ASSUMED_LINES = 10;

export function planCampaign(
  s: CampaignSettings,
  rows: { valid: number; invalid: number },
  creditsAvailable: number | null,
): CampaignPlan {
  const calls = rows.valid;
  // A call holds a line for about half its maximum length plus 30 s of dialling.
  const callSeconds = s.call.maxCallLengthSeconds / 2 + 30;
  const lines = (ASSUMED_LINES * Math.max(1, s.concurrency)) / 100;
  const callsPerHour = Math.round(((lines * 3600) / callSeconds) * 10) / 10;
  const assumption = `${ASSUMED_LINES} lines at 100% concurrency, about ${Math.round(callSeconds)} s a call, retries not counted`;
  const needed = calls;
  const credits = {
    needed,
    available: creditsAvailable,
    sufficient: creditsAvailable === null ? null : creditsAvailable >= needed,
  };
  const start = campaignTimeToInstant(s.start, s.timezone);
  const end = campaignTimeToInstant(s.end, s.timezone);
  const base = { calls, invalid: rows.invalid, flow: flowFor(calls), callsPerHour, credits, assumption };
  if (!start.ok || !end.ok || end.value <= start.value)
    return { ...base, days: [], estimatedFinish: null, callsNotFitting: calls };
  const w = { callStartTime: s.call.windowStart, callEndTime: s.call.windowEnd, timezone: s.timezone };
  const days: CampaignPlan['days'] = [];
  let left = calls;
  let at = start.value;
  let finish: number | null = null;
  for (let guard = 0; left > 0 && guard < 400; guard++) {
    const open = nextCallWindowOpening(at, w);
    if (open >= end.value) break;
    const close = Math.min(nextCallWindowClose(open, w) ?? open + 86_400_000, end.value);
    const hours = (close - open) / 3_600_000;
    const fit = Math.min(left, Math.floor(hours * callsPerHour));
    if (fit > 0) {
      const z = instantToZoned(open, s.timezone);
      const zc = instantToZoned(close, s.timezone);
      const pad = (n: number) => String(n).padStart(2, '0');
      days.push({
        date: `${z.year}-${pad(z.month)}-${pad(z.day)}`,
        windowStart: `${pad(z.hour)}:${pad(z.minute)}`,
        windowEnd: `${pad(zc.hour)}:${pad(zc.minute)}`,
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
    estimatedFinish: finish === null ? null : new Date(finish).toISOString(),
    callsNotFitting: left,
  };
}
