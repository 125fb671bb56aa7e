import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';

test.describe('connection', () => {
  test('the indicator says Offline in words when this computer loses its network', async ({ page, context, desk }) => {
    const shell = new AppShell(page);
    await shell.open(desk.url);
    await expect(shell.connectivity).toContainText('Online');
    await context.setOffline(true);
    await expect(shell.connectivity).toContainText('Offline');
    await expect(shell.connectivity).toContainText('This computer has no network');
    await context.setOffline(false);
    await expect(shell.connectivity).toContainText('Online');
  });

  test('when the back end stops, the page says so and keeps trying to reconnect', async ({ page, desk }) => {
    const shell = new AppShell(page);
    await shell.open(desk.url);
    await desk.stop();
    const banner = page.getByRole('alert');
    await expect(banner).toContainText("Lost the connection to Campaign Desk's back end");
    await expect(banner).toContainText(/attempt [2-9]/);
    await expect(banner.getByRole('button', { name: 'Retry now' })).toBeVisible();
    // A call made now fails with a Result, not a hang or an exception.
    const result = await page.evaluate(() => window.desk!.app.info());
    expect(result).toMatchObject({ ok: false, error: { code: 'unreachable' } });
  });
});
