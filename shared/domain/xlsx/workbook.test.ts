import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  CRLF_STRING_CELLS,
  crlfStringsWorkbook,
  ELAPSED_TIME_CELLS,
  elapsedTimeWorkbook,
  partCaseWorkbook,
} from '../../testing/contactsEdgeCases.ts';
import { xlsxBytes } from '../../testing/xlsxWriter.ts';
import type { TestWorkbook } from '../../testing/xlsxWriter.ts';
import { ContactsError } from '../contacts/errors.ts';
import { elapsedFormat, elapsedText, formatKind, numberText, serialText } from './cellText.ts';
import { openWorkbook } from './workbook.ts';
import { sheetRows } from './sheetRows.ts';
import { bytesAccess } from './zip.ts';

async function rowsOf(book: TestWorkbook, sheet = 0): Promise<Array<{ row: number; cells: string[] }>> {
  const wb = await openWorkbook(bytesAccess(xlsxBytes(book)));
  const out = [];
  for await (const rows of sheetRows(wb, wb.sheets[sheet]!)) out.push(...rows);
  return out;
}
const cellsOf = async (book: TestWorkbook): Promise<string[][]> => (await rowsOf(book)).map((r) => r.cells);

describe('xlsx cells', () => {
  it('numeric phone cells become their digits, never an exponent; other numbers drop a trailing .0; zeros-only formats pad', async () => {
    const cells = await cellsOf({
      sheets: [
        {
          name: 'Numbers',
          rows: [
            [919876543210, { raw: '9.19876543210E+11' }, { raw: '42.0' }, 12.5],
            [0.1 + 0.2, { raw: '1.5E-7' }, -7, { raw: '123456789012345678' }],
            [
              { raw: '3.14159', style: 'fixed2' },
              1e21,
              { raw: '1234', style: 'zeros5' },
              { raw: '123456', style: 'zeros5' },
            ],
          ],
        },
      ],
    });
    expect(cells).toEqual([
      ['919876543210', '919876543210', '42', '12.5'],
      ['0.3', '0.00000015', '-7', '123456789012345680'],
      ['3.14159', '1000000000000000000000', '01234', '123456'],
    ]);
  });

  it('date cells become YYYY-MM-DD by their style, in the 1900 and the 1904 date systems', async () => {
    const dates = (date1904: boolean) =>
      cellsOf({
        date1904,
        sheets: [
          {
            name: 'Dates',
            rows: [
              [
                { serial: 45658, style: 'date' },
                { serial: 45658, style: 'isoDate' },
                { serial: 45658.5, style: 'dateTime' },
                { serial: 45658, style: 'fixed2' },
                45658,
              ],
              [
                { serial: 59, style: 'date' },
                { serial: 61, style: 'date' },
                { serial: 0, style: 'date' },
              ],
            ],
          },
        ],
      });
    expect(await dates(false)).toEqual([
      ['2025-01-01', '2025-01-01', '2025-01-01 12:00:00', '45658', '45658'],
      ['1900-02-28', '1900-03-01', '1899-12-31'],
    ]);
    // The same serials in the 1904 system are 1,462 days later.
    expect(await dates(true)).toEqual([
      ['2029-01-02', '2029-01-02', '2029-01-02 12:00:00', '45658', '45658'],
      ['1904-02-29', '1904-03-02', '1904-01-01'],
    ]);
  });

  it('formula cells give their cached values; booleans, shared and inline strings and escapes are read', async () => {
    const cells = await cellsOf({
      sheets: [
        {
          name: 'Mixed',
          rows: [
            [
              { formula: 'A2*2', value: 919876543210 },
              { formula: 'CONCAT("Asha"," K")', value: 'Asha K' },
              true,
              false,
            ],
            [
              'Ravi & <Sons>',
              { inline: 'Inline "quoted", text' },
              'Ravi & <Sons>',
              { inline: 'line1_x000D_\nline2' },
            ],
          ],
        },
      ],
    });
    expect(cells).toEqual([
      ['919876543210', 'Asha K', 'TRUE', 'FALSE'],
      ['Ravi & <Sons>', 'Inline "quoted", text', 'Ravi & <Sons>', 'line1\r\nline2'],
    ]);
  });

  it('sparse rows and cells keep their row numbers and columns; a namespace prefix is understood', async () => {
    for (const prefix of [undefined, 'x']) {
      const rows = await rowsOf({
        ...(prefix ? { prefix } : {}),
        sheets: [
          {
            name: 'Sparse',
            rows: [
              { row: 3, cells: ['Phone', null, 'Name'] },
              { row: 7, cells: [null, null, 'only C'] },
              { row: 8, cells: [] },
            ],
          },
        ],
      });
      expect(rows).toEqual([
        { row: 3, cells: ['Phone', '', 'Name'] },
        { row: 7, cells: ['', '', 'only C'] },
        { row: 8, cells: [] },
      ]);
    }
  });

  it('lists several sheets in tab order with their names and hidden state', async () => {
    const wb = await openWorkbook(
      bytesAccess(
        xlsxBytes({
          sheets: [
            { name: 'Summary', rows: [['Total', 3]] },
            { name: 'Hidden one', hidden: true, rows: [] },
            { name: 'Contacts & Co', rows: [['Mobile'], [919876543210]] },
          ],
        }),
      ),
    );
    expect(wb.sheets.map((s) => [s.number, s.name, s.hidden])).toEqual([
      [1, 'Summary', false],
      [2, 'Hidden one', true],
      [3, 'Contacts & Co', false],
    ]);
  });

  it('refuses a cut-short file, a ZIP that is not a workbook, an .ods and an .xlsb, in one line each', async () => {
    const whole = xlsxBytes({ sheets: [{ name: 'S', rows: [['a']] }] });
    const refusal = (bytes: Uint8Array) =>
      openWorkbook(bytesAccess(bytes)).then(
        () => null,
        (e: unknown) => e,
      );
    const cut = await refusal(whole.subarray(0, whole.length - 200));
    expect(cut).toBeInstanceOf(ContactsError);
    expect((cut as ContactsError).code).toBe('bad_workbook');
    expect((cut as ContactsError).message).toMatch(/^not a readable Excel workbook: /);
    const zip = await refusal(zipSync({ 'notes.txt': new TextEncoder().encode('hello') }));
    expect((zip as ContactsError).message).toBe('not an Excel .xlsx workbook: it looks like a ZIP archive');
    const rels = new TextEncoder().encode(
      '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.bin"/></Relationships>',
    );
    const xlsb = await refusal(zipSync({ '_rels/.rels': rels, 'xl/workbook.bin': new Uint8Array(4) }));
    expect((xlsb as ContactsError).message).toBe(
      'an Excel binary workbook (.xlsb) cannot be read: save it as .xlsx or CSV in Excel',
    );
    const ods = await refusal(zipSync({ 'content.xml': new Uint8Array(1) }));
    expect((ods as ContactsError).message).toContain('OpenDocument');
  });
});

