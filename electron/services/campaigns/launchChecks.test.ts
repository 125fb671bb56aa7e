import { describe, expect, it } from 'vitest';
import { callsNotFittingOf, callsOfLaunch, launchRefusals, planRefusals } from './launchChecks.ts';
import type { LaunchRequest } from './launchRequest.ts';

describe('launch refusals before the upload', () => {
  it('refuses more calls than credits with both figures', () => {
    expect(
      launchRefusals({ calls: 41_000, credits: 25_000, callsNotFitting: 0, acceptShortfall: false }),
    ).toEqual([
      {
        kind: 'credits',
        message:
          'Not enough credits: this campaign needs 41,000 credits (one a call) and the workspace has 25,000. Add credits or send fewer rows, then launch again. Nothing was uploaded.',
      },
    ]);
    expect(
      launchRefusals({ calls: 25_000, credits: 25_000, callsNotFitting: 0, acceptShortfall: false }),
    ).toEqual([]);
    // Unknown credits: the service checks them itself.
    expect(launchRefusals({ calls: 9, credits: null, callsNotFitting: 0, acceptShortfall: false })).toEqual(
      [],
    );
  });
  it('refuses calls that do not fit unless the shortfall is accepted', () => {
    const c = { calls: 40_000, credits: 50_000, callsNotFitting: 32_882 };
    expect(launchRefusals({ ...c, acceptShortfall: false }).map((r) => r.message)).toEqual([
      '32,882 of 40,000 calls do not fit before the campaign ends: widen the daily window, raise the concurrency or move the end, or accept the shortfall. Nothing was uploaded.',
    ]);
    expect(launchRefusals({ ...c, acceptShortfall: true })).toEqual([]);
  });
  it('reads the fit from the stored launch request, from now when the start has passed', () => {
    const req = {
      start: '01/12/2030, 09:00',
      end: '02/12/2030, 18:00',
      concurrency: 100,
      callConfig: {
        max_call_length: 300,
        call_time: { call_start_time: '09:00', call_end_time: '18:00', timezone: 'Asia/Kolkata' },
      },
    } as LaunchRequest;
    // 200 calls an hour, 9 h a day, two days.
    expect(callsNotFittingOf(req, 4_000, 0)).toBe(400);
    // Sent late, at 09:00 on the second day: one day left.
    expect(callsNotFittingOf(req, 4_000, Date.UTC(2030, 11, 2, 3, 30))).toBe(2_200);
  });
  it("counts a stored launch's calls as the plan does: the rows sent less the rows the service drops", () => {
    expect(callsOfLaunch({ valid: 1_641, predicted_refused: 90 })).toBe(1_551);
    // Launches of older builds predicted nothing: every row sent is a call.
    expect(callsOfLaunch({ valid: 1_641, predicted_refused: null })).toBe(1_641);
  });
  it('refuses from the plan only with credits the service reported for it (a cached figure is checked again)', () => {
    const plan = (source: 'service' | 'cached') => ({
      calls: 41_000,
      callsNotFitting: 0,
      credits: {
        needed: 41_000,
        available: 25_000,
        sufficient: false,
        checkedAt: null,
        source,
        reason: null,
      },
    });
    expect(planRefusals(plan('service'), false).map((r) => r.kind)).toEqual(['credits']);
    expect(planRefusals(plan('cached'), false)).toEqual([]);
    expect(planRefusals({ ...plan('cached'), callsNotFitting: 5 }, true)).toEqual([]);
    expect(planRefusals({ ...plan('cached'), callsNotFitting: 5 }, false).map((r) => r.kind)).toEqual([
      'shortfall',
    ]);
  });
});
