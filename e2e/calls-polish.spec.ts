import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';
import { SettingsPage } from './pages/SettingsPage.ts';

// Polish found on the walk of issue 24, in Chromium through the browser host (real back end):
// a screen-reader message never changes the page's layout, warnings are amber (not the error
// red) with AA contrast in both themes, a dialog drops a stale result when its input changes, and
// counts in the back end's messages are formatted.

/** Relative luminance (WCAG) of a computed CSS colour such as `rgb(19, 21, 25)`. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
};

/** `rows` valid Indian mobiles, two Delhi landlines, `invalid` numbers that cannot be valid, a formula cell. */
function contactsCsv(rows: number, invalid = 3): Buffer {
  const lines = ['Mobile Number,Name,Notes'];
  for (let i = 0; i < rows; i++) lines.push(`+9198${String(10_000_000 + i).slice(-8)},Person ${i},note ${i}`);
  lines.push('011 2345 6789,Office A,landline', '011 2345 6790,Office B,landline');
  for (let i = 0; i < invalid; i++) lines.push(`12${i},Broken ${i},too short`);
  lines.push('+919999912345,"=HYPERLINK(""x"")",formula');
  return Buffer.from(lines.join('\n'));
}

async function importContacts(page: Page, buffer: Buffer) {
  await page
    .getByLabel('Choose a CSV file')
    .setInputFiles({ name: 'walk.csv', mimeType: 'text/csv', buffer });
  await expect(page.getByTestId('summary')).toBeVisible({ timeout: 30_000 });
}

test.describe('issue 24 polish', () => {
  test.describe.configure({ timeout: 90_000 });

  test("a cell edit's screen-reader message adds no height: scrolled to the end, the window stays put and the sidebar on screen", async ({
    page,
    desk,
  }) => {
    const shell = new AppShell(page);
    await shell.open(desk.url);
    await importContacts(page, contactsCsv(600));
    const grid = page.getByRole('grid');

    // Edit the first row's name from the keyboard (the phone is the active cell at first): the
    // grid's live region says the row was checked again.
    await grid.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    const editor = grid.getByRole('textbox', { name: 'Name, row 2' });
    await expect(editor).toBeFocused();
    await editor.fill('Asha Edited');
    await editor.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Row 2 is now valid' })).toBeAttached();

    // Scroll the grid to its end, with the wheel (which goes on to the page at the end) and the keyboard.
    await grid.hover();
    for (let i = 0; i < 8; i++) await page.mouse.wheel(0, 4000);
    await grid.focus();
    await page.keyboard.press('Control+End');
    await expect(grid.locator('.grid-row[data-row="607"]')).toBeVisible();
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, 4000);

    const layout = await page.evaluate(() => {
      const sidebar = document.querySelector('.sidebar')!.getBoundingClientRect();
      const live = [...document.querySelectorAll('.live-region')].map((e) => e.getBoundingClientRect());
      return {
        scrollY: window.scrollY,
        documentHeight: document.scrollingElement!.scrollHeight,
        viewportHeight: window.innerHeight,
        sidebarTop: sidebar.top,
        sidebarBottom: sidebar.bottom,
        liveRegionHeights: live.map((r) => r.height),
      };
    });
    expect(layout.scrollY).toBe(0);
    expect(layout.documentHeight).toBeLessThanOrEqual(layout.viewportHeight);
    expect(layout.sidebarTop).toBe(0);
    expect(layout.sidebarBottom).toBeLessThanOrEqual(layout.viewportHeight);
    expect(layout.liveRegionHeights.length).toBeGreaterThanOrEqual(2); // the announcer's, the grid's
    for (const h of layout.liveRegionHeights) expect(h).toBeLessThanOrEqual(1);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`warnings are amber, not the error red, with AA contrast (${scheme} theme)`, async ({
      page,
      desk,
    }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await new AppShell(page).open(desk.url);
      await importContacts(page, contactsCsv(40));
      await expect(page.locator('[data-issue="phone_landline"]')).toHaveText('2');

      // The formula cell's row: its cell marked as a warning.
      await page.getByRole('combobox', { name: 'Show rows' }).selectOption('issue:formula_cell');
      await expect(page.getByTestId('grid-total')).toHaveText('1 row');
      const formulaCell = page.locator('.grid-cell.has-warning');
      await expect(formulaCell).toHaveCount(1);

      const c = await page.evaluate(() => {
        const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
        return {
          warningBar: style('.reason-list-warning .reason-bar > span').backgroundColor,
          errorBar: style('.reason-list:not(.reason-list-warning) .reason-bar > span').backgroundColor,
          track: style('.reason-list-warning .reason-bar').backgroundColor,
          panel: style('.summary').backgroundColor,
          warningIcon: style('.grid-cell.has-warning .cell-issue-icon').color,
          cell: style('.grid-scroll').backgroundColor,
        };
      });
      expect(c.warningBar).not.toBe(c.errorBar);
      expect(contrast(c.warningBar, c.track)).toBeGreaterThanOrEqual(3);
      expect(contrast(c.warningBar, c.panel)).toBeGreaterThanOrEqual(3);
      expect(c.warningIcon).toBe(c.warningBar);
      await test
        .info()
        .attach(`warnings-${scheme}`, { body: await page.screenshot(), contentType: 'image/png' });
    });
  }

  test('the Add workspace dialog drops a connection test result once the URL changes', async ({
    page,
    desk,
  }) => {
    const settings = new SettingsPage(page);
    await settings.shell.open(desk.url);
    await settings.open();
    await settings.addButton.click();
    const dialog = settings.addDialog();
    // Nothing listens on port 9 of this machine: the test fails at once, unreachable.
    await dialog.fill({ name: 'Unreachable', baseUrl: 'http://127.0.0.1:9/v0', apiKey: 'key-1234567890' });
    await dialog.testButton.click();
    await expect(dialog.testStatus).toContainText(/reach|refused|connect/i, { timeout: 30_000 });
    await dialog.baseUrl.fill('http://127.0.0.1:9/v0/');
    await expect(dialog.testStatus).toHaveCount(0);
    // The same after a key change.
    await dialog.testButton.click();
    await expect(dialog.testStatus).toContainText(/reach|refused|connect/i, { timeout: 30_000 });
    await dialog.apiKey.fill('key-0987654321');
    await expect(dialog.testStatus).toHaveCount(0);
  });

  test("the back end's counts in messages are formatted (Undo: Exclude 1,200 invalid rows)", async ({
    page,
    desk,
  }) => {
    await new AppShell(page).open(desk.url);
    await importContacts(page, contactsCsv(10, 1200));
    await expect(page.locator('[data-count="invalid"]')).toHaveText('1,200');
    await page.getByRole('button', { name: 'Exclude all invalid rows' }).click();
    await expect(page.getByRole('button', { name: 'Undo: Exclude 1,200 invalid rows' })).toBeVisible();
  });
});
