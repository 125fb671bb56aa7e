import { describe, expect, it } from 'vitest';
import { laneCount } from './importController.ts';
import { filterTotal } from './filters.ts';
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

describe('import lanes and filters', () => {
  it('uses two to four lanes', () => {
    expect(laneCount(1)).toBe(2);
    expect(laneCount(2)).toBe(2);
    expect(laneCount(4)).toBe(3);
    expect(laneCount(64)).toBe(4);
  });

  it('sizes each filter from the list counts', () => {
    const counts = {
      rows: 10,
      valid: 6,
      invalid: 3,
      duplicates: 1,
      excluded: 2,
      edited: 1,
      issues: {
        row_ragged: 0,
        phone_missing: 1,
        phone_scientific_notation: 0,
        phone_excel_decimal: 0,
        phone_invalid: 2,
        duplicate: 1,
        variable_missing: 0,
        phone_landline: 4,
        quote_unbalanced: 0,
        formula_cell: 3,
        phone_bidi_control: 0,
      },
      upload: 6,
      rejects: 2,
    };
    expect(filterTotal(counts, 'all')).toBe(10);
    expect(filterTotal(counts, 'bucket:invalid')).toBe(3);
    expect(filterTotal(counts, 'issue:phone_invalid')).toBe(2);
    expect(filterTotal(counts, 'issue:phone_landline')).toBe(4);
    expect(filterTotal(counts, 'issue:formula_cell')).toBe(3);
    expect(filterTotal(counts, 'excluded')).toBe(2);
    expect(filterTotal(counts, 'edited')).toBe(1);
  });
});
