import { describe, expect, it } from 'vitest';
import { xlsxBytes } from '../../testing/xlsxWriter.ts';
import type { TestWorkbook } from '../../testing/xlsxWriter.ts';
import { ContactsError } from '../contacts/errors.ts';
import { chooseSheet, openSheet, sheetCsvSource, sheetOverview } from './sheetCsv.ts';
import { openWorkbook } from './workbook.ts';
import { bytesAccess } from './zip.ts';

const open = (book: TestWorkbook) => openWorkbook(bytesAccess(xlsxBytes(book)));

async function csvOf(book: TestWorkbook, sheet = 0): Promise<string> {
  const wb = await open(book);
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of sheetCsvSource(wb, wb.sheets[sheet]!).open()) text += decoder.decode(chunk);
  return text;
}

const refusal = (fn: () => unknown): ContactsError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ContactsError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('a sheet as CSV text', () => {
  it('writes one line per sheet row: blank lines for rows left out, rows padded to the header, quoting as RFC 4180', async () => {
    const text = await csvOf({
      sheets: [
        {
          name: 'S',
          rows: [
            { row: 2, cells: ['Phone', 'Name', 'Note'] },
            { row: 3, cells: [919876543210] },
            { row: 6, cells: [null, 'Asha, "A"', 'two\nlines', 'extra'] },
          ],
        },
      ],
    });
    expect(text).toBe('\nPhone,Name,Note\n919876543210,,\n\n\n,"Asha, ""A""","two\nlines",extra\n');
  });
});

describe('Excel row limit and progress', () => {
  it("keeps the sheet's row number up to Excel's last row (1,048,576), gaps as blank lines", async () => {
    const text = await csvOf({
      sheets: [{ name: 'S', rows: [['Phone'], { row: 1_048_576, cells: [919876543210] }] }],
    });
    const lines = text.split('\n');
    expect(lines).toHaveLength(1_048_577); // the last line break ends row 1,048,576
    expect(lines[0]).toBe('Phone');
    expect(lines[1_048_575]).toBe('919876543210');
    expect(lines.slice(1, 1_048_575).every((l) => l === '')).toBe(true);
  });

  it("counts progress in the sheet's compressed bytes, up to all of them", async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => [919800000000 + i, `Name ${i}`]);
    const opened = await openSheet(
      bytesAccess(xlsxBytes({ sheets: [{ name: 'S', rows: [['Phone', 'Name'], ...rows] }] })),
      {},
      'first',
    );
    const base = { rows: 0, bytes: 0, totalBytes: null, rowsPerSecond: 0, etaSeconds: null };
    expect(opened.progress(base)).toMatchObject({ bytes: 0, totalBytes: opened.source.total });
    const seen: number[] = [];
    for await (const chunk of opened.source.open())
      if (chunk.length > 0) seen.push(opened.progress(base).bytes);
    const end = opened.progress(base);
    expect(opened.source.total).toBeGreaterThan(0);
    expect(end.bytes).toBe(opened.source.total);
    expect(end.etaSeconds).toBe(0);
    expect(seen.every((b, i) => i === 0 || b >= (seen[i - 1] as number))).toBe(true);
  });
});

describe('choosing the sheet', () => {
  const book: TestWorkbook = {
    sheets: [
      { name: 'Notes', rows: [['Text'], ['hello']] },
      { name: 'Old', hidden: true, rows: [['Mobile'], [9876543210]] },
      { name: 'Empty', rows: [] },
      {
        name: 'Leads',
        rows: [
          ['Name', 'Contact No'],
          ['Asha', 9876543210],
        ],
      },
    ],
  };

  it('overviews every sheet with its header and phone column', async () => {
    const sheets = await sheetOverview(await open(book));
    expect(sheets.map((s) => [s.number, s.name, s.hidden, s.header, s.phoneColumn])).toEqual([
      [1, 'Notes', false, ['Text'], null],
      [2, 'Old', true, ['Mobile'], 'Mobile'],
      [3, 'Empty', false, null, null],
      [4, 'Leads', false, ['Name', 'Contact No'], 'Contact No'],
    ]);
  });

  it('defaults to the first visible sheet with a phone column in the app, and to the first sheet in the CLI', async () => {
    const sheets = await sheetOverview(await open(book));
    expect(chooseSheet(sheets, {}, 'first-with-phone').name).toBe('Leads');
    const cli = refusal(() => chooseSheet(sheets, {}, 'first'));
    expect(cli.code).toBe('no_phone_column');
    expect(cli.message).toBe(
      `sheet 1 "Notes" has no phone column (headers: "Text"); the workbook's sheets: 1 "Notes", 2 "Old" (phone column "Mobile"), 3 "Empty" (empty), 4 "Leads" (phone column "Contact No")`,
    );
    // A named phone column is the engine's to check.
    expect(chooseSheet(sheets, { phoneColumn: 'Text' }, 'first').name).toBe('Notes');
  });

  it('takes a sheet by name, by name ignoring case, or by number; refuses an unknown or empty one naming the sheets', async () => {
    const sheets = await sheetOverview(await open(book));
    expect(chooseSheet(sheets, { sheet: 'Old' }, 'first').name).toBe('Old');
    expect(chooseSheet(sheets, { sheet: 'leads' }, 'first').name).toBe('Leads');
    expect(chooseSheet(sheets, { sheet: '4' }, 'first').name).toBe('Leads');
    const unknown = refusal(() => chooseSheet(sheets, { sheet: '9' }, 'first'));
    expect(unknown.code).toBe('bad_option');
    expect(unknown.message).toMatch(/^no sheet "9" in the workbook; its sheets: 1 "Notes", /);
    const empty = refusal(() => chooseSheet(sheets, { sheet: 'Empty' }, 'first'));
    expect(empty.code).toBe('empty_file');
    expect(empty.message).toMatch(/^sheet 3 "Empty" is empty; the workbook's sheets: /);
  });
});
