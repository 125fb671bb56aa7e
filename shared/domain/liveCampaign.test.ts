import { describe, expect, it } from 'vitest';
import { estimatedFinishMs, isRunning, leftOf, LIVE_WAIT_MS } from './liveCampaign.ts';

const base = {
  launchedAt: '2026-11-26T10:00:00.000Z',
  contacts: 100,
  calls: 100,
  dialled: 0,
  open: 100,
  firstAttemptMs: null,
  lastAttemptMs: null,
};
const launched = Date.parse(base.launchedAt);

describe('live campaign', () => {
  it('runs while a call is open or, for a while, before any call arrives; not once every call is final', () => {
    expect(isRunning(base, launched + 60_000)).toBe(true);
    expect(isRunning({ ...base, open: 0 }, launched + 60_000)).toBe(false);
    expect(isRunning({ ...base, calls: 0, open: 0 }, launched + 60_000)).toBe(true);
    expect(isRunning({ ...base, calls: 0, open: 0 }, launched + LIVE_WAIT_MS + 1)).toBe(false);
  });

  it('counts what is left and estimates the finish at the pace so far', () => {
    const f = {
      ...base,
      calls: 80,
      open: 30,
      dialled: 51,
      firstAttemptMs: launched,
      lastAttemptMs: launched + 50 * 60_000,
    };
    expect(leftOf(f, true)).toBe(30 + 20);
    expect(leftOf(f, false)).toBe(0);
    // One call a minute: 50 left → 50 minutes from now.
    expect(estimatedFinishMs(f, 50, launched + 3_600_000)).toBe(launched + 3_600_000 + 50 * 60_000);
    expect(estimatedFinishMs({ ...f, dialled: 1 }, 50, 0)).toBeNull();
    expect(estimatedFinishMs(f, 0, 0)).toBeNull();
  });
});
