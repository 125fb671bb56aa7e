import type { Page } from '@playwright/test';
import { routes } from '../renderer/src/app/routes.ts';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';
import { SettingsPage } from './pages/SettingsPage.ts';
import { expectNoAxeViolations, generatedList, importGeneratedList } from './support/a11y.ts';

// axe-core (WCAG 2.1 A and AA rules) over every page the app declares in routes.ts and every dialog
// reachable from it, in the light and the dark theme, with a generated 20k-row list imported (its
// grid, summary and issue chips on screen). A dialog is found by its opener: every button that
// opens one says so with aria-haspopup="dialog" (components/Dialog.tsx documents the convention).
// Campaigns and calls have no data to load yet: those pages are checked as they are.

async function goToRoute(page: Page, label: string) {
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });
  await link.click();
  await expect(link).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/** Opens every collapsed <details> of the page, so axe also sees what they hold. */
async function openAllDetails(page: Page) {
  const closed = page.locator('details:not([open]) > summary');
  while ((await closed.count()) > 0) await closed.first().click();
}

/**
 * WCAG 2.5.3, stricter than axe (which wants the visible text somewhere in the name): a control
 * whose name is set apart from its content must start with the text it shows.
 */
async function namesStartWithVisibleText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
    const problems: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(
      'button[aria-label], a[aria-label], summary[aria-label], [role="button"][aria-label], [role="link"][aria-label]',
    )) {
      const visible = norm(el.innerText);
      const name = norm(el.getAttribute('aria-label') ?? '');
      if (visible && !name.startsWith(visible))
        problems.push(`"${name}" does not start with "${visible}": ${el.outerHTML.slice(0, 160)}`);
    }
    return problems;
  });
}

/**
 * Opens each dialog the page offers (openers not checked before), checks it with axe, closes it
 * with Escape and checks that focus went back to the opener. Returns the dialogs' names.
 */
