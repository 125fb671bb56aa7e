import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { cleanInMemory, createRowRules, csvCell } from '../shared/domain/contacts/index.ts';
import { splitRejectLines } from '../shared/ipc/channels/contacts.ts';
import { generateContacts } from '../shared/testing/contactsGenerator.ts';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';
import { nodeBinary, repoRoot } from './support/paths.ts';

// The Contacts page end to end in Chromium through the browser host (real back end, real SQLite):
// import the generator's messy 10k file, check the counts against the CLI's report for the same
// file, fix an invalid phone in the grid with the keyboard, exclude the other invalid rows, and
// download both files, which must be the CLI's files with exactly those changes.

/** Writes the project's generated messy file (shared/testing/contactsGenerator.ts). */
const writeGenerated = (file: string, rows: number, seed: number) =>
  writeFile(file, generateContacts({ rows, seed }).bytes);
/** A number no row of the seed-42 file has (checked below), so the fixed row is valid, not a duplicate. */
const FIXED_PHONE = '+91 99999 12345';
const FIXED_E164 = '+919999912345';

interface CliRun {
  upload: string;
  rejects: string;
  report: {
    rows: number;
    valid: number;
    invalid: number;
    duplicates: number;
    issues: Record<string, number>;
  };
}

function runCli(file: string, dir: string): Promise<CliRun> {
  const out = (name: string) => path.join(dir, name);
  execFileSync(
    nodeBinary(),
    [
      'electron/cli/main.ts',
      'clean',
      file,
      '--country',
      'IN',
      '--out',
      out('upload.csv'),
      '--rejects',
      out('rejects.csv'),
      '--report',
      out('report.json'),
      '--quiet',
    ],
    { cwd: repoRoot, stdio: 'pipe' },
  );
  return Promise.all([
    readFile(out('upload.csv'), 'utf8'),
    readFile(out('rejects.csv'), 'utf8'),
    readFile(out('report.json'), 'utf8'),
  ]).then(([upload, rejects, report]) => ({
    upload,
    rejects,
    report: JSON.parse(report) as CliRun['report'],
  }));
}

/** The Contacts page, as the operator sees it. */
class ContactsPage {
  readonly page: Page;
  readonly grid: Locator;
  readonly summary: Locator;
  constructor(page: Page) {
    this.page = page;
    this.grid = page.getByRole('grid');
    this.summary = page.getByTestId('summary');
  }
  count(name: 'valid' | 'invalid' | 'duplicate' | 'excluded' | 'upload' | 'rejects'): Locator {
    return this.page.locator(`[data-count="${name}"]`);
  }
  async expectCounts(
    counts: Partial<Record<'valid' | 'invalid' | 'duplicate' | 'excluded' | 'upload' | 'rejects', number>>,
  ) {
    for (const [name, n] of Object.entries(counts)) {
      await expect(this.count(name as 'valid')).toHaveText(n.toLocaleString('en-US'));
    }
  }
  async download(kind: 'upload' | 'rejects'): Promise<string> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByRole('button', { name: new RegExp(`Download ${kind} CSV`) }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`contacts-10k-${kind}.csv`);
    return readFile(await download.path(), 'utf8');
  }
}

