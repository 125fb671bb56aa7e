import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { xlsxBytes } from '../shared/testing/xlsxWriter.ts';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';
import { nodeBinary, repoRoot } from './support/paths.ts';

// An Excel workbook imported through the UI: the coordinator worker reads the .xlsx File itself
// (shared/domain/xlsx in a Web Worker), the sheet picker defaults to the first sheet with a phone
// column, choosing another sheet imports that one, and the counts and the upload file are the CLI's
// for the same sheet.

const WORKBOOK = xlsxBytes({
  sheets: [
    {
      name: 'Summary',
      rows: [
        ['Report', 'Contacts'],
        ['Rows', 4],
      ],
    },
    {
      name: 'Contacts',
      rows: [
        ['Name', 'Mobile Number', 'Due Date', 'EMI'],
        ['Asha', 919876543210, { serial: 45658, style: 'date' }, { formula: 'ROUND(1500/12,2)', value: 125 }],
        [{ inline: 'Ravi' }, { raw: '9.19123456789E+11' }, { serial: 45700, style: 'isoDate' }, 12.5],
        { row: 5, cells: ['Meena', 919876543210, { serial: 45658, style: 'date' }, 3] },
        ['Kiran', 12345, null, 4],
      ],
    },
    {
      name: 'Backup',
      rows: [
        ['Phone', 'Name'],
        [9811122233, 'Dev'],
        [9811122234, 'Lata'],
      ],
    },
  ],
});

interface CliReport {
  rows: number;
  valid: number;
  invalid: number;
  duplicates: number;
  sheet: string;
}

function runCli(file: string, dir: string, sheet: string): { upload: string; report: CliReport } {
  const out = (name: string) => path.join(dir, `${sheet}-${name}`);
  execFileSync(
    nodeBinary(),
    [
      'electron/cli/main.ts',
      'clean',
      file,
      '--country',
      'IN',
      '--sheet',
      sheet,
      '--quiet',
      ...['--out', out('upload.csv'), '--rejects', out('rejects.csv'), '--report', out('report.json')],
    ],
    { cwd: repoRoot, stdio: 'pipe' },
  );
  return {
    upload: readFileSync(out('upload.csv'), 'utf8'),
    report: JSON.parse(readFileSync(out('report.json'), 'utf8')) as CliReport,
  };
}

const count = (page: Page, name: string) => page.locator(`[data-count="${name}"]`);

async function expectCounts(page: Page, report: CliReport): Promise<void> {
  await expect(count(page, 'valid')).toHaveText(report.valid.toLocaleString('en-US'));
  await expect(count(page, 'invalid')).toHaveText(report.invalid.toLocaleString('en-US'));
  await expect(count(page, 'duplicate')).toHaveText(report.duplicates.toLocaleString('en-US'));
}

async function downloadUpload(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: /Download upload CSV/ }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('contacts-book-upload.csv');
  return readFile(await download.path(), 'utf8');
}

test.describe('contacts: Excel workbooks', () => {
  test.describe.configure({ timeout: 90_000 });

  test('an .xlsx imports through the UI with the sheet picker, and matches the CLI sheet by sheet', async ({
    page,
    desk,
  }) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-xlsx-'));
    try {
      const file = path.join(dir, 'contacts-book.xlsx');
      await writeFile(file, WORKBOOK);
      const contactsCli = runCli(file, dir, 'Contacts');
      const backupCli = runCli(file, dir, 'Backup');
      expect(contactsCli.report).toMatchObject({
        sheet: 'Contacts',
        rows: 4,
        valid: 2,
        invalid: 1,
        duplicates: 1,
      });
      expect(backupCli.report).toMatchObject({ sheet: 'Backup', rows: 2, valid: 2 });

      const shell = new AppShell(page);
      await shell.open(desk.url);
      await shell.goTo('Contacts');
      await page.getByLabel('Choose a CSV file or Excel workbook').setInputFiles(file);

      // The first sheet has no phone column: the picker took the first sheet that has one.
      const sheet = page.getByRole('combobox', { name: 'Sheet' });
      await expect(sheet).toHaveValue('Contacts');
      await expect(sheet.locator('option')).toHaveText(['Summary (no phone column)', 'Contacts', 'Backup']);
      await expect(page.getByRole('combobox', { name: 'Encoding' })).toHaveCount(0);
      await expect(page.getByRole('combobox', { name: 'Phone column' })).toHaveValue('Mobile Number');
      await expectCounts(page, contactsCli.report);
      // Numbers are their digits, dates ISO dates, formulas their cached values; row numbers are the sheet's.
      const grid = page.getByRole('grid');
      await expect(grid.locator('.grid-row[data-row="2"]')).toContainText('2025-01-01');
      await expect(grid.locator('.grid-row[data-row="2"]')).toContainText('919876543210');
      await expect(grid.locator('.grid-row[data-row="3"]')).toContainText('919123456789');
      await expect(grid.locator('.grid-row[data-row="3"]')).toContainText('2025-02-12');
      await expect(grid.locator('.grid-row[data-row="2"]')).toContainText('125');
      await expect(grid.locator('.grid-row[data-row="5"]')).toContainText('Duplicate');
      expect(await downloadUpload(page)).toBe(contactsCli.upload);

      // Another sheet: imported again from that sheet.
      await sheet.selectOption('Backup');
      await expect(page.getByRole('combobox', { name: 'Sheet' })).toHaveValue('Backup');
      await expect(page.getByRole('combobox', { name: 'Phone column' })).toHaveValue('Phone');
      await expectCounts(page, backupCli.report);
      expect(await downloadUpload(page)).toBe(backupCli.upload);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
