import { describe, expect, it } from 'vitest';
import { BUCKET, ISSUE } from '../../../shared/domain/contacts/index.ts';
import {
  addRow,
  emptyCounts,
  flagsOf,
  holderOf,
  issueBits,
  issueCodes,
  listCounts,
  ownReasons,
  renderTail,
  withDuplicateOf,
} from './rowState.ts';
import type { StoredRow } from './rowState.ts';

const row = (patch: Partial<StoredRow>): StoredRow => ({
  list_id: 1,
  row: 9,
  pos: 7,
  cells: '["a","9876543210"]',
  phone_raw: '9876543210',
  e164: 919876543210,
  bucket: BUCKET.valid,
  issues: 0,
  reasons: '',
  duplicate_of: 0,
  excluded: 0,
  edited: 0,
  tail: null,
  country: null,
  ...patch,
});

describe('row state', () => {
  it("moves a row in and out of pointing at its number's holder, keeping its own reasons and the bucket precedence", () => {
    const missing = row({
      issues: ISSUE.variable_missing,
      bucket: BUCKET.invalid,
      reasons: 'variable_missing:Loan Amount, Due Date',
    });
    const dup = withDuplicateOf(missing, 4);
    expect(dup).toMatchObject({
      duplicate_of: 4,
      bucket: BUCKET.invalid, // invalid for its own reason; it still names the row with its number
      reasons: 'duplicate:row 4; variable_missing:Loan Amount, Due Date',
    });
    expect(issueCodes(dup.issues)).toEqual(['duplicate', 'variable_missing']);
    expect(withDuplicateOf(dup, 2).reasons).toBe('duplicate:row 2; variable_missing:Loan Amount, Due Date');
    expect(withDuplicateOf(dup, 0)).toMatchObject({
      bucket: BUCKET.invalid,
      reasons: 'variable_missing:Loan Amount, Due Date',
      issues: ISSUE.variable_missing,
    });
    const ragged = row({
      issues: ISSUE.row_ragged,
      bucket: BUCKET.invalid,
      reasons: 'row_ragged:3 of 4 cells',
    });
    expect(withDuplicateOf(ragged, 3).bucket).toBe(BUCKET.invalid); // shape errors outrank duplicates
    expect(withDuplicateOf(row({}), 0)).toEqual(row({}));
    expect(ownReasons('duplicate:row 12')).toBe('');
    expect(ownReasons('phone_invalid')).toBe('phone_invalid');
    expect(issueBits(ISSUE.phone_invalid, 5)).toBe(ISSUE.phone_invalid | 64);
    // A clean row repeating another is a duplicate; a landline warning changes nothing.
    const landline = row({ issues: issueBits(ISSUE.phone_landline, 0) });
    expect(withDuplicateOf(landline, 3)).toMatchObject({
      bucket: BUCKET.duplicate,
      reasons: 'duplicate:row 3',
    });
    expect(issueCodes(withDuplicateOf(landline, 3).issues)).toEqual(['duplicate', 'phone_landline']);
  });

  it('maps engine flags to stored bits and back (codes added in 0030 have bits of their own)', () => {
    const all = Object.values(ISSUE).reduce((a, b) => a | b, 0);
    expect(flagsOf(issueBits(all, 0))).toBe(all);
    expect(issueCodes(issueBits(ISSUE.quote_unbalanced | ISSUE.phone_landline, 2))).toEqual([
      'duplicate',
      'phone_landline',
      'quote_unbalanced',
    ]);
    // Issue 22's codes: engine flags 256 and 512 (above a byte), stored bits 512 and 1024.
    expect(issueBits(ISSUE.formula_cell | ISSUE.phone_bidi_control, 0)).toBe(512 | 1024);
    expect(issueCodes(issueBits(ISSUE.formula_cell | ISSUE.phone_bidi_control, 0))).toEqual([
      'formula_cell',
      'phone_bidi_control',
    ]);
  });

  it('gives a number to the first row without errors of its own, else to the first row', () => {
    const missing = issueBits(ISSUE.variable_missing, 0);
    expect(
      holderOf([
        { row: 3, issues: missing },
        { row: 5, issues: 0 },
        { row: 8, issues: 0 },
      ]),
    ).toBe(5);
    expect(
      holderOf([
        { row: 3, issues: missing },
        { row: 5, issues: issueBits(ISSUE.phone_landline, 0) },
      ]),
    ).toBe(5);
    expect(
      holderOf([
        { row: 3, issues: missing },
        { row: 5, issues: missing },
      ]),
    ).toBe(3);
    expect(holderOf([])).toBe(0);
  });

  it('counts rows by bucket and exclusion, issues and edits, and derives what each file gets', () => {
    const counts = emptyCounts();
    addRow(counts, row({}), 1);
    addRow(
      counts,
      row({ bucket: BUCKET.invalid, issues: ISSUE.phone_missing | ISSUE.variable_missing, excluded: 1 }),
      1,
    );
    addRow(counts, row({ bucket: BUCKET.duplicate, issues: 64, edited: 1 }), 1);
    addRow(counts, row({ bucket: BUCKET.duplicate, issues: 64 }), 1);
    addRow(counts, row({ bucket: BUCKET.duplicate, issues: 64 }), -1);
    expect(listCounts(counts)).toEqual({
      rows: 3,
      valid: 1,
      invalid: 1,
      duplicates: 1,
      excluded: 1,
      edited: 1,
      issues: {
        row_ragged: 0,
        phone_missing: 1,
        phone_scientific_notation: 0,
        phone_excel_decimal: 0,
        phone_invalid: 0,
        duplicate: 1,
        variable_missing: 1,
        phone_landline: 0,
        quote_unbalanced: 0,
        formula_cell: 0,
        phone_bidi_control: 0,
      },
      upload: 1,
      rejects: 1,
    });
  });

  it('renders a rejects tail like the engine: quoted when needed, formulas neutralised', () => {
    expect(renderTail(['a', '=1+1', 'x,y', ' -3', 'q"uote'])).toBe(`a,'=1+1,"x,y",' -3,"q""uote"`);
  });
});
