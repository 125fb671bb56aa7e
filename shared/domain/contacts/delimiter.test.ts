import { describe, expect, it } from 'vitest';
import { detectDelimiter, detectLayout, detectNewline, parseDelimiter } from './delimiter.ts';

describe('delimiter detection', () => {
  it('is not fooled by decimal commas in a semicolon file', () => {
    const text =
      'Name;Mobile;Amount;Balance\nRahul;9876543210;1.234,50;-21.419,06\nPriya;9876543211;12,5;0,00\nAmit;9876543212;100;5,58199E+12\n';
    expect(detectDelimiter(text, '\n', true)).toEqual({ delimiter: ';', source: 'detected' });
  });

  it('is not fooled by quoted commas or Indian digit grouping in a comma file', () => {
    const text =
      'Name,Mobile,Amount\n"Sharma, Rahul",9876543210,"1,25,000"\nPriya;Gupta,9876543211,"2,000"\n';
    expect(detectDelimiter(text, '\n', true).delimiter).toBe(',');
  });

  it('finds tabs and pipes', () => {
    expect(detectDelimiter('Name\tMobile\tCity\nA, B\t98765\tPune, MH\n', '\n', true).delimiter).toBe('\t');
    expect(detectDelimiter('Name|Mobile|City\nA, B|98765|Pune; MH\n', '\n', true).delimiter).toBe('|');
  });

  it('handles quoted fields with embedded line breaks in the sample', () => {
    const text = 'Name;Mobile;Notes\nA;1;"line one\nline; two"\nB;2;x\n';
    expect(detectDelimiter(text, '\n', true).delimiter).toBe(';');
  });

  it('ignores a half record at the end of a partial sample', () => {
    const text = 'Name;Mobile;Notes\nA;1;x\nB;2;y\nC,3';
    expect(detectDelimiter(text, '\n', false).delimiter).toBe(';');
  });

  it('falls back to comma for a one-column file', () => {
    expect(detectDelimiter('Mobile Number\n9876543210\n', '\n', true)).toEqual({
      delimiter: ',',
      source: 'default',
    });
  });
});

describe('header below a title (issue 25)', () => {
  it('skips title and notes lines (commas included) and finds the ; table under them', () => {
    const text =
      'Report, March 2026, Pune\nNote: amounts in INR, rounded\n\nName;Phone;City\nA;1;Pune\nB;2;Goa\n';
    expect(detectLayout(text, '\n', true)).toEqual({
      delimiter: ';',
      source: 'detected',
      skipped: {
        records: 3,
        chars: text.indexOf('Name'),
        lines: ['Report, March 2026, Pune', 'Note: amounts in INR, rounded'],
      },
    });
  });

  it('keeps the first line as the header when rows are merely wider or ragged', () => {
    expect(detectLayout('Name,Phone,City\nA,1,Pune,\nB,2,Goa,\n', '\n', true).skipped).toBeNull();
    expect(detectLayout('Name,Phone,City\nA,1\nB,2,Goa\nC,3\n', '\n', true).skipped).toBeNull();
    expect(detectLayout('Mobile Number\n9876543210\n', '\n', true)).toEqual({
      delimiter: ',',
      source: 'default',
      skipped: null,
    });
  });
});

describe('line breaks', () => {
  it('takes the break that ends the header, quotes respected', () => {
    expect(detectNewline('a,b\r\nc,d\r\n')).toBe('\r\n');
    expect(detectNewline('a,b\nc,d\n')).toBe('\n');
    expect(detectNewline('a,b\rc,d\r')).toBe('\r');
    expect(detectNewline('"a\nb",c\r\nd,e\r\n')).toBe('\r\n');
    expect(detectNewline('just one line')).toBe('\n');
  });
});

it('parses --delimiter values', () => {
  expect(parseDelimiter(',')).toBe(',');
  expect(parseDelimiter('semicolon')).toBe(';');
  expect(parseDelimiter('\\t')).toBe('\t');
  expect(parseDelimiter('\t')).toBe('\t');
  expect(parseDelimiter('TAB')).toBe('\t');
  expect(parseDelimiter('pipe')).toBe('|');
  expect(parseDelimiter(':')).toBeNull();
});
