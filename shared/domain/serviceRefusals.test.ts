import { describe, expect, it } from 'vitest';
import {
  emptyVariableReason,
  mapRefusalsToList,
  optionalColumns,
  parseRejectsCsv,
  refusingColumns,
  rowsServiceWillDrop,
} from './serviceRefusals.ts';

const header = ['Name', 'Mobile Number', 'Due Date', 'Loan Amount', 'City'];
const mapping = [
  { variable: 'mobile_number', column: 'Mobile Number', optional: false },
  { variable: 'callee_name', column: 'Name', optional: false },
  { variable: 'due_date', column: 'Due Date', optional: false },
  { variable: 'loan_amount', column: 'Loan Amount', optional: true },
  { variable: 'language', column: '', optional: false },
  { variable: 'city', column: 'City', optional: true },
];

describe('the columns the service refuses a blank in', () => {
  it('are the mapped, non-optional variables other than the phone', () => {
    expect(refusingColumns(mapping, header, 1)).toEqual([0, 2]);
    expect(optionalColumns(mapping, header, 1)).toEqual([3, 4]);
  });

  it('a column shared by an optional and a required variable is required', () => {
    const shared = [...mapping, { variable: 'amount_again', column: 'Loan Amount', optional: false }];
    expect(refusingColumns(shared, header, 1)).toEqual([0, 2, 3]);
    expect(optionalColumns(shared, header, 1)).toEqual([4]);
  });

  it('names the figure the confirmation shows, and says the reason in the service’s words', () => {
    expect(rowsServiceWillDrop({ rowsServiceWillDrop: 12 })).toBe(12);
    expect(emptyVariableReason('Loan Amount', 'loan_amount')).toBe(
      'Loan Amount is empty (needed for loan_amount)',
    );
  });
});

describe('the service’s rejects file', () => {
  it('reads row numbers and reasons by their column names (quoted cells, CRLF, BOM)', () => {
    const csv =
      '\uFEFFMobile Number,Name,Loan Amount,Row Number,Reason\r\n' +
      '+919876543210,"Rao, Asha",,2,Loan Amount is empty (needed for loan_amount)\r\n' +
      '+919876543211,Meera,,x,not a number\r\n' +
      '+919876543212,"Line\nbreak",,5,"Name is empty (needed for callee_name)"\r\n';
    expect(parseRejectsCsv(csv)).toEqual([
      { uploadRow: 2, reason: 'Loan Amount is empty (needed for loan_amount)' },
      { uploadRow: 5, reason: 'Name is empty (needed for callee_name)' },
    ]);
  });

  it('gives nothing without a row number column', () => {
    expect(parseRejectsCsv('Mobile Number,Reason\n+91,bad\n')).toEqual([]);
    expect(parseRejectsCsv('')).toEqual([]);
  });
});

describe('upload rows → list rows', () => {
  it('maps each refused upload row to the list row written there, once; numbers outside the file are dropped', () => {
    // The upload carried list rows 2, 5, 6, 9 (rows 3, 4, 7, 8 were invalid or excluded).
    const uploadRows = [2, 5, 6, 9];
    expect(
      mapRefusalsToList(uploadRows, [
        { uploadRow: 2, reason: 'a' },
        { uploadRow: 4, reason: 'b' },
        { uploadRow: 4, reason: 'again' },
        { uploadRow: 0, reason: 'none' },
        { uploadRow: 5, reason: 'past the end' },
      ]),
    ).toEqual([
      { uploadRow: 2, reason: 'a', row: 5 },
      { uploadRow: 4, reason: 'b', row: 9 },
    ]);
  });
});
