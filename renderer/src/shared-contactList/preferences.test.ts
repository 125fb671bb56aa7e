import { describe, expect, it } from 'vitest';
import { laneCount } from './importController.ts';
import { loadPreferences, parseVariables, savePreferences } from './preferences.ts';

describe('contacts preferences', () => {
  it('reads variables as typed: commas or lines, {{braces}} dropped, repeats ignored', () => {
    expect(parseVariables(' name, {{loan_amount}} ,\n due date,Name,, ')).toEqual([
      'name',
      'loan_amount',
      'due date',
    ]);
  });

  it('round-trips through storage and falls back on anything unreadable', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    savePreferences({ variables: ['name'], country: '+91' }, storage);
    expect(loadPreferences(storage)).toEqual({ variables: ['name'], country: '+91' });
    store.set([...store.keys()][0]!, '{not json');
    expect(loadPreferences(storage)).toEqual({ variables: [], country: 'IN' });
    expect(loadPreferences(null)).toEqual({ variables: [], country: 'IN' });
  });
});

describe('import lanes', () => {
  it('uses two to four lanes', () => {
    expect(laneCount(1)).toBe(2);
    expect(laneCount(2)).toBe(2);
    expect(laneCount(4)).toBe(3);
    expect(laneCount(64)).toBe(4);
  });
});
