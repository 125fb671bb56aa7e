import { describe, expect, it } from 'vitest';
import { dayToIso, isoToDay, numberOrUndefined } from './filterValues.ts';

describe('filter values', () => {
  it('turns a local day into the instants that bound it, and back', () => {
    const from = dayToIso('2026-03-29', false)!;
    const to = dayToIso('2026-03-29', true)!;
    expect(new Date(from).getDate()).toBe(29);
    expect(new Date(from).getHours()).toBe(0);
    // The end is the next local midnight (exclusive), even across a DST change.
    expect(new Date(to).getDate()).toBe(30);
    expect(new Date(to).getHours()).toBe(0);
    expect(isoToDay(from, false)).toBe('2026-03-29');
    expect(isoToDay(to, true)).toBe('2026-03-29');
  });

  it('leaves empty or impossible days out', () => {
    expect(dayToIso('', false)).toBeUndefined();
    expect(dayToIso('2026-02-31x', false)).toBeUndefined();
    expect(isoToDay(undefined, false)).toBe('');
  });

  it('reads typed numbers; blank, negative or not a number means no bound', () => {
    expect(numberOrUndefined('12.5')).toBe(12.5);
    expect(numberOrUndefined('0')).toBe(0);
    expect(numberOrUndefined(' ')).toBeUndefined();
    expect(numberOrUndefined('-3')).toBeUndefined();
    expect(numberOrUndefined('abc')).toBeUndefined();
  });
});
