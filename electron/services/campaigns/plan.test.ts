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
  purpose: 'other',
  hoursAcknowledged: false,
  acceptShortfall: false,
  ...over,
});

describe('planCampaign', () => {
  it('fills each day window at 10 lines × concurrency and says when it ends', () => {
    // 300 s max → 180 s a call → 200 calls an hour at 100%; 9 h a day → 1,800 a day.
    const plan = planCampaign(settings(), { valid: 4_000, invalid: 3 }, 3_500);
    expect(plan.callsPerHour).toBe(200);
    expect(plan.days).toEqual([
      { date: '2030-12-01', windowStart: '09:00', windowEnd: '18:00', overnight: false, calls: 1_800 },
      { date: '2030-12-02', windowStart: '09:00', windowEnd: '18:00', overnight: false, calls: 1_800 },
      { date: '2030-12-03', windowStart: '09:00', windowEnd: '18:00', overnight: false, calls: 400 },
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

describe('planCampaign with rows the service will drop', () => {
  it('places and charges only the calls: the rows sent less the rows dropped; the flow goes by the rows sent', () => {
    const plan = planCampaign(
      settings({ removeInvalid: true }),
      { valid: 5_100, invalid: 7, drops: 200 },
      4_900,
    );
    expect(plan).toMatchObject({
      calls: 4_900,
      rowsServiceWillDrop: 200,
      invalid: 7,
      flow: 'large',
      credits: { needed: 4_900, available: 4_900, sufficient: true },
    });
    expect(plan.days.reduce((n, d) => n + d.calls, 0)).toBe(4_900);
    // Without drops every row sent is a call.
    expect(planCampaign(settings(), { valid: 10, invalid: 0 }, null)).toMatchObject({
      calls: 10,
      rowsServiceWillDrop: 0,
    });
  });
});

describe('planCampaign in the campaign’s timezone', () => {
  it('keeps the daily window on the wall clock across the end of daylight saving (America/New_York)', () => {
    // DST ends on Sunday 1 November 2026: 09:00 is 13:00Z before and 14:00Z after.
    const plan = planCampaign(
      settings({
        timezone: 'America/New_York',
        countryCode: '+1',
        start: '31/10/2026, 09:00',
        end: '03/11/2026, 18:00',
        call: { ...settings().call, windowStart: '09:00', windowEnd: '17:00' },
      }),
      { valid: 5_000, invalid: 0 },
      null,
    );
    expect(plan.timezone).toBe('America/New_York');
    expect(plan.days.map((d) => `${d.date} ${d.windowStart}–${d.windowEnd} ${d.calls}`)).toEqual([
      '2026-10-31 09:00–17:00 1600',
      '2026-11-01 09:00–17:00 1600',
      '2026-11-02 09:00–17:00 1600',
      '2026-11-03 09:00–17:00 200',
    ]);
    expect(plan.start).toBe('2026-10-31T13:00:00.000Z'); // EDT
    expect(plan.estimatedFinish).toBe('2026-11-03T15:00:00.000Z'); // 10:00 EST
  });

  it('plans an overnight window as one window spanning midnight and says so', () => {
    const plan = planCampaign(
      settings({
        start: '01/12/2030, 18:00',
        end: '04/12/2030, 12:00',
        call: { ...settings().call, windowStart: '20:00', windowEnd: '09:00' },
      }),
      { valid: 5_000, invalid: 0 },
      null,
    );
    expect(plan.window).toEqual({ start: '20:00', end: '09:00', overnight: true });
    expect(plan.days[0]).toEqual({
      date: '2030-12-01',
      windowStart: '20:00',
      windowEnd: '09:00',
      overnight: true,
      calls: 2_600, // 13 h × 200
    });
    expect(plan.days).toHaveLength(2);
    expect(plan.assumption).toMatch(/spans midnight/);
  });

  it('says the lines and concurrency it used', () => {
    expect(planCampaign(settings({ concurrency: 40 }), { valid: 10, invalid: 0 }, null).assumption).toMatch(
      /^4 lines at once \(40% concurrency of 10 assumed lines\)/,
    );
    expect(planCampaign(settings({ concurrency: 100 }), { valid: 10, invalid: 0 }, null).assumption).toMatch(
      /^10 lines at once \(100% concurrency/,
    );
  });

  it('carries the credits reading with its age and the permitted-hours warning', () => {
    const plan = planCampaign(
      settings({ purpose: 'loan-recovery', call: { ...settings().call, windowStart: '07:00' } }),
      { valid: 30_000, invalid: 0 },
      { available: 25_000, checkedAt: '2030-11-30T10:00:00.000Z', source: 'service', reason: null },
    );
    expect(plan.credits).toEqual({
      needed: 30_000,
      available: 25_000,
      sufficient: false,
      checkedAt: '2030-11-30T10:00:00.000Z',
      source: 'service',
      reason: null,
    });
    expect(plan.hoursWarning).toMatch(/08:00–19:00 local time under the RBI/);
  });
});

describe('validateSettings and call_config', () => {
  const now = Date.UTC(2030, 0, 1);
  it('names every problem at once, with the permitted-hours warning until it is acknowledged', () => {
    const bad = settings({
      name: '',
      purpose: 'promotional',
      start: '01/12/2029, 09:00',
      end: '01/11/2029, 09:00',
      call: { ...settings().call, windowStart: '20:00', windowEnd: '09:00' },
    });
    const fields = validateSettings(bad, now, 'en-US').map((e) => e.field);
    expect(fields).toEqual(['name', 'start', 'end', 'hoursAcknowledged']);
    const messages = validateSettings(bad, now, 'en-US').map((e) => e.message);
    expect(messages[1]).toBe('Start 12/01/2029, 09:00 AM (Asia/Kolkata) is not in the future');
    expect(messages[3]).toMatch(
      /^The daily window 20:00–09:00 Asia\/Kolkata is outside the hours India permits for promotional calls: 09:00–21:00 local time under TRAI/,
    );
    expect(
      validateSettings({ ...bad, hoursAcknowledged: true }, now, 'en-US').map((e) => e.field),
    ).not.toContain('hoursAcknowledged');
    // Inside the hours: nothing to acknowledge.
    expect(
      validateSettings(
        settings({ purpose: 'promotional', call: { ...settings().call, windowStart: '10:00' } }),
        now,
      ),
    ).toEqual([]);
  });
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