async function checkDialogs(page: Page, where: string, seen: Set<string>): Promise<string[]> {
  const checked: string[] = [];
  const openers = page.locator('[aria-haspopup="dialog"]:visible:enabled');
  const count = await openers.count();
  for (let i = 0; i < count; i++) {
    const opener = openers.nth(i);
    const name = (await opener.getAttribute('aria-label')) ?? (await opener.innerText()).trim();
    if (seen.has(name)) continue;
    seen.add(name);
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('dialog[open]');
    await expect(dialog, `${where}: "${name}" opens a dialog`).toBeVisible();
    await expect(dialog.locator(':focus'), `${where}: focus moves into "${name}"`).toHaveCount(1);
    const title = (await dialog.getByRole('heading').first().innerText()).trim();
    await expectNoAxeViolations(page, `${where}, dialog "${title}"`);
    expect(await namesStartWithVisibleText(page), `${where}, dialog "${title}"`).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog, `${where}: Escape closes "${title}"`).toHaveCount(0);
    await expect(opener, `${where}: focus returns to "${name}"`).toBeFocused();
    checked.push(title);
  }
  return checked;
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no WCAG 2.1 AA violation, and names start with their visible text, on any page or dialog (${scheme} theme, 20k-row list loaded)`, async ({
    page,
    desk,
  }) => {
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme: scheme });
    const shell = new AppShell(page);
    await shell.open(desk.url);
    // A second workspace (the built-in Sandbox can be neither edited nor removed), then the list.
    const settings = new SettingsPage(page);
    await settings.open();
    await settings.add({
      name: 'Second desk',
      baseUrl: 'http://127.0.0.1:9/v0',
      apiKey: 'a11y-key-123',
      sessionOnly: true,
    });
    await importGeneratedList(page, 20_000);
    // The grid shows rows with issue chips (variable missing among them) before axe looks.
    await expect(page.locator('.grid-row[data-row] .chip').first()).toBeVisible();

    const seen = new Set<string>();
    const dialogs: string[] = [];
    for (const route of routes) {
      await goToRoute(page, route.label);
      const where = `${route.label} (${scheme})`;
      await openAllDetails(page);
      await expectNoAxeViolations(page, where);
      expect(await namesStartWithVisibleText(page), where).toEqual([]);
      dialogs.push(...(await checkDialogs(page, where, seen)));
    }
    // The Contacts page's other view: the saved lists (with its Delete dialog).
    await goToRoute(page, 'Contacts');
    await page.getByRole('button', { name: 'All lists' }).click();
    await expect(page.getByRole('heading', { name: 'Saved lists' })).toBeVisible();
    await expectNoAxeViolations(page, `Contacts, saved lists (${scheme})`);
    dialogs.push(...(await checkDialogs(page, `Contacts, saved lists (${scheme})`, seen)));

    // The dialogs the app has today were all reached (new ones add to this, never replace it).
    for (const expected of [
      'Keyboard shortcuts',
      'Add workspace',
      'Edit Second desk',
      'Remove Second desk?',
      /^Delete gen-contacts-20000/,
    ]) {
      const found = dialogs.some((d) => (typeof expected === 'string' ? d === expected : expected.test(d)));
      expect(found, `dialog ${expected} checked; checked: ${dialogs.join(', ')}`).toBe(true);
    }
  });
}

test('the grid exposes its size and headers, the chart has its numbers as a table, and an issue says what is wrong where', async ({
  page,
  desk,
}) => {
  const csv =
    'Name,Mobile Number,Due Date\nAsha,9876543210,2026-01-05\nRavi,9123456789,\nMeena,12345,2026-02-01\n';
  await new AppShell(page).open(desk.url);
  await page.getByLabel('Prompt variables').fill('name, due_date');
  await page
    .getByLabel('Choose a CSV file')
    .setInputFiles({ name: 'issues.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('summary')).toBeVisible();

  // Row and column counts (header row included) and the column headers.
  const grid = page.getByRole('grid');
  await expect(grid).toHaveAttribute('aria-rowcount', '4');
  const headers = grid.getByRole('columnheader');
  await expect(grid).toHaveAttribute('aria-colcount', String(await headers.count()));
  await expect(headers).toHaveText(['Row', 'Status', 'E.164', 'Name', 'Mobile Number (phone)', 'Due Date']);

  // The summary chart's numbers as a table.
  await page.getByText('The figures as a table').click();
  const table = page.getByRole('table', { name: 'Rows of the list by outcome and by issue' });
  await expect(table.getByRole('row', { name: /^Valid 1 33\.3%$/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /^Invalid 2 66\.7%$/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /^Issue: Variable missing 1 33\.3%$/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /^All rows 3 100%$/ })).toBeVisible();

  // Ravi (row 3) misses due_date: the chip names the variable and the column; the empty cell is
  // marked with an icon, the word "missing" and a dashed frame, not by colour alone.
  const ravi = grid.locator('.grid-row[data-row="3"]');
  const chip = ravi.locator('.chip', { hasText: 'due_date missing' });
  await expect(chip).toHaveAttribute('title', 'Variable due_date is missing: column "Due Date" is empty');
  const cell = ravi.getByRole('gridcell', { name: 'missing (due_date missing)' });
  await expect(cell).toHaveClass(/has-issue/);
  await expect(cell.locator('svg')).toHaveCount(1);
  expect(await cell.evaluate((el) => getComputedStyle(el, '::after').borderStyle)).toBe('dashed');
  // Meena's (row 4) phone is invalid: the chip says so and names the column; the phone cell is marked.
  const meena = grid.locator('.grid-row[data-row="4"]');
  await expect(meena.locator('.chip', { hasText: 'phone invalid' })).toHaveAttribute(
    'title',
    'Phone invalid in column "Mobile Number"',
  );
  await expect(meena.getByRole('gridcell', { name: '12345 (Phone invalid)' })).toHaveClass(/has-issue/);
});

test('axe finds no violation on the import progress view and the cancelled view (light and dark)', async ({
  page,
  desk,
}) => {
  test.setTimeout(120_000);
  const file = generatedList(300_000, 7);
  await new AppShell(page).open(desk.url);
  await page.getByLabel('Choose a CSV file').setInputFiles(file);
  const bar = page.getByRole('progressbar', { name: 'Import progress' });
  await expect(bar).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoAxeViolations(page, `import progress (${scheme})`);
  }
  // Still importing: axe looked at the progress view, not at what came after it.
  await expect(bar).toBeVisible();
  await page.getByRole('button', { name: 'Cancel import' }).click();
  await expect(page.getByRole('heading', { name: 'Import cancelled' })).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoAxeViolations(page, `import cancelled (${scheme})`);
  }
});
