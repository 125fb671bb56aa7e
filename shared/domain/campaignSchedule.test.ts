import { describe, expect, it } from 'vitest';
import { formatWallClock, scheduleProblems } from './campaignSchedule.ts';

const now = Date.UTC(2026, 10, 23, 12, 0); // 17:30 in Asia/Kolkata

describe('scheduleProblems', () => {
  it('accepts a start in the future and an end after it', () => {
    expect(scheduleProblems('23/11/2026, 18:00', '24/11/2026, 18:00', 'Asia/Kolkata', now)).toEqual([]);
  });
  it('names the start when it is past, the end when it is not after the start', () => {
    expect(scheduleProblems('23/11/2026, 17:00', '23/11/2026, 16:00', 'Asia/Kolkata', now)).toEqual([
      { field: 'start', message: 'Start 23/11/2026, 17:00 (Asia/Kolkata) is not in the future' },
      {
        field: 'end',
        message: 'End 23/11/2026, 16:00 is not after the start 23/11/2026, 17:00 (both Asia/Kolkata)',
      },
    ]);
  });
  it('writes dates as the pickers of the given locale show them, naming the zone', () => {
    const [start, end] = scheduleProblems(
      '23/11/2026, 17:00',
      '23/11/2026, 16:00',
      'Asia/Kolkata',
      now,
      'en-US',
    );
    expect(start?.message).toBe('Start 11/23/2026, 05:00 PM (Asia/Kolkata) is not in the future');
    expect(end?.message).toBe(
      'End 11/23/2026, 04:00 PM is not after the start 11/23/2026, 05:00 PM (both Asia/Kolkata)',
    );
    expect(formatWallClock('23/11/2026, 17:00', 'en-GB')).toBe('23/11/2026, 17:00');
  });
  it('names a malformed time and an unknown zone', () => {
    expect(scheduleProblems('31/02/2026, 10:00', '01/03/2026, 10:00', 'Asia/Kolkata', now)[0]?.field).toBe(
      'start',
    );
    expect(scheduleProblems('23/11/2026, 18:00', '24/11/2026, 18:00', 'Mars/Base', now)).toEqual([
      { field: 'timezone', message: 'Time zone "Mars/Base" is not an IANA name such as Asia/Kolkata' },
    ]);
  });
});
