import parsePhoneNumberFromString from 'libphonenumber-js/max';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { generateContactChunks, generateContacts, GENERATED_HEADER } from './contactsGenerator.ts';
import type { RowTruth } from './contactsGenerator.ts';

const text = (bytes: Uint8Array, encoding = 'utf-8') =>
  new TextDecoder(encoding, { ignoreBOM: true }).decode(bytes);

describe('contacts generator', () => {
  it('is deterministic: the same options give the same bytes and truth, another seed other bytes', () => {
    const a = generateContacts({ rows: 3000, seed: 42 });
    const b = generateContacts({ rows: 3000, seed: 42 });
    const c = generateContacts({ rows: 3000, seed: 43 });
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    expect(a.truth).toEqual(b.truth);
    expect(Buffer.from(a.bytes).equals(Buffer.from(c.bytes))).toBe(false);
    // Streaming in small chunks writes the same file.
    const chunks = [...generateContactChunks({ rows: 3000, seed: 42 }, undefined, 1000)];
    expect(Buffer.concat(chunks).equals(Buffer.from(a.bytes))).toBe(true);
  });

  it('means what its truth says: every phone as libphonenumber-js max reads it under IN', () => {
    const { truth } = generateContacts({ rows: 20_000, seed: 7 });
    const wrong: Array<[RowTruth, string]> = [];
    for (const t of truth) {
      if (t.phoneIssue === 'phone_missing') {
        if (t.phone.trim() !== '') wrong.push([t, 'not empty']);
        continue;
      }
      if (t.phoneIssue === 'phone_scientific_notation' || t.phoneIssue === 'phone_excel_decimal') {
        const pattern = t.phoneIssue === 'phone_excel_decimal' ? /^\d{12}\.0$/ : /^\d\.\d+E\+(09|11)$/;
        if (!pattern.test(t.phone)) wrong.push([t, 'not Excel damage']);
        continue;
      }
      if (t.phoneIssue === 'phone_bidi_control') {
        if (!/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/.test(t.phone))
          wrong.push([t, 'no bidi control']);
        continue;
      }
      const parsed = parsePhoneNumberFromString(t.phone, 'IN');
      const valid = parsed !== undefined && parsed.isValid();
      if (t.phoneIssue === 'phone_invalid') {
        if (valid) wrong.push([t, 'valid']);
        continue;
      }
      if (!valid || parsed.number !== t.e164) wrong.push([t, `reads as ${parsed?.number}`]);
      else if ((parsed.getType() === 'FIXED_LINE') !== t.landline)
        wrong.push([t, `type ${parsed.getType()}`]);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    // Every kind of mess is there.
    const kinds = new Set(truth.map((t) => t.kind));
    expect([...kinds].sort()).toEqual([
      'bidi',
      'empty',
      'excel_decimal',
      'excel_scientific',
      'in_landline',
      'in_landline_zero_lost',
      'in_mobile',
      'junk',
      'us_international',
      'us_invalid_in_in',
      'us_read_as_in_landline',
    ]);
    const share = (f: (t: RowTruth) => boolean) => truth.filter(f).length / truth.length;
    expect(share((t) => t.repeats > 0)).toBeGreaterThan(0.03);
    expect(share((t) => t.empty.includes('Due Date'))).toBeGreaterThan(0.005);
    expect(share((t) => t.ragged)).toBeGreaterThan(0);
    expect(share((t) => t.formula)).toBeGreaterThan(0.002);
  });

  it('writes the rows its truth lists: row numbers, ids, phone cells, blank lines, quoting, Devanagari', () => {
    const { bytes, truth } = generateContacts({ rows: 5000, seed: 3 });
    const csv = text(bytes);
    const parsed = Papa.parse<string[]>(csv, { delimiter: ',', newline: '\n' }).data;
    expect(parsed[0]).toEqual([...GENERATED_HEADER]);
    // Spreadsheet rows: papaparse's records (blank lines included) are rows 1, 2, 3 …
    for (const t of truth) {
      const cells = parsed[t.row - 1] as string[];
      expect([cells[0], cells[2], cells.length]).toEqual([t.id, t.phone, t.ragged ? 8 : 9]);
    }
    expect(truth.at(-1)?.row).toBeGreaterThan(truth.length + 1); // blank lines were written
    expect(csv).toMatch(/"[^"\n]*\n[^"\n]*"/); // a line break inside a quoted cell
    expect(csv).toContain('""'); // a doubled quote
    expect(csv).toMatch(/[\u0900-\u097f]/);
    expect(csv).toMatch(/,"[^",]+, [^",]+",/); // "Last, First"
  });

  it('writes a BOM, CRLF, UTF-16LE, Windows-1252 and other delimiters on request', () => {
    const plain = text(generateContacts({ rows: 200, seed: 1 }).bytes);
    const bom = generateContacts({ rows: 200, seed: 1, bom: true }).bytes;
    expect([...bom.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(text(bom.subarray(3))).toBe(plain);
    const crlf = text(generateContacts({ rows: 200, seed: 1, crlf: true }).bytes);
    expect(crlf.split('\r\n').length).toBeGreaterThan(200);
    expect(crlf.replace(/\r\n/g, '\n')).toBe(plain);
    const utf16 = generateContacts({ rows: 200, seed: 1, encoding: 'utf-16le' }).bytes;
    expect([...utf16.subarray(0, 2)]).toEqual([0xff, 0xfe]);
    expect(text(utf16.subarray(2), 'utf-16le')).toBe(plain);
    const cp1252 = text(
      generateContacts({ rows: 200, seed: 1, encoding: 'windows-1252' }).bytes,
      'windows-1252',
    );
    expect(cp1252.length).toBe(plain.length);
    expect(cp1252).not.toContain('₹'); // not in Windows-1252: written as "?"
    expect(cp1252).toContain('Zürich');
    const semicolons = text(generateContacts({ rows: 200, seed: 1, delimiter: ';' }).bytes);
    expect(semicolons.split('\n')[0]).toBe(GENERATED_HEADER.join(';'));
  });

  it('streams big files in chunks of about the size asked for', () => {
    let rows = 0;
    const sizes: number[] = [];
    for (const chunk of generateContactChunks({ rows: 100_000, seed: 42 }, () => rows++, 1 << 20))
      sizes.push(chunk.length);
    expect(rows).toBe(100_000);
    expect(sizes.length).toBeGreaterThan(5);
    expect(Math.max(...sizes)).toBeLessThan(1.2 * (1 << 20) * 3); // UTF-8: at most 3 bytes a character
  }, 60_000);
});
