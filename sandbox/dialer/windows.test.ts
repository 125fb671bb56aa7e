import { describe, expect, it } from 'vitest';
import { instantToZoned, zonedToInstant } from '../../shared/domain/dates.ts';
import { createDialGate, scheduledAtMs } from './windows.ts';

const ist = (d: number, h: number, m = 0) =>
  zonedToInstant({ year: 2026, month: 11, day: d, hour: h, minute: m }, 'Asia/Kolkata');

describe('dial gate', () => {
  const daily = { callStartTime: '09:00', callEndTime: '18:00', timezone: 'Asia/Kolkata' };

  it('dials inside the daily window and waits for the next opening outside it', () => {
    const g = createDialGate({ notBefore: null, endsAt: null, daily });
    expect(g.nextDialTime(ist(21, 10))).toBe(ist(21, 10));
    expect(g.nextDialTime(ist(21, 17, 59))).toBe(ist(21, 17, 59));
    expect(g.nextDialTime(ist(21, 18))).toBe(ist(22, 9));
    expect(g.nextDialTime(ist(21, 3))).toBe(ist(21, 9));
    // The cache of the open stretch must not leak into a later day.
    expect(g.nextDialTime(ist(22, 9, 30))).toBe(ist(22, 9, 30));
    expect(g.nextDialTime(ist(22, 20))).toBe(ist(23, 9));
  });

  it('keeps to the campaign window: not before its start, nothing at or after its end', () => {
    const g = createDialGate({ notBefore: ist(22, 11), endsAt: ist(23, 12), daily });
    expect(g.nextDialTime(ist(21, 10))).toBe(ist(22, 11));
    expect(g.nextDialTime(ist(22, 19))).toBe(ist(23, 9));
    expect(g.nextDialTime(ist(23, 11, 59))).toBe(ist(23, 11, 59));
    expect(g.nextDialTime(ist(23, 12))).toBeNull();
    expect(g.nextDialTime(ist(23, 18, 30))).toBeNull(); // next opening (24th) is past the end
  });

  it('reads the window in its own zone, across a DST change', () => {
    const ny = { callStartTime: '08:00', callEndTime: '20:00', timezone: 'America/New_York' };
    const g = createDialGate({ notBefore: null, endsAt: null, daily: ny });
    // 1 Nov 2026 is the end of DST in New York: 08:00 EST is 13:00 UTC (EDT the day before: 12:00).
    const t1 = g.nextDialTime(Date.UTC(2026, 9, 31, 3));
    const t2 = g.nextDialTime(Date.UTC(2026, 10, 1, 3));
    expect(new Date(t1 ?? 0).toISOString()).toBe('2026-10-31T12:00:00.000Z');
    expect(new Date(t2 ?? 0).toISOString()).toBe('2026-11-01T13:00:00.000Z');
    const z = instantToZoned(t2 ?? 0, 'America/New_York');
    expect([z.hour, z.minute]).toEqual([8, 0]);
  });

  it('has no daily limit without a daily window', () => {
    const g = createDialGate({ notBefore: null, endsAt: null, daily: null });
    expect(g.nextDialTime(ist(21, 3))).toBe(ist(21, 3));
  });
});

describe('scheduledAtMs', () => {
  it('reads ISO date-times, UTC without an offset, and rejects the rest', () => {
    expect(scheduledAtMs('2026-11-24T01:55:00')).toBe(Date.UTC(2026, 10, 24, 1, 55));
    expect(scheduledAtMs('2026-11-24T07:25:00+05:30')).toBe(Date.UTC(2026, 10, 24, 1, 55));
    expect(scheduledAtMs(null)).toBeNull();
    expect(scheduledAtMs('tomorrow')).toBeNull();
  });
});
