import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { AppShell, pageNames } from './pages/AppShell.ts';
import { SettingsPage } from './pages/SettingsPage.ts';

const controlRoles = [
  'button',
  'link',
  'textbox',
  'combobox',
  'checkbox',
  'listbox',
  'radio',
  'switch',
  'slider',
] as const;

/**
 * Every control has an accessible name: for each role, the number of elements equals the number
 * with a non-empty name (computed by Playwright the way assistive tech does). The two counts are
 * taken one after the other, so a page still loading (a list arriving between them) is counted
 * again until they agree; a control that stays unnamed fails.
 */
async function expectNamedControls(page: Page, where: string) {
  let total = 0;
  for (const role of controlRoles) {
    let all = 0;
    await expect
      .poll(
        async () => {
          all = await page.getByRole(role).count();
          return all - (await page.getByRole(role, { name: /\S/ }).count());
        },
        { message: `${where}: ${role}(s) without an accessible name` },
      )
      .toBe(0);
    total += all;
  }
  expect(total, `${where}: no controls found at all`).toBeGreaterThan(5);
}

test('every control on every page and dialog has an accessible name', async ({ page, desk }) => {
  const shell = new AppShell(page);
  await shell.open(desk.url);
  for (const name of pageNames) {
    await shell.goTo(name);
    await expectNamedControls(page, name);
  }
  const settings = new SettingsPage(page);
  await settings.addButton.click();
  await expect(settings.addDialog().root).toBeVisible();
  await expectNamedControls(page, 'Add workspace dialog');
});

test('the landmarks and headings give the page a structure', async ({ page, desk }) => {
  await new AppShell(page).open(desk.url);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(1);
  await expect(page.getByRole('main')).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});
