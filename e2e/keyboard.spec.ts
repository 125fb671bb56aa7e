import { expect, test } from './fixtures.ts';
import { AppShell, pageNames } from './pages/AppShell.ts';
import { SettingsPage } from './pages/SettingsPage.ts';

test.describe('keyboard', () => {
  test('skip link, navigation and page focus work from the keyboard alone', async ({ page, desk }) => {
    const shell = new AppShell(page);
    await shell.open(desk.url);

    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main#main')).toBeFocused();

    // From the top: the workspace switcher, then the five links in order.
    // (Focusing the skip link again: the Contacts page now has controls of its own after main.)
    await skip.focus();
    await page.keyboard.press('Tab');
    await expect(shell.workspaceSwitcher).toBeFocused();
    for (const name of pageNames) {
      await page.keyboard.press('Tab');
      await expect(shell.link(name)).toBeFocused();
    }
    // Enter follows the focused link (Settings); the new page's title takes focus.
    await page.keyboard.press('Enter');
    await expect(shell.link('Settings')).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeFocused();
  });

  test('the workspace dialog: focus moves in, Enter submits, Escape closes, focus returns', async ({
    page,
    desk,
  }) => {
    const settings = new SettingsPage(page);
    await settings.shell.open(desk.url);
    await settings.open();
    const keychain = await page.evaluate(() => window.desk!.app.info());
    const keychainAvailable = keychain.ok && keychain.value.keychain.available;

    // Open with the keyboard; Escape closes without saving and focus goes back to the button.
    await settings.addButton.focus();
    await page.keyboard.press('Enter');
    const dialog = settings.addDialog();
    await expect(dialog.root).toBeVisible();
    await expect(dialog.name).toBeFocused();
    await page.keyboard.type('Never saved');
    await page.keyboard.press('Escape');
    await expect(dialog.root).toBeHidden();
    await expect(settings.addButton).toBeFocused();
    await expect(settings.row('Never saved')).toHaveCount(0);

    // Enter on an empty form shows inline errors and focuses the first one.
    await page.keyboard.press('Enter');
    await expect(dialog.name).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog.error('Name is required')).toBeVisible();
    await expect(dialog.error('API key is required')).toBeVisible();
    await expect(dialog.name).toBeFocused();
    await expect(dialog.name).toHaveAttribute('aria-invalid', 'true');

    // Type the form with Tab between fields, submit with Enter.
    await page.keyboard.type('Keyboard workspace');
    await page.keyboard.press('Tab');
    await page.keyboard.type('http://127.0.0.1:9/v0');
    await page.keyboard.press('Tab');
    await expect(dialog.apiKey).toBeFocused();
    await page.keyboard.type('kb-key-123');
    if (!keychainAvailable) await dialog.sessionOnly.check();
    await dialog.apiKey.focus();
    await page.keyboard.press('Enter');
    await expect(dialog.root).toBeHidden();
    await expect(settings.row('Keyboard workspace')).toBeVisible();
    await expect(settings.addButton).toBeFocused();

    // Remove asks first; the safe choice has focus, and Escape keeps the workspace.
    const removeButton = settings
      .row('Keyboard workspace')
      .getByRole('button', { name: 'Remove Keyboard workspace' });
    await removeButton.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog', { name: 'Remove Keyboard workspace?' });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(settings.row('Keyboard workspace')).toBeVisible();
    await expect(removeButton).toBeFocused();

    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(confirm.getByRole('button', { name: 'Remove workspace' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(confirm).toBeHidden();
    await expect(settings.row('Keyboard workspace')).toHaveCount(0);
  });

  test('the workspace switcher changes the active workspace from the keyboard', async ({ page, desk }) => {
    const settings = new SettingsPage(page);
    await settings.shell.open(desk.url);
    await settings.open();
    const keychain = await page.evaluate(() => window.desk!.app.info());
    await settings.add({
      name: 'Second',
      baseUrl: 'http://127.0.0.1:9/v0',
      apiKey: 'second-key',
      sessionOnly: !(keychain.ok && keychain.value.keychain.available),
    });
    const switcher = settings.shell.workspaceSwitcher;
    await switcher.focus();
    await page.keyboard.press('ArrowDown');
    await expect(switcher.locator('option:checked')).toHaveText('Second');
    await expect(settings.row('Second').getByText('Active', { exact: true })).toBeVisible();
    const active = await page.evaluate(() => window.desk!.workspaces.list());
    expect(active.ok && active.value.workspaces.find((w) => w.id === active.value.activeId)?.name).toBe(
      'Second',
    );
  });
});