describe('workbooks written elsewhere (issue 25)', () => {
  const cellsOfBytes = async (bytes: Uint8Array): Promise<string[][]> => {
    const wb = await openWorkbook(bytesAccess(bytes));
    const out: string[][] = [];
    for await (const rows of sheetRows(wb, wb.sheets[0]!)) out.push(...rows.map((r) => r.cells));
    return out;
  };

  it('elapsed-time cells ([hh]:mm:ss, [mm]:ss, [h]:mm, built-in 46) keep their whole days', async () => {
    expect((await cellsOfBytes(elapsedTimeWorkbook()))[1]).toEqual(ELAPSED_TIME_CELLS);
  });

  it('a shared string holding CRLF keeps its CR, written as _x000D_, &#13; or &#xD; across rich-text runs', async () => {
    expect((await cellsOfBytes(crlfStringsWorkbook()))[1]).toEqual(CRLF_STRING_CELLS);
  });

  it('finds its parts whatever the case of their names (xl/SharedStrings.xml, _RELS/.rels, xl/Worksheets/Sheet1.xml)', async () => {
    const wb = await openWorkbook(bytesAccess(partCaseWorkbook()));
    expect(wb.sheets.map((s) => s.name)).toEqual(['Contacts']);
    expect(await cellsOfBytes(partCaseWorkbook())).toEqual([
      ['Name', 'Mobile'],
      ['Asha', '919876543210'],
    ]);
  });
});

describe('cell text helpers', () => {
  it('numberText never writes an exponent', () => {
    expect(numberText('9.19876543210E+11')).toBe('919876543210');
    expect(numberText('1E+15')).toBe('1000000000000000');
    expect(numberText('2.5e-10')).toBe('0.00000000025');
    expect(numberText('-0.5')).toBe('-0.5');
  });
  it('formatKind tells dates, times and plain numbers apart', () => {
    expect(formatKind('yyyy\\-mm\\-dd;@')).toBe('date');
    expect(formatKind('[$-409]d-mmm-yy;@')).toBe('date');
    expect(formatKind('h:mm AM/PM')).toBe('time');
    expect(formatKind('dd/mm/yyyy hh:mm')).toBe('datetime');
    expect(formatKind('0.00')).toBeNull();
    expect(formatKind('#,##0 "days"')).toBeNull();
    expect(formatKind('[Red]0.00')).toBeNull();
    expect(formatKind('General')).toBeNull();
  });
  it('elapsedFormat tells elapsed times from times of day', () => {
    expect(elapsedFormat('[hh]:mm:ss')).toEqual({ elapsed: 'h', width: 2, minutes: true, seconds: true });
    expect(elapsedFormat('[mm]:ss')).toEqual({ elapsed: 'm', width: 2, minutes: false, seconds: true });
    expect(elapsedFormat('[h]:mm')).toEqual({ elapsed: 'h', width: 1, minutes: true, seconds: false });
    expect(elapsedFormat('[Red][h]:mm')).toEqual({ elapsed: 'h', width: 1, minutes: true, seconds: false });
    expect(elapsedFormat('hh:mm:ss')).toBeNull();
    expect(elapsedFormat('[$-409]h:mm AM/PM')).toBeNull();
    expect(elapsedText('-0.5', elapsedFormat('[h]:mm:ss')!)).toBe('-12:00:00');
  });
  it('serialText rounds a time to the second and carries into the next day', () => {
    expect(serialText('45658.99999999', 'datetime', false)).toBe('2025-01-02 00:00:00');
    expect(serialText('0.75', 'time', false)).toBe('18:00:00');
  });
});
