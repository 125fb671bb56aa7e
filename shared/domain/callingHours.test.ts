import { describe, expect, it } from 'vitest';
import { checkCallingHours, isOvernightWindow, permittedHoursFor } from './callingHours.ts';

const at = Date.UTC(2026, 11, 1, 6, 0);
const check = (over: Partial<Parameters<typeof checkCallingHours>[0]>) =>
  checkCallingHours({
    countryCode: '+91',
    purpose: 'promotional',
    windowStart: '10:00',
    windowEnd: '18:00',
    timezone: 'Asia/Kolkata',
    atMs: at,
    ...over,
  });

describe('permitted calling hours', () => {
  it('finds India by dialing prefix or ISO code, per purpose; none for other purposes or countries', () => {
    expect(permittedHoursFor('+91', 'promotional')).toMatchObject({ from: '09:00', to: '21:00' });
    expect(permittedHoursFor('IN', 'loan-recovery')).toMatchObject({ from: '08:00', to: '19:00' });
    expect(permittedHoursFor('91', 'loan-recovery')?.country).toBe('IN');
    expect(permittedHoursFor('+91', 'other')).toBeNull();
    expect(permittedHoursFor('+44', 'promotional')).toBeNull();
  });

  it('accepts a window inside the hours and warns, naming the rule, about one outside', () => {
    expect(check({})?.warning).toBeNull();
    expect(check({ windowStart: '09:00', windowEnd: '21:00' })?.warning).toBeNull();
    expect(check({ windowEnd: '21:30' })?.warning).toBe(
      'The daily window 10:00–21:30 Asia/Kolkata is outside the hours India permits for promotional calls: 09:00–21:00 local time under TRAI’s commercial communications rules (TCCCPR 2018).',
    );
    expect(check({ purpose: 'loan-recovery', windowStart: '08:00', windowEnd: '19:30' })?.warning).toMatch(
      /08:00–19:00 local time under the RBI’s 2022 circular/,
    );
  });

  it('reads the window in the recipients’ zone when the campaign’s differs', () => {
    // 09:00–17:00 in London (GMT in December) is 14:30–22:30 in India: past 21:00.
    const c = check({ timezone: 'Europe/London', windowStart: '09:00', windowEnd: '17:00' });
    expect([c?.localFrom, c?.localTo]).toEqual(['14:30', '22:30']);
    expect(c?.warning).toMatch(/\(14:30–22:30 in India\)/);
  });

  it('warns about an overnight window and an all-day window', () => {
    expect(isOvernightWindow('20:00', '09:00')).toBe(true);
    expect(isOvernightWindow('09:00', '20:00')).toBe(false);
    expect(check({ windowStart: '20:00', windowEnd: '09:00' })?.warning).toMatch(/20:00–09:00/);
    expect(check({ windowStart: '00:00', windowEnd: '00:00' })?.warning).toMatch(/window all day/);
  });
});
