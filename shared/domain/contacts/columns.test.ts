import { describe, expect, it } from 'vitest';
import {
  autoMatchVariables,
  columnRef,
  detectNameColumn,
  detectPhoneColumn,
  duplicateColumns,
  normaliseName,
  resolveColumn,
} from './columns.ts';
import { ContactsError } from './errors.ts';

describe('phone column', () => {
  it('prefers the service template header, whatever its case and punctuation', () => {
    expect(detectPhoneColumn(['Phone', 'mobile-number', 'Contact'])).toBe(1);
    expect(detectPhoneColumn(['Name', 'MOBILE_NUMBER'])).toBe(1);
  });
  it('finds the usual names, mobile before phone before contact/number', () => {
    expect(detectPhoneColumn(['Name', 'Contact', 'Phone'])).toBe(2);
    expect(detectPhoneColumn(['Name', 'MSISDN'])).toBe(1);
    expect(detectPhoneColumn(['Name', 'Number', 'Contact No.'])).toBe(2);
    expect(detectPhoneColumn(['Customer ID', 'Contact'])).toBe(1);
    expect(detectPhoneColumn(['Customer Mobile', 'City'])).toBe(0);
  });
  it("takes the calls CSV's to_number (the service's name for the number called)", () => {
    expect(detectPhoneColumn(['call_id', 'bulk_list_id', 'to_number', 'name', 'status'])).toBe(2);
  });
  it('does not take a column about something else', () => {
    expect(detectPhoneColumn(['Name', 'Phone Type', 'Mobile Operator', 'Email'])).toBe(-1);
    expect(detectPhoneColumn(['Name', 'Account Number ID', 'City'])).toBe(-1);
  });
});

describe('columns by name', () => {
  it('normalises across scripts, case and punctuation', () => {
    expect(normaliseName(' Loan  Amount (₹) ')).toBe('loanamount');
    expect(normaliseName('नाम')).toBe('नाम');
  });
  it('resolves exact names first, then unambiguous normalised ones', () => {
    const header = ['Name', 'Loan Amount', 'loan_amount2', 'Due Date'];
    expect(resolveColumn(header, 'Loan Amount', '--map')).toBe(1);
    expect(resolveColumn(header, 'due-date', '--map')).toBe(3);
  });
  it('names the option and lists the columns when it cannot', () => {
    const header = ['Name', 'Due Date', 'due date'];
    expect(() => resolveColumn(header, 'Amount', 'column for variable "amount"')).toThrow(
      'column for variable "amount" "Amount" is not a column of the file (columns: "Name", "Due Date", "due date")',
    );
    expect(() => resolveColumn(header, 'DUE_DATE', 'x')).toThrow(
      'x "DUE_DATE" names 2 columns (#2, #3); pick one by its position, e.g. "#3"',
    );
    expect(() => resolveColumn(header, 'Amount', 'x')).toThrow(ContactsError);
  });
  it('auto-matches prompt variables to columns', () => {
    const header = ['Customer ID', 'Name', 'Mobile Number', 'Loan Amount', 'Due Date'];
    expect(autoMatchVariables(['loan_amount', 'due_date', 'callee_name', 'policy_id'], header)).toEqual({
      loan_amount: 'Loan Amount',
      due_date: 'Due Date',
      callee_name: 'Name',
      policy_id: null,
    });
  });
  it('finds the name column', () => {
    expect(detectNameColumn(['ID', 'Full Name', 'Phone'])).toBe(1);
    expect(detectNameColumn(['ID', 'Phone'])).toBe(-1);
  });

  it('repeated header names: listed with their positions, refused by name, picked by "#N"', () => {
    const header = ['Mobile Number', 'Name', 'Name', 'Mobile Number', 'City'];
    expect(duplicateColumns(header)).toEqual([
      { name: 'Mobile Number', positions: [1, 4] },
      { name: 'Name', positions: [2, 3] },
    ]);
    expect(() => resolveColumn(header, 'Mobile Number', 'phone column')).toThrow(
      'phone column "Mobile Number" names 2 columns (#1, #4); pick one by its position, e.g. "#4"',
    );
    expect(resolveColumn(header, '#4', 'phone column')).toBe(3);
    expect(resolveColumn(header, ' #2 ', 'x')).toBe(1);
    expect(resolveColumn(header, 'City', 'x')).toBe(4);
    expect(() => resolveColumn(header, '#6', 'phone column')).toThrow(/the file has columns #1 to #5/);
    expect([0, 1, 4].map((i) => columnRef(header, i))).toEqual(['#1', '#2', 'City']);
    // Auto-matching leaves a repeated name for the operator to pick.
    expect(autoMatchVariables(['name', 'city'], header)).toEqual({ name: null, city: 'City' });
  });
});
