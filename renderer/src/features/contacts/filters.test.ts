import { describe, expect, it } from 'vitest';
import { filterTotal } from './filters.ts';

describe('grid filters', () => {
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
