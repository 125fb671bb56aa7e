import { describe, expect, it } from 'vitest';
import { formatClock, humanize, shownText } from './callFormat.ts';

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

  it("shows the service's names and numbers with their bidi controls visible", () => {
    // "+91\u202E0123456789" would display as +919876543210.
    expect(shownText('+91\u202E0123456789')).toBe('+91⟨RLO⟩0123456789');
    expect(shownText(null, 'agent-7\u2066')).toBe('agent-7⟨LRI⟩');
    expect(shownText(undefined, null)).toBe('—');
    expect(shownText('')).toBe('');
  });
});
