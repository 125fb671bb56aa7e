// Whether a launched campaign is still running (so its calls are polled) and the counters an
// operator watches while it runs. Pure: figures from the stored calls, the time passed in.

/** A launch with no call stored yet is polled this long, then given up (it may be scheduled later). */
export const LIVE_WAIT_MS = 2 * 86_400_000;

export interface LiveFigures {
  launchedAt: string;
  contacts: number;
  calls: number;
  dialled: number;
  /** Calls not final yet (queued, waiting to retry, on a call). */
  open: number;
  firstAttemptMs: number | null;
  lastAttemptMs: number | null;
}

/** Running: a call is still open, or the launch is recent and no call has arrived yet. */
export function isRunning(f: LiveFigures, nowMs: number): boolean {
  if (f.open > 0) return true;
  return f.calls === 0 && nowMs - Date.parse(f.launchedAt) < LIVE_WAIT_MS;
}

/** Contacts not done yet: open calls, and rows the service has made no call for (yet). */
export const leftOf = (f: LiveFigures, running: boolean): number =>
  running ? f.open + Math.max(0, f.contacts - f.calls) : 0;

/**
 * When the calls left would be done at the pace of the dialling so far (calls dialled over the
 * time between the first and the last attempt); null without a pace or with nothing left.
 */
export function estimatedFinishMs(f: LiveFigures, left: number, nowMs: number): number | null {
  if (left === 0 || f.dialled < 2 || f.firstAttemptMs === null || f.lastAttemptMs === null) return null;
  const span = f.lastAttemptMs - f.firstAttemptMs;
  if (span <= 0) return null;
  const perMs = (f.dialled - 1) / span;
  return Math.round(nowMs + left / perMs);
}
