import { describe, expect, it } from 'vitest';
import { createByteWriter } from './byteWriter.ts';
import { createRowRules } from './rowRules.ts';
import { resolveSetup } from './sniff.ts';

const header = ['Name', 'Mobile Number', 'Loan Amount', 'Notes'];
const choices = {
  country: 'IN',
  map: [
    ['callee_name', 'Name'],
    ['loan_amount', 'Loan Amount'],
    ['notes', 'Notes'],
  ] as Array<[string, string]>,
};

// Cells on both sides of the upload's one-pass path (plain ASCII starting with a letter or digit):
// spaces at the ends or doubled, formulas, signs, quotes, commas, controls, bidi, non-ASCII.
const cells = [
  '',
  'Rahul Sharma',
  'Rahul  Sharma',
  ' Rahul',
  'Rahul ',
  'RAHUL\tSHARMA',
  'Ra\u202Ehul',
  'राहुल',
  'José',
  '=SUM(A1)',
  '+91 98',
  '-500',
  '@cmd',
  '1,25,000',
  'say "hi"',
  '125000',
  '22-Jul-2025',
  'a.b@example.in',
  'x~y|z{}',
  'line\nbreak',
  'DEL\u007f',
  '~=1+1',
];

describe('row rules: upload lines', () => {
  for (const keepFormulaCells of [false, true]) {
    it(`the bulk byte path writes exactly uploadLine's text (keepFormulaCells ${keepFormulaCells})`, () => {
      const setup = resolveSetup(header, 1, ',', '\n', { ...choices, keepFormulaCells });
      const rules = createRowRules(setup);
      const writer = createByteWriter(8);
      let expected = '';
      for (const a of cells)
        for (const b of cells) {
          const row = [a, '9876543210', b, a + b];
          rules.writeUpload(writer, '+919876543210', row);
          expected += rules.uploadLine('+919876543210', row);
        }
      expect(new TextDecoder().decode(writer.bytes())).toBe(expected);
    });
  }
});
