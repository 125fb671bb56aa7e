import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { routes } from '../renderer/src/app/routes.ts';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';
import { generatedList } from './support/a11y.ts';

// The keyboard alone: import → fix → export with Tab, Enter, arrows and typing (the OS file
// picker is the one thing outside the page; Playwright answers it), focus always visible and
// never lost; the shortcuts help ("?" and its button); Alt+digit page shortcuts.

/** A number no row of the seed-42 files has, so the fixed row becomes valid. */
const FIXED_PHONE = '+91 99999 12345';
const FIXED_E164 = '+919999912345';

/** The focused element shows a focus indicator (an outline, or the grid's active-cell outline). */
async function expectVisibleFocus(page: Page, what: string) {
  const indicator = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'focus is on <body>';
    const target = el.getAttribute('aria-activedescendant')
      ? document.getElementById(el.getAttribute('aria-activedescendant')!)
      : el;
    const style = getComputedStyle(target ?? el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return outline ? 'ok' : `no visible focus on <${el.tagName.toLowerCase()} class="${el.className}">`;
  });
  expect(indicator, what).toBe('ok');
}

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) {
      await expectVisibleFocus(page, `focus on ${target}`);
      return;
    }
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${max} presses of ${back ? 'Shift+Tab' : 'Tab'} never reached ${target}`);
}

test('keyboard only: import a 10k list, fix a phone in the grid, exclude the rest, export', async ({
  page,
  desk,
}) => {
  test.setTimeout(120_000);
  const file = generatedList(10_000, 42);
  const shell = new AppShell(page);
  await shell.open(desk.url);

  // Skip link first, then into the page.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await expectVisibleFocus(page, 'skip link');
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();

  await tabTo(page, page.getByLabel('Prompt variables'));
  await page.keyboard.type('name, loan_amount, due_date');
  await tabTo(page, page.getByRole('button', { name: 'Choose a CSV or Excel file…' }));
  // Record what the live region says during the import (each message once).
  await page.evaluate(() => {
    const region = document.querySelector('[data-testid="announcer-polite"]')!;
    const said: string[] = [];
    (window as unknown as { said: string[] }).said = said;
    new MutationObserver(() => {
      const text = region.textContent ?? '';
      if (text && said.at(-1) !== text) said.push(text);
    }).observe(region, { childList: true, subtree: true, characterData: true });
  });
  const startedAt = Date.now();
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(file);

  // The end is announced, and focus lands on the list (not lost on <body>).
  await expect(page.getByTestId('announcer-polite')).toContainText(
    'Import of gen-contacts-10000-42.csv finished: 10,000 rows',
    { timeout: 60_000 },
  );
  await expect(page.getByRole('heading', { level: 2, name: 'gen-contacts-10000-42' })).toBeFocused();
  // Progress was said at a calm rate: at most one message per 10% or per 10 s, then the end.
  const said = await page.evaluate(() => (window as unknown as { said: string[] }).said);
  const progress = said.filter((s) => s.startsWith('Importing gen-contacts-10000-42.csv: '));
  expect(progress.length, said.join('\n')).toBeGreaterThan(0);
  expect(progress.length, said.join('\n')).toBeLessThanOrEqual(
    11 + Math.ceil((Date.now() - startedAt) / 10_000),
  );
  expect(said.at(-1)).toMatch(/^Import of gen-contacts-10000-42\.csv finished: 10,000 rows/);
  const valid = Number((await page.locator('[data-count="valid"]').innerText()).replace(/,/g, ''));
  const invalid = Number((await page.locator('[data-count="invalid"]').innerText()).replace(/,/g, ''));

  // Show the invalid phones with the summary's figure (its name starts with what it shows).
  const phoneInvalid = page.getByRole('button', { name: /^Phone invalid \d/ });
  await tabTo(page, phoneInvalid);
  await page.keyboard.press('Enter');
  await expect(phoneInvalid).toHaveAttribute('aria-pressed', 'true');

  // Into the grid: the active cell is marked; move to the phone column and edit it.
  const grid = page.getByRole('grid');
  await tabTo(page, grid);
  const firstRow = grid.locator('.grid-row[data-row]').first();
  await expect(firstRow).toContainText('phone invalid');
  const fixedRow = Number(await firstRow.getAttribute('data-row'));
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expectVisibleFocus(page, 'active grid cell');
  await page.keyboard.press('Enter');
  const editor = grid.getByRole('textbox', { name: `Mobile Number (phone), row ${fixedRow}` });
  await expect(editor).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(FIXED_PHONE);
  await page.keyboard.press('Enter');
  await expect(grid).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: `Row ${fixedRow} is now valid` })).toBeAttached();
  await expect(page.locator('[data-count="valid"]')).toHaveText((valid + 1).toLocaleString('en-US'));

  // Back up to the fixes: exclude every other invalid row.
  await tabTo(page, page.getByRole('button', { name: 'Exclude all invalid rows' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-count="excluded"]')).toHaveText((invalid - 1).toLocaleString('en-US'));

  // Export the upload file.
  await tabTo(page, page.getByRole('button', { name: /^Download upload CSV/ }));
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const upload = await readFile(await (await download).path(), 'utf8');
  expect(upload.split('\n').filter((line) => line.startsWith(FIXED_E164))).toHaveLength(1);
  expect(upload.trimEnd().split('\n')).toHaveLength(1 + valid + 1);
});

test('"?" and the sidebar button show the keyboard shortcuts; Escape closes and focus returns', async ({
  page,
  desk,
}) => {
  const shell = new AppShell(page);
  await shell.open(desk.url);
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });

  // A "?" typed in a text field is text.
  const variables = page.getByLabel('Prompt variables');
  await variables.focus();
  await page.keyboard.type('?');
  await expect(variables).toHaveValue(/\?$/);
  await expect(help).toHaveCount(0);

  // Elsewhere it opens the help; focus moves in; every page's shortcut is listed; Escape closes.
  const choose = page.getByRole('button', { name: 'Choose a CSV or Excel file…' });
  await choose.focus();
  await page.keyboard.press('?');
  await expect(help).toBeVisible();
  await expect(help.locator(':focus')).toHaveCount(1);
  for (const [i, route] of routes.entries())
    await expect(help.getByRole('row', { name: `Alt + ${i + 1} Go to ${route.label}` })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
  await expect(choose).toBeFocused();

  // The sidebar's button, from the keyboard.
  const button = page.getByRole('button', { name: 'Keyboard shortcuts' });
  await tabTo(page, button, { back: true });
  await page.keyboard.press('Enter');
  await expect(help).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(button).toBeFocused();

  // Alt+1… go to the pages in the order of the navigation.
  for (const [i, route] of [...routes.entries()].reverse()) {
    await page.keyboard.press(`Alt+${i + 1}`);
    await expect(shell.nav.getByRole('link', { name: route.label, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
  }
});

test('with reduced motion asked for, nothing animates', async ({ page, desk }) => {
  await new AppShell(page).open(desk.url);
  // The app's spinner class (busy buttons) on a real element of the page.
  const animation = () =>
    page.evaluate(() => {
      const probe = document.createElement('span');
      probe.className = 'spin';
      document.querySelector('main')!.append(probe);
      const name = getComputedStyle(probe).animationName;
      probe.remove();
      return name;
    });
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await animation()).toBe('spin');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await animation()).toBe('none');
});
