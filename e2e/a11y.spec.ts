import type { Page } from '@playwright/test';
import { routes } from '../renderer/src/app/routes.ts';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';
import { SettingsPage } from './pages/SettingsPage.ts';
import { expectNoAxeViolations, importGeneratedList } from './support/a11y.ts';

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
    await page.keyboard.press('Escape');
    await expect(dialog, `${where}: Escape closes "${title}"`).toHaveCount(0);
    await expect(opener, `${where}: focus returns to "${name}"`).toBeFocused();
    checked.push(title);
  }
  return checked;
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no WCAG 2.1 AA violation on any page or dialog (${scheme} theme, 20k-row list loaded)`, async ({
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
      await expectNoAxeViolations(page, where);
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
      /^Delete contacts-20000/,
    ]) {
      const found = dialogs.some((d) => (typeof expected === 'string' ? d === expected : expected.test(d)));
      expect(found, `dialog ${expected} checked; checked: ${dialogs.join(', ')}`).toBe(true);
    }
  });
}
