import { describe, expect, it } from 'vitest';
import { formatClock, humanize } from './callFormat.ts';

describe('call formats', () => {
  it('formats seconds as a clock', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(75.9)).toBe('1:15');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(Number.NaN)).toBe('0:00');
  });

  it('turns status codes into words', () => {
    expect(humanize('NO_ANSWER')).toBe('No answer');
    expect(humanize('in-progress')).toBe('In progress');
    expect(humanize(null)).toBe('—');
  });
});
