// `campaign-desk clean` on Excel workbooks, as a child process: the sheet (--sheet name or number),
// exit codes, one-line errors that name the sheets, the report's sheet, cell texts as Excel shows
// them, and a generated 30k-row workbook whose files equal those of the same rows as a CSV.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeContactsCsv, writeContactsWorkbook } from '../../bench/lib/contactsWorkbook.ts';
import { cleanReportSchema } from '../../shared/domain/contacts/index.ts';
import { xlsxBytes } from '../../shared/testing/xlsxWriter.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'electron', 'cli', 'main.ts');
let dir = '';
let book = '';

const run = (args: string[]) => {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const outDir = (name: string): string => {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  return d;
};
const clean = (file: string, d: string, extra: string[] = []) =>
  run([
    'clean',
    file,
    '--country',
    'IN',
    ...extra,
    '--out',
    join(d, 'upload.csv'),
    '--rejects',
    join(d, 'rejects.csv'),
    '--report',
    join(d, 'report.json'),
  ]);
const oneLine = (stderr: string): string => {
  const lines = stderr.split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
  return lines[0] as string;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-xlsx-'));
  book = join(dir, 'book.xlsx');
  writeFileSync(
    book,
    xlsxBytes({
      sheets: [
        {
          name: 'Summary',
          rows: [
            ['Report', 'Contacts export'],
            ['Rows', 5],
          ],
        },
        {
          name: 'Contacts',
          rows: [
            ['Mobile Number', 'Name', 'Due Date', 'Loan Amount', 'EMI', 'Active'],
            [
              919876543210,
              'Asha',
              { serial: 45658, style: 'date' },
              150000,
              { formula: 'D2/12', value: 12500 },
              true,
            ],
            [
              { raw: '9.19123456789E+11' },
              { inline: 'Ravi, "R"' },
              { serial: 45700, style: 'isoDate' },
              1234.5,
              0.1 + 0.2,
              false,
            ],
            { row: 6, cells: [919876543210, 'Meena', { serial: 45658, style: 'date' }, 10, 1, true] },
            [9811122233, '=SUM(A1)', null, { raw: '42.0' }, { formula: 'A1', value: 'text result' }],
            ['12345', 'Kiran'],
          ],
        },
      ],
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('campaign-desk clean <workbook.xlsx>', () => {
  it('without --sheet, a first sheet with no phone column exits 1 with one line naming the sheets, and writes nothing', () => {
    const d = outDir('first-sheet');
    const r = clean(book, d);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toBe(
      `campaign-desk: ${book}: sheet 1 "Summary" has no phone column (headers: "Report", "Contacts export"); the workbook's sheets: 1 "Summary", 2 "Contacts" (phone column "Mobile Number"); choose one with --sheet <name|number>`,
    );
    expect(readdirSync(d)).toEqual([]);
  });

  it('--sheet by name or number cleans that sheet: digits, ISO dates, cached formula values, sheet row numbers, sheet in the report', () => {
    for (const sheet of ['Contacts', '2', 'contacts']) {
      const d = outDir(`sheet-${sheet}`);
      const r = clean(book, d, ['--sheet', sheet]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('read sheet "Contacts", phone column "Mobile Number"');
      expect(readFileSync(join(d, 'upload.csv'), 'utf8')).toBe(
        [
          'Mobile Number,Name,Due Date,Loan Amount,EMI,Active',
          '+919876543210,Asha,2025-01-01,150000,12500,TRUE',
          '+919123456789,"Ravi, ""R""",2025-02-12,1234.5,0.3,FALSE',
          // A text cell "=SUM(A1)" is a formula cell (issue 22): uploaded without its "=".
          '+919811122233,SUM(A1),,42,text result,',
          '',
        ].join('\n'),
      );
      // Rows 4 and 5 are empty in the sheet: the duplicate is row 6 and the bad number row 8.
      expect(readFileSync(join(d, 'rejects.csv'), 'utf8')).toBe(
        [
          'Row,Reasons,Mobile Number,Name,Due Date,Loan Amount,EMI,Active',
          '6,duplicate:row 2,919876543210,Meena,2025-01-01,10,1,TRUE',
          '8,phone_invalid,12345,Kiran,,,,',
          '',
        ].join('\n'),
      );
      const report = cleanReportSchema.parse(JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')));
      expect(report).toMatchObject({
        sheet: 'Contacts',
        rows: 5,
        valid: 3,
        invalid: 1,
        duplicates: 1,
        blank_rows: 2,
      });
    }
  });

  it('an unknown --sheet exits 2 with one line naming the sheets', () => {
    const d = outDir('unknown-sheet');
    const r = clean(book, d, ['--sheet', 'Leads']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toBe(
      `campaign-desk: no sheet "Leads" in the workbook; its sheets: 1 "Summary", 2 "Contacts" (phone column "Mobile Number"); choose one with --sheet <name|number>`,
    );
    expect(readdirSync(d)).toEqual([]);
  });

  it('refuses --sheet for a CSV and --encoding for a workbook (exit 2), and a damaged workbook (exit 1), in one line', () => {
    const csv = join(dir, 'plain.csv');
    writeFileSync(csv, 'Mobile Number\n9876543210\n');
    const sheetOnCsv = clean(csv, outDir('sheet-csv'), ['--sheet', '1']);
    expect(sheetOnCsv.code).toBe(2);
    expect(oneLine(sheetOnCsv.stderr)).toBe(
      'campaign-desk: a sheet can only be chosen for an Excel workbook (.xlsx)',
    );
    const encoding = clean(book, outDir('encoding'), ['--sheet', '2', '--encoding', 'utf-8']);
    expect(encoding.code).toBe(2);
    expect(oneLine(encoding.stderr)).toContain('only applies to CSV files');
    const cut = join(dir, 'cut.xlsx');
    const bytes = readFileSync(book);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const damaged = clean(cut, outDir('damaged'));
    expect(damaged.code).toBe(1);
    expect(oneLine(damaged.stderr)).toMatch(
      new RegExp(`^campaign-desk: ${cut}: not a readable Excel workbook: `),
    );
  });

  it('a generated 30k-row workbook gives the same upload and rejects files as the same rows as a CSV', () => {
    const rows = 30_000;
    const xlsx = join(dir, 'big.xlsx');
    const csv = join(dir, 'big.csv');
    writeContactsWorkbook(xlsx, rows, 7);
    writeContactsCsv(csv, rows, 7);
    const a = outDir('big-xlsx');
    const b = outDir('big-csv');
    expect(clean(xlsx, a, ['--sheet', 'Contacts']).code).toBe(0);
    expect(clean(csv, b).code).toBe(0);
    for (const file of ['upload.csv', 'rejects.csv'])
      expect(readFileSync(join(a, file)).equals(readFileSync(join(b, file))), file).toBe(true);
    const report = cleanReportSchema.parse(JSON.parse(readFileSync(join(a, 'report.json'), 'utf8')));
    expect(report.rows).toBe(rows);
    expect(report.sheet).toBe('Contacts');
    expect(report.valid).toBeGreaterThan(rows * 0.9);
    expect(report.duplicates + report.invalid).toBeGreaterThan(0);
  });
});
