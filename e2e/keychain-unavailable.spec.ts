import { expect, test } from './fixtures.ts';
import { SettingsPage } from './pages/SettingsPage.ts';

// The host gets a D-Bus address that leads nowhere, so there is no Secret Service: the app must say
// so plainly and keep keys only with the operator's consent, in memory.
test.use({
  deskOptions: {
    env: {
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/campaign-desk-e2e',
      DESK_KEYRING_READY: undefined,
    },
  },
});

test('without a keychain the app warns and keeps keys for this session only, with consent', async ({
  page,
  desk,
}) => {
  const settings = new SettingsPage(page);
  await settings.shell.open(desk.url);
  const info = await page.evaluate(() => window.desk!.app.info());
  expect(info.ok && info.value.keychain.available).toBe(false);
  const message = info.ok ? (info.value.keychain.message ?? '') : '';
  expect(message.length).toBeGreaterThan(0);

  await settings.open();
  await expect(settings.keychainWarning).toContainText(message);

  await settings.addButton.click();
  const dialog = settings.addDialog();
  await expect(dialog.root.getByRole('note')).toContainText(message);
  await dialog.fill({ name: 'Memory only', baseUrl: 'http://127.0.0.1:9/v0', apiKey: 'session-key-1' });
  await dialog.root.getByRole('button', { name: 'Add workspace' }).click();
  await expect(dialog.error(/Tick this box/)).toBeVisible();
  await expect(dialog.sessionOnly).toBeFocused();
  await dialog.sessionOnly.check();
  await dialog.root.getByRole('button', { name: 'Add workspace' }).click();
  await expect(dialog.root).toBeHidden();
  await expect(settings.row('Memory only')).toContainText('API key kept for this session only');
});
