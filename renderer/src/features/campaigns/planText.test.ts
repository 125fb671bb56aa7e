import { describe, expect, it } from 'vitest';
import { formatInZone, formatPlanDay, formatPlanWindow } from './planText.ts';

describe('the plan in the campaign’s timezone', () => {
  it('writes an instant in the campaign’s zone and names it, whatever the machine’s zone', () => {
    expect(formatInZone('2030-12-03T05:30:00.000Z', 'Asia/Kolkata', 'en-US')).toBe(
      'Dec 3, 2030, 11:00 AM (Asia/Kolkata)',
    );
    expect(formatInZone('2026-11-03T15:00:00.000Z', 'America/New_York', 'en-US')).toBe(
      'Nov 3, 2026, 10:00 AM (America/New_York)',
    );
  });
  it('writes days and overnight windows', () => {
    expect(formatPlanDay('2030-12-01', 'en-US')).toBe('Sun, Dec 1');
    expect(formatPlanWindow({ windowStart: '20:00', windowEnd: '09:00', overnight: true })).toBe(
      '20:00–09:00 next day',
    );
  });
});
