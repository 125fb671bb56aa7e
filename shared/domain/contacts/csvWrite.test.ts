import { describe, expect, it } from 'vitest';
import { parseRecords } from './parseRecords.ts';
import { createByteWriter } from './byteWriter.ts';
import { csvCell, csvLine, needsNeutralising, neutralise, safeCell, safePhoneCell } from './csvWrite.ts';

describe('CSV writing', () => {
  it('quotes per RFC 4180 and round-trips through the parser', () => {
    const cells = ['plain', 'a,b', 'say "hi"', 'line\nbreak', 'cr\rhere', '', ' padded '];
    expect(csvLine(cells)).toBe('plain,"a,b","say ""hi""","line\nbreak","cr\rhere",, padded \n');
    expect(parseRecords(csvLine(cells), ',', '\n')).toEqual([cells]);
  });

  it('neutralises formulas for people, not other text', () => {
    for (const v of ['=SUM(A1:A2)', '+91 98765 43210', '-500', '@cmd', '\tx', '\rx', ' =1+1']) {
      expect(needsNeutralising(v)).toBe(true);
      expect(neutralise(v)).toBe(`'${v}`);
    }
    for (const v of ['Rahul', '9876543210', "'already", '', 'a=b', '(415) 823-4567'])
      expect(neutralise(v)).toBe(v);
    expect(safeCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  });

  it('sees a formula behind any leading whitespace, and shows bidi controls in files for people', () => {
    for (const v of [' \t=2+2', '\u00a0=1+1', '\n@SUM(1)', '  -2+3']) expect(neutralise(v)).toBe(`'${v}`);
    expect(safeCell('+91\u202E0123456789')).toBe("'+91⟨RLO⟩0123456789");
    expect(safeCell('Ra\u2067hul\u2069')).toBe('Ra⟨RLI⟩hul⟨PDI⟩');
    // A control in front of a formula is shown, so the cell no longer starts with the formula.
    expect(safeCell('\u200E=1+1')).toBe('⟨LRM⟩=1+1');
  });

  it('writes an E.164 phone as a tel: URI (text to a spreadsheet, no formula, no apostrophe); other values as safeCell', () => {
    expect(safePhoneCell('+919002855525')).toBe('tel:+919002855525');
    expect(safePhoneCell('+12025550143')).toBe('tel:+12025550143');
    // Not E.164: guarded like any other cell (a formula keeps its apostrophe, controls are shown).
    expect(safePhoneCell('+1+cmd|x')).toBe("'+1+cmd|x");
    expect(safePhoneCell('+91\u202E0123456789')).toBe("'+91⟨RLO⟩0123456789");
    expect(safePhoneCell('9876543210')).toBe('9876543210');
    expect(safePhoneCell('')).toBe('');
    expect(needsNeutralising(safePhoneCell('+919002855525'))).toBe(false);
  });
});

describe('byte writer', () => {
  it('writes exactly the UTF-8 bytes of csvCell text', () => {
    const values = [
      '',
      'plain',
      'a,b',
      'q"uote',
      'new\nline',
      'राहुल',
      'राहुल, शर्मा',
      '😀"',
      '₹ 1,25,000',
      'José',
      'x'.repeat(5000),
    ];
    const writer = createByteWriter(8);
    let expected = '';
    for (const v of values) {
      writer.cell(v);
      writer.byte(44);
      expected += csvCell(v) + ',';
    }
    writer.plain('+919876543210');
    writer.plain('→ done');
    expected += '+919876543210→ done';
    expect(new TextDecoder().decode(writer.bytes())).toBe(expected);
    expect(writer.length).toBe(new TextEncoder().encode(expected).length);
  });
});

describe('byte writer: simple cells', () => {
  it('writes plain ASCII cells as they are and refuses, writing nothing, any other', () => {
    const writer = createByteWriter(4);
    for (const v of ['', 'Rahul Sharma', 'a.b@example.in', '125000', 'x~y'])
      expect(writer.simpleCell(v, true)).toBe(true);
    for (const v of [' a', 'a ', 'a,b', 'a"b', 'a\tb', 'राहुल', 'a\u007f', 'Ra\u202Ehul'])
      expect(writer.simpleCell(v, false)).toBe(false);
    expect(writer.simpleCell('Rahul  Sharma', true)).toBe(false);
    expect(writer.simpleCell('Rahul  Sharma', false)).toBe(true);
    expect(new TextDecoder().decode(writer.bytes())).toBe('Rahul Sharmaa.b@example.in125000x~yRahul  Sharma');
  });
});
