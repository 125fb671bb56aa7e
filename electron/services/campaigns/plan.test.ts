import { describe, expect, it } from 'vitest';
import type { CampaignSettings } from '../../../shared/ipc/channels/campaigns.ts';
import { planCampaign } from './plan.ts';
import { callConfigOf, validateSettings } from './validateSettings.ts';

const settings = (over: Partial<CampaignSettings> = {}): CampaignSettings => ({
  listId: 1,
  agentId: 'agent',
  versionId: null,
  mapping: {},
  name: 'C',
  countryCode: '+91',
  numberSource: { kind: 'pool', numberPoolId: 'pool' },
  start: '01/12/2030, 09:00',
  end: '04/12/2030, 18:00',
  timezone: 'Asia/Kolkata',
  call: {
    windowStart: '09:00',
    windowEnd: '18:00',
    retryCount: 1,
    retryBusyMinutes: 30,
    retryNotPickedMinutes: 60,
    retryFailedMinutes: 15,
    idleTimeoutWarningSeconds: 10,
    idleTimeoutEndSeconds: 15,
    maxCallLengthSeconds: 300,
  },
  concurrency: 100,
  callbackUrl: '',
  removeInvalid: false,
  transliterateNames: false,
  ...over,
});

describe('planCampaign', () => {
  it('fills each day window at 10 lines × concurrency and says when it ends', () => {
    // 300 s max → 180 s a call → 200 calls an hour at 100%; 9 h a day → 1,800 a day.
    const plan = planCampaign(settings(), { valid: 4_000, invalid: 3 }, 3_500);
    expect(plan.callsPerHour).toBe(200);
    expect(plan.days).toEqual([
      { date: '2030-12-01', windowStart: '09:00', windowEnd: '18:00', calls: 1_800 },
      { date: '2030-12-02', windowStart: '09:00', windowEnd: '18:00', calls: 1_800 },
      { date: '2030-12-03', windowStart: '09:00', windowEnd: '18:00', calls: 400 },
    ]);
    expect(plan.estimatedFinish).toBe('2030-12-03T05:30:00.000Z'); // 11:00 in Kolkata
    expect(plan).toMatchObject({
      flow: 'standard',
      callsNotFitting: 0,
      credits: { needed: 4_000, available: 3_500, sufficient: false },
    });
  });

  it('counts the calls that do not fit before the end, and takes the large flow from 5,000 rows', () => {
    const plan = planCampaign(settings({ concurrency: 10 }), { valid: 6_000, invalid: 0 }, null);
    expect(plan.flow).toBe('large');
    expect(plan.days).toHaveLength(4);
    expect(plan.callsNotFitting).toBe(6_000 - 4 * 180);
    expect(plan.estimatedFinish).toBeNull();
    expect(plan.credits.sufficient).toBeNull();
  });
});

describe('validateSettings and call_config', () => {
  const now = Date.UTC(2030, 0, 1);
  it('accepts good settings and builds call_config with the window and retries', () => {
    expect(validateSettings(settings(), now)).toEqual([]);
    expect(callConfigOf(settings())).toEqual({
      idle_timeout_warning: 10,
      idle_timeout_end: 15,
      max_call_length: 300,
      call_retry_config: { retry_count: 1, retry_busy: 30, retry_not_picked: 60, retry_failed: 15 },
      call_time: { call_start_time: '09:00', call_end_time: '18:00', timezone: 'Asia/Kolkata' },
    });
  });
  it('names the field of each problem', () => {
    const errors = validateSettings(
      settings({
        agentId: 'local-1',
        countryCode: 'India',
        numberSource: { kind: 'numbers', fromNumbers: ['+12'] },
        call: { ...settings().call, idleTimeoutWarningSeconds: 20 },
      }),
      now,
    );
    expect(errors.map((e) => e.field)).toEqual([
      'agentId',
      'countryCode',
      'numberSource',
      'call.idleTimeoutWarningSeconds',
    ]);
  });
});