test.describe('contacts', () => {
  test.describe.configure({ timeout: 90_000 });

  test('import the 10k messy file, fix a row, exclude the rest, and export what the CLI would', async ({
    page,
    desk,
  }) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-contacts-'));
    try {
      const file = path.join(dir, 'contacts-10k.csv');
      await writeGenerated(file, 10_000, 42);
      const cli = await runCli(file, dir);
      expect(cli.upload + cli.rejects).not.toContain('99999 12345');
      expect(cli.upload + cli.rejects).not.toContain(FIXED_E164);

      const shell = new AppShell(page);
      await shell.open(desk.url);
      await shell.goTo('Contacts');
      const contacts = new ContactsPage(page);
      await page.getByLabel('Choose a CSV file').setInputFiles(file);

      // The counts are the CLI's.
      await expect(contacts.summary).toBeVisible({ timeout: 30_000 });
      const { report } = cli;
      await contacts.expectCounts({
        valid: report.valid,
        invalid: report.invalid,
        duplicate: report.duplicates,
        excluded: 0,
        upload: report.valid,
        rejects: report.invalid + report.duplicates,
      });
      await expect(page.locator('[data-issue="phone_invalid"]')).toHaveText(
        report.issues.phone_invalid!.toLocaleString('en-US'),
      );
      await expect(page.getByRole('combobox', { name: 'Encoding' })).toHaveValue('utf-8');
      await expect(page.getByRole('combobox', { name: 'Delimiter' })).toHaveValue(',');
      await expect(page.getByRole('combobox', { name: 'Phone column' })).toHaveValue('Mobile Number');

      // Show the invalid phones; fix the first one from the keyboard (phone is the 3rd file column).
      await page.getByRole('combobox', { name: 'Show rows' }).selectOption('issue:phone_invalid');
      await expect(page.getByTestId('grid-total')).toHaveText(
        `${report.issues.phone_invalid!.toLocaleString('en-US')} rows`,
      );
      const firstRow = contacts.grid.locator('.grid-row[data-row]').first();
      await expect(firstRow).toContainText('phone invalid');
      const fixedRow = Number(await firstRow.getAttribute('data-row'));
      await contacts.grid.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      const editor = contacts.grid.getByRole('textbox', { name: `Mobile Number (phone), row ${fixedRow}` });
      await expect(editor).toBeFocused();
      await editor.press('Escape'); // cancels: nothing changes
      await expect(editor).toHaveCount(0);
      await contacts.expectCounts({ valid: report.valid, invalid: report.invalid });
      await page.keyboard.press('F2');
      await editor.fill(FIXED_PHONE);
      await editor.press('Enter');

      // Revalidated at once: one invalid row fewer, one valid more, and it leaves this filter.
      await contacts.expectCounts({
        valid: report.valid + 1,
        invalid: report.invalid - 1,
        duplicate: report.duplicates,
      });
      await expect(page.getByTestId('grid-total')).toHaveText(
        `${(report.issues.phone_invalid! - 1).toLocaleString('en-US')} rows`,
      );
      await expect(
        page.getByRole('status').filter({ hasText: `Row ${fixedRow} is now valid` }),
      ).toBeAttached();

      // Exclude every other invalid row.
      await page.getByRole('button', { name: 'Exclude all invalid rows' }).click();
      await contacts.expectCounts({
        excluded: report.invalid - 1,
        upload: report.valid + 1,
        rejects: report.duplicates,
      });
      await expect(
        page.getByRole('button', {
          name: `Undo: Exclude ${(report.invalid - 1).toLocaleString('en-US')} invalid rows`,
        }),
      ).toBeVisible();

      // The expected files, reasoned from the CLI's: the fixed row joins the upload file at its
      // place (its line as the engine writes it), leaves the rejects file, and the excluded
      // invalid rows leave the rejects file too. Duplicates stay.
      const engine = await cleanInMemory(await readFile(file), { country: 'IN' }, { includeCells: true });
      const block = engine.blocks.find((b) => b.rowNumbers.includes(fixedRow))!;
      const cells = [...block.cells![block.rowNumbers.indexOf(fixedRow)]!];
      cells[engine.setup.phoneIndex] = FIXED_PHONE;
      const fixedLine = createRowRules(engine.setup).uploadLine(FIXED_E164, cells);

      // Upload records may span lines (quoted line breaks): rebuild the CLI's file record by record
      // with the engine's writer, check that it is the CLI's, then put the fixed row in its place.
      const rules = createRowRules(engine.setup);
      const uploadHeader = cli.upload.slice(0, cli.upload.indexOf('\n') + 1);
      const records: Array<{ row: number; line: string }> = [];
      for (const b of engine.blocks) {
        b.rowNumbers.forEach((row, i) => {
          if (b.buckets[i] !== 0) return;
          const rowCells = b.cells![i]!;
          records.push({ row, line: rules.uploadLine(rules.check(rowCells).e164!, rowCells) });
        });
      }
      expect(uploadHeader + records.map((r) => r.line).join('')).toBe(cli.upload);
      const at = records.findIndex((r) => r.row > fixedRow);
      records.splice(at < 0 ? records.length : at, 0, { row: fixedRow, line: fixedLine });
      const expectedUpload = uploadHeader + records.map((r) => r.line).join('');

      const invalidRows = new Set(
        engine.blocks.flatMap((b) => [...b.rowNumbers].filter((_, i) => b.buckets[i] === 1)),
      );
      expect(invalidRows.has(fixedRow)).toBe(true);
      const rejectsHeader = cli.rejects.slice(0, cli.rejects.indexOf('\n') + 1);
      // Each rejects record is "<row>,<reasons>,<original cells>" (a quoted cell may span lines):
      // split them with the same function the import uses, keep the duplicates' records.
      const rejectedRows = engine.blocks.flatMap((b) =>
        [...b.rowNumbers].filter((_, i) => b.buckets[i] !== 0),
      );
      const rejectRecords = splitRejectLines(cli.rejects.slice(rejectsHeader.length), rejectedRows);
      let expectedRejects = rejectsHeader;
      rejectRecords.forEach(([reasons, tail], k) => {
        const row = rejectedRows[k]!;
        if (!invalidRows.has(row)) expectedRejects += `${row},${csvCell(reasons)},${tail}\n`;
      });
      expect(expectedRejects.match(/^\d+,duplicate:row \d+/gm)).toHaveLength(report.duplicates);

      expect(await contacts.download('upload')).toBe(expectedUpload);
      expect(await contacts.download('rejects')).toBe(expectedRejects);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('a saved list reopens from SQLite in a new page, a duplicate links to the row it repeats, and a deleted list comes back with Cancel', async ({
    page,
    desk,
  }) => {
    const csv = 'Name,Mobile Number,City\nAsha,9876543210,Pune\nRavi,12345,Delhi\nMeena,98765 43210,Goa\n';
    const shell = new AppShell(page);
    await shell.open(desk.url);
    await page
      .getByLabel('Choose a CSV file')
      .setInputFiles({ name: 'small.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const contacts = new ContactsPage(page);
    await contacts.expectCounts({ valid: 1, invalid: 1, duplicate: 1 });

    // A fresh page knows nothing: the list comes back from the back end's SQLite.
    await page.goto('about:blank');
    await shell.open(desk.url);
    await expect(page.getByRole('row').filter({ hasText: 'small.csv' })).toContainText('3');
    await page.getByRole('button', { name: 'Open small' }).click();
    await contacts.expectCounts({ valid: 1, invalid: 1, duplicate: 1 });
    const duplicateRow = contacts.grid.locator('.grid-row[data-row="4"]');
    await expect(duplicateRow).toContainText('Duplicate');
    await duplicateRow.getByRole('button', { name: 'of row 2' }).click();
    await expect(contacts.grid.locator('.grid-row.is-target')).toHaveAttribute('data-row', '2');

    // Deleted, the list leaves the table at once; Cancel on the progress bar (its window) brings it back.
    await page.getByRole('button', { name: 'All lists' }).click();
    await page.getByRole('button', { name: 'Delete small' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete list' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'small.csv' })).toHaveCount(0);
    const deleting = page.getByTestId('bulk-progress');
    await expect(deleting).toContainText('Delete small');
    await deleting.getByRole('button', { name: 'Cancel' }).click();
    await expect(deleting).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: 'small.csv' })).toContainText('3');
    await page.getByRole('button', { name: 'Open small' }).click();
    await contacts.expectCounts({ valid: 1, invalid: 1, duplicate: 1 });
  });

  test('changing the detected phone column or delimiter imports the file again with it', async ({
    page,
    desk,
  }) => {
    const csv = 'Name;Phone;Mobile\nAsha;9876543210;12345\nRavi;9123456789;98123 45678\nMeena;1;2\n';
    const shell = new AppShell(page);
    await shell.open(desk.url);
    await page
      .getByLabel('Choose a CSV file')
      .setInputFiles({ name: 'two-phones.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const contacts = new ContactsPage(page);
    // Detected: semicolons, and "Mobile" (preferred over "Phone").
    await contacts.expectCounts({ valid: 1, invalid: 2 });
    await expect(page.getByRole('combobox', { name: 'Delimiter' })).toHaveValue(';');
    await expect(page.getByRole('combobox', { name: 'Phone column' })).toHaveValue('Mobile');
    await page.getByRole('combobox', { name: 'Phone column' }).selectOption('Phone');
    await contacts.expectCounts({ valid: 2, invalid: 1 });
    await expect(page.getByRole('combobox', { name: 'Phone column' })).toHaveValue('Phone');
    // A wrong delimiter leaves one column and no phone column: the import says why.
    await page.getByRole('combobox', { name: 'Delimiter' }).selectOption(',');
    await expect(page.getByRole('alert')).toContainText('two-phones.csv');
    await page.getByRole('button', { name: 'Back to all lists' }).click();
    // The list of the last successful import stays (a re-import replaces it only once stored).
    await expect(page.getByRole('button', { name: /^Open / })).toHaveCount(1);
    await page.getByRole('button', { name: 'Open two-phones' }).click();
    await contacts.expectCounts({ valid: 2, invalid: 1 });
  });

  test("choosing a sandbox agent maps its prompt variables to the file's columns", async ({ page, desk }) => {
    const csv = 'Phone,Callee Name,Loan Amount,due_date,City,Notes\n9876543210,Asha,5000,2026-12-01,Pune,x\n';
    const shell = new AppShell(page);
    await shell.open(desk.url);
    await page
      .getByLabel('Choose a CSV file')
      .setInputFiles({ name: 'agent.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await new ContactsPage(page).expectCounts({ valid: 1 });
    const agent = page.getByRole('combobox', { name: 'Agent', exact: true });
    await expect(agent).toHaveValue('');
    await agent.selectOption({ label: 'Loan Repayment Reminder' });
    // Its variables (without mobile_number: the phone column covers it), matched by normalised name.
    await expect(page.getByRole('combobox', { name: 'Column for callee_name' })).toHaveValue('Callee Name');
    await expect(page.getByRole('combobox', { name: 'Column for loan_amount' })).toHaveValue('Loan Amount');
    await expect(page.getByRole('combobox', { name: 'Column for due_date' })).toHaveValue('due_date');
    await expect(page.getByRole('combobox', { name: 'Column for city' })).toHaveValue('City');
    await expect(page.getByRole('combobox', { name: 'Column for language' })).toHaveValue('');
    await expect(page.getByRole('combobox', { name: 'Column for mobile_number' })).toHaveCount(0);
    await expect(agent).toHaveValue(/.+/);
  });

  test('issue 11 in the app: a stray quote shown on its row, repeated headers warned, landline-only numbers filtered and excluded in one click', async ({
    page,
    desk,
  }) => {
    const good = Array.from(
      { length: 300 },
      (_, i) => `+9198${String(10_000_000 + i).slice(-8)},Person ${i},ok,x`,
    );
    const csv = [
      'Mobile Number,Name,Notes,Name',
      '+919876543210,Asha,"starts a quote and never ends,x',
      ...good,
      '(206) 555-0123,Ravi,US number typed without +1,x',
      '022 2345 6789,Office,Mumbai landline,x',
    ].join('\n');
    const shell = new AppShell(page);
    await shell.open(desk.url);
    await page
      .getByLabel('Choose a CSV file')
      .setInputFiles({ name: 'issue11.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const contacts = new ContactsPage(page);
    // Every row after the stray quote counts; the quote's row is invalid, landlines stay valid.
    await contacts.expectCounts({ valid: 302, invalid: 1, duplicate: 0, upload: 302 });
    await expect(page.locator('[data-issue="quote_unbalanced"]')).toHaveText('1');
    await expect(page.locator('[data-issue="phone_landline"]')).toHaveText('2');
    await expect(page.getByTestId('duplicate-columns')).toContainText('"Name" is columns 2 and 4');

    // The row is shown with its issue and the line where the quote opened.
    await page.getByRole('combobox', { name: 'Show rows' }).selectOption('issue:quote_unbalanced');
    await expect(page.getByTestId('grid-total')).toHaveText('1 row');
    const strayRow = contacts.grid.locator('.grid-row[data-row="2"]');
    await expect(strayRow).toContainText('quote never closed');
    await expect(strayRow).toContainText('"starts a quote and never ends');

    // Landline-only numbers: a filter of their own, and one click excludes them (Undo brings them back).
    await page.getByRole('button', { name: /^Landline only \(warning\)\s*2$/ }).click();
    await expect(page.getByTestId('grid-total')).toHaveText('2 rows');
    await page.getByRole('button', { name: 'Exclude landline-only numbers' }).click();
    await contacts.expectCounts({ excluded: 2, upload: 300, valid: 302 });
    await page.getByRole('button', { name: 'Undo: Exclude 2 landline-only numbers' }).click();
    await contacts.expectCounts({ excluded: 0, upload: 302 });
  });

  test('an import shows real progress and Cancel keeps nothing', async ({ page, desk }) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-contacts-'));
    try {
      const file = path.join(dir, 'contacts-300k.csv');
      await writeGenerated(file, 300_000, 7);
      const shell = new AppShell(page);
      await shell.open(desk.url);
      await page.getByLabel('Choose a CSV file').setInputFiles(file);
      const bar = page.getByRole('progressbar', { name: 'Import progress' });
      await expect(bar).toBeVisible();
      await expect(page.getByTestId('import-stats').filter({ hasText: 'rows saved' })).toContainText(
        /rows\/s/,
      );
      await expect
        .poll(async () => Number(await bar.getAttribute('value')), { timeout: 20_000 })
        .toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Cancel import' }).click();
      await expect(page.getByRole('heading', { name: 'Import cancelled' })).toBeVisible();
      await expect(page.getByText('Nothing from this file was kept.')).toBeVisible();
      await page.getByRole('button', { name: 'Back to all lists' }).click();
      await expect(page.getByText('No contact lists yet.')).toBeVisible();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
