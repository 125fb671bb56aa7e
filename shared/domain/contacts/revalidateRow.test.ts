import { describe, expect, it } from 'vitest';
import { createRowRevalidator } from './revalidateRow.ts';
import { resolveSetup } from './sniff.ts';

const setup = resolveSetup(['Name', 'Mobile Number', 'Loan Amount'], 1, ',', '\n', {
  country: 'IN',
  map: [
    ['callee_name', 'Name'],
    ['loan_amount', 'Loan Amount'],
  ],
});
const revalidate = createRowRevalidator(setup);
const none = (): number => 0;

describe('single-row revalidation (an operator edited a cell)', () => {
  it('a fixed phone makes the row valid, with its E.164 and name preview', () => {
    const outcome = revalidate(['Mr. Rahul  Sharma', '098765 43210', '500'], 7, none);
    // The name previews are made when read (getters).
    expect({ ...outcome, name: outcome.name, firstName: outcome.firstName }).toEqual({
      row: 7,
      bucket: 'valid',
      issues: [],
      reasons: '',
      phoneRaw: '098765 43210',
      e164: '+919876543210',
      duplicateOf: 0,
      name: 'Mr. Rahul Sharma',
      firstName: 'Rahul',
    });
  });

  it('gives the same Reasons text as the rejects file', () => {
    const outcome = revalidate(['', '9.19877E+11', ''], 3, none);
    expect(outcome).toMatchObject({
      bucket: 'invalid',
      issues: ['phone_scientific_notation', 'variable_missing'],
      reasons: 'phone_scientific_notation; variable_missing:Name, Loan Amount',
      e164: null,
    });
  });

  it('is a duplicate only of an earlier row with the same number', () => {
    const earliest = (e164: string): number => (e164 === '+919876543210' ? 4 : 0);
    expect(revalidate(['A', '+91 98765 43210', '1'], 9, earliest)).toMatchObject({
      bucket: 'duplicate',
      duplicateOf: 4,
      reasons: 'duplicate:row 4',
      issues: ['duplicate'],
    });
    // The other row comes later: this one is the first.
    expect(revalidate(['A', '+91 98765 43210', '1'], 2, earliest)).toMatchObject({
      bucket: 'valid',
      duplicateOf: 0,
    });
    // A row with an empty variable is invalid for its own reason, and names the row with its number.
    expect(revalidate(['A', '9876543210', ''], 9, earliest)).toMatchObject({
      bucket: 'invalid',
      issues: ['duplicate', 'variable_missing'],
      reasons: 'duplicate:row 4; variable_missing:Loan Amount',
    });
  });

  it('a ragged row is invalid even with a valid phone', () => {
    expect(revalidate(['A', '9876543210'], 5, none)).toMatchObject({
      bucket: 'invalid',
      issues: ['row_ragged', 'variable_missing'],
      reasons: 'row_ragged:2 of 3 cells; variable_missing:Loan Amount',
    });
  });
});
