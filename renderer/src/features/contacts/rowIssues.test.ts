import { describe, expect, it } from 'vitest';
import { missingVariables, rowIssues } from './rowIssues.ts';

const list = {
  detected: { header: ['Name', 'Mobile Number', 'Due Date', 'Notes'], phoneColumn: 'Mobile Number' },
  variables: [
    { variable: 'callee_name', column: 'Name', optional: false },
    { variable: 'due_date', column: 'Due Date', optional: false },
    { variable: 'notes', column: 'Notes', optional: true },
    { variable: 'city', column: '', optional: false },
  ],
};

describe('rowIssues', () => {
  it('a "variable missing" chip names the variable and its column, and marks that cell', () => {
    const issues = rowIssues({ issues: ['variable_missing'], cells: ['Asha', '9876543210', '  ', ''] }, list);
    expect(issues.chips).toEqual([
      {
        code: 'variable_missing',
        text: 'due_date missing',
        detail: 'Variable due_date is missing: column "Due Date" is empty',
      },
    ]);
    expect([...issues.cells]).toEqual([[2, 'due_date missing']]);
  });

  it('names every missing variable; optional and unmapped ones are never missing', () => {
    expect(missingVariables(['', '1', '', ''], list).map((m) => m.variable)).toEqual([
      'callee_name',
      'due_date',
    ]);
    // A short (ragged) row misses the cells it does not have.
    expect(missingVariables(['Asha'], list).map((m) => m.column)).toEqual(['Due Date']);
  });

  it("a row the service refused at a launch carries a chip with the service's reason", () => {
    const issues = rowIssues(
      {
        issues: [],
        cells: ['Asha', '9876543210', '', ''],
        refused: 'Due Date is empty (needed for due_date)',
      },
      list,
    );
    expect(issues.chips).toEqual([
      {
        code: 'service_refused',
        text: 'refused by the service: Due Date is empty (needed for due_date)',
        detail:
          'The calling service refused this row when the list was launched: Due Date is empty (needed for due_date)',
      },
    ]);
    expect(rowIssues({ issues: [], cells: ['Asha', '9876543210', 'x', ''] }, list).chips).toEqual([]);
  });

  it('a phone problem marks the phone cell and names the column', () => {
    const issues = rowIssues({ issues: ['phone_invalid'], cells: ['Asha', '12345', 'x', ''] }, list);
    expect(issues.chips).toEqual([
      { code: 'phone_invalid', text: 'phone invalid', detail: 'Phone invalid in column "Mobile Number"' },
    ]);
    expect([...issues.cells]).toEqual([[1, 'Phone invalid']]);
  });

  it('a formula cell gets a chip naming its column and marks that cell; the phone column is never one', () => {
    const issues = rowIssues(
      { issues: ['formula_cell'], cells: ['\t=2+2', '+91 98765 43210', '2025-01-01', '@SUM(1+1)'] },
      list,
    );
    expect(issues.chips.map((c) => [c.code, c.text])).toEqual([
      ['formula_cell', 'formula in Name'],
      ['formula_cell', 'formula in Notes'],
    ]);
    expect([...issues.cells]).toEqual([
      [0, 'formula in Name'],
      [3, 'formula in Notes'],
    ]);
    // Warnings: the grid marks these cells in the warning colour, not the error red.
    expect([...issues.warnings]).toEqual([0, 3]);
  });

  it('a phone with bidi controls marks the phone cell', () => {
    const issues = rowIssues(
      { issues: ['phone_bidi_control'], cells: ['Asha', '+91\u202E0123456789', '', ''] },
      list,
    );
    expect(issues.chips.map((c) => c.detail)).toEqual([
      'Phone with hidden direction controls in column "Mobile Number"',
    ]);
    expect([...issues.cells]).toEqual([[1, 'Phone with hidden direction controls']]);
    expect(issues.warnings.size).toBe(0);
  });

  it('a ragged row says how many cells it has; duplicates get no chip here (the status says it)', () => {
    const issues = rowIssues({ issues: ['row_ragged', 'duplicate'], cells: ['Asha', '9876543210'] }, list);
    expect(issues.chips.map((c) => c.text)).toEqual(['2 of 4 cells']);
    expect(issues.cells.size).toBe(0);
  });
});
