import { describe, expect, it } from 'vitest';
import { campaignRowNames } from './rowNames.ts';

describe('campaign names in the campaigns list', () => {
  const now = Date.parse('2026-11-27T00:00:00Z');
  it('adds the start date (locale words, in the campaign’s zone) only where names repeat', () => {
    const rows = [
      { name: 'November', startsAt: '2026-11-20T03:30:00.000Z', timezone: 'Asia/Kolkata' },
      { name: 'November ', startsAt: '2026-12-01T03:30:00.000Z', timezone: 'Asia/Kolkata' },
      { name: 'December', startsAt: '2026-12-02T03:30:00.000Z', timezone: null },
    ];
    expect(campaignRowNames(rows, now, 'en-US')).toEqual([
      'November (started Nov 20, 2026)',
      'November (starts Dec 1, 2026)',
      'December',
    ]);
    expect(campaignRowNames(rows, now, 'en-GB')[1]).toBe('November (starts 1 Dec 2026)');
  });
  it('reads the day in the campaign’s zone (00:30 IST on Dec 1 is Nov 30 in UTC)', () => {
    const rows = [
      { name: 'Late', startsAt: '2026-11-30T19:00:00.000Z', timezone: 'Asia/Kolkata' },
      { name: 'Late', startsAt: null, timezone: null },
    ];
    expect(campaignRowNames(rows, now, 'en-US')).toEqual(['Late (starts Dec 1, 2026)', 'Late']);
  });
});
