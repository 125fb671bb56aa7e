import { describe, expect, it } from 'vitest';
import { parseRecords } from './parseRecords.ts';
import { createByteWriter } from './byteWriter.ts';
import { csvCell, csvLine, needsNeutralising, neutralise, safeCell } from './csvWrite.ts';

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
