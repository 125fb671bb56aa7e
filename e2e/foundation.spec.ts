import type { Page } from '@playwright/test';
import { workspaceInfoResponseSchema } from '../shared/service/workspace.ts';
import { expect, test } from './fixtures.ts';
import { AppShell, pageNames } from './pages/AppShell.ts';
import { SettingsPage } from './pages/SettingsPage.ts';
import { filesContaining, listFiles, rendererSurfaces } from './support/leaks.ts';

async function keychainStatus(page: Page) {
  const info = await page.evaluate(() => window.desk!.app.info());
  if (!info.ok) throw new Error(`app:info failed: ${info.error.message}`);
  return info.value.keychain;
}

test.describe('foundation', () => {
  test('keys go to the real OS keychain when the suite runs with one', async ({ page, desk }) => {
    // scripts/with-keyring.sh (npm run test:e2e) provides a Secret Service; CI must have it.
    test.skip(
      process.env.DESK_KEYRING_READY !== '1' && !process.env.CI,
      'no Secret Service here: run through npm run test:e2e',
    );
    await new AppShell(page).open(desk.url);
    expect(await keychainStatus(page)).toEqual({ available: true });
    const settings = new SettingsPage(page);
    await settings.open();
    await expect(settings.keychainWarning).toHaveCount(0);
    await expect(settings.row('Sandbox')).toContainText('API key in the OS keychain');
  });

  test('the app reaches ready with the built-in Sandbox as the default workspace', async ({ page, desk }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const shell = new AppShell(page);
    await shell.open(desk.url);

    // The token is taken out of the address bar and kept in memory only.
    expect(page.url()).not.toContain(desk.token);
    expect(page.url()).not.toContain('token=');

    const options = shell.workspaceSwitcher.getByRole('option');
    await expect(options.first()).toHaveText(/^Sandbox/);
    await expect(shell.workspaceSwitcher.locator('option:checked')).toHaveText(/^Sandbox/);
    // The embedded sandbox runs on this computer, so the app is online even without a network.
    await expect(shell.connectivity).toContainText('Online');
    // No script errors and no Content-Security-Policy violations (they are reported on the console).
    expect(problems).toEqual([]);
  });

  test('the five navigation links exist and each opens its page', async ({ page, desk }) => {
    const shell = new AppShell(page);
    await shell.open(desk.url);
    await expect(shell.nav.getByRole('link')).toHaveText([...pageNames]);
    for (const name of pageNames) {
      await shell.goTo(name);
      for (const other of pageNames.filter((n) => n !== name)) {
        await expect(shell.link(other)).not.toHaveAttribute('aria-current', 'page');
      }
      // Every section is built: none says "Not available yet" any more.
      await expect(page.getByRole('heading', { name: 'Not available yet' })).toHaveCount(0);
    }
  });

  test('a wrong key shows Invalid credentials, the right key connects, and the key leaks nowhere', async ({
    page,
    desk,
    sandbox,
  }) => {
    const settings = new SettingsPage(page);
    const frames: string[] = [];
    page.on('websocket', (socket) => {
      socket.on('framereceived', (frame) =>
        frames.push(typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('utf8')),
      );
    });
    await settings.shell.open(desk.url);
    await settings.open();

    const name = `E2E workspace ${Date.now()}`;
    const wrongKey = `wrong-${sandbox.apiKey.slice(-8)}-x`;
    const keychain = await keychainStatus(page);
    await settings.add({
      name,
      baseUrl: sandbox.baseUrl,
      apiKey: wrongKey,
      sessionOnly: !keychain.available,
    });
    await settings.test(name);
    await expect(settings.testStatus(name)).toContainText('Invalid credentials');

    // The right key: the credits shown are the ones the service reports.
    const response = await fetch(`${sandbox.baseUrl}/workspace`, {
      headers: { 'X-API-KEY': sandbox.apiKey },
    });
    expect(response.status).toBe(200);
    const credits = workspaceInfoResponseSchema.parse(await response.json()).workspace_info.credits;
    await settings.edit(name, { apiKey: sandbox.apiKey });
    await settings.test(name);
    await expect(settings.testStatus(name)).toContainText('Connected');
    await expect(settings.testStatus(name)).toContainText(
      `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(credits)} credits`,
    );

    // Nothing the renderer holds or receives contains the key.
    const results = await page.evaluate(async () => {
      const desk = window.desk!;
      const list = await desk.workspaces.list();
      const calls: unknown[] = [list, await desk.app.info(), await desk.app.connectivity()];
      if (list.ok) {
        for (const w of list.value.workspaces) {
          calls.push(await desk.workspaces.test({ id: w.id }));
          if (!w.isSandbox) calls.push(await desk.workspaces.update({ id: w.id, name: w.name }));
        }
        if (list.value.activeId) calls.push(await desk.workspaces.setActive({ id: list.value.activeId }));
      }
      return JSON.stringify(calls);
    });
    expect(results).toContain(name); // the calls really returned workspace data
    expect(results).not.toContain(sandbox.apiKey);
    const surfaces = await rendererSurfaces(page);
    expect(surfaces.dom).toContain(name);
    for (const [where, text] of Object.entries(surfaces)) {
      expect(text, `the API key appeared in the renderer's ${where}`).not.toContain(sandbox.apiKey);
      expect(text, `the wrong key appeared in the renderer's ${where}`).not.toContain(wrongKey);
    }
    expect(frames.length).toBeGreaterThan(5);
    expect(frames.filter((f) => f.includes(sandbox.apiKey))).toEqual([]);

    // Nor any file of the data folder (SQLite file, WAL, logs, …), after a clean shutdown.
    await desk.stop();
    const files = await listFiles(desk.dataDir);
    expect(files).toContain('campaign-desk.sqlite');
    // Control: the scan finds what the app did store (the workspace's name), so it can find a key.
    expect(await filesContaining(desk.dataDir, name)).not.toEqual([]);
    expect(await filesContaining(desk.dataDir, sandbox.apiKey)).toEqual([]);
    expect(await filesContaining(desk.dataDir, wrongKey)).toEqual([]);
  });

  test('a page opened with a wrong token shows the refusal', async ({ page, desk }) => {
    await page.goto(`${desk.origin}/#token=not-the-token`);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText("Campaign Desk refused this page's access token.");
    await expect(alert).toContainText('Open the address printed by npm start (or npm run web) again.');
    await expect(page.locator('html')).toHaveAttribute('data-app-state', 'error');
    await expect(page.getByRole('navigation')).toHaveCount(0);
  });

  test('a page opened without a token is refused; opening the printed address in that tab works', async ({
    page,
    desk,
  }) => {
    await page.goto(`${desk.origin}/`);
    await expect(page.getByRole('alert')).toContainText("refused this page's access token");
    // Only the fragment changes here, which does not reload a page by itself.
    await new AppShell(page).open(desk.url);
    expect(page.url()).not.toContain('token=');
  });

  test('a reloaded page is refused: the token lived in memory only', async ({ page, desk }) => {
    await new AppShell(page).open(desk.url);
    await page.reload();
    await expect(page.getByRole('alert')).toContainText("refused this page's access token");
    await expect(page.locator('html')).toHaveAttribute('data-app-state', 'error');
  });
});
