import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';

test.describe('connection', () => {
  test('the indicator says Offline in words when this computer loses its network', async ({
    page,
    context,
    desk,
  }) => {
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
    // The connection banner (a request in flight when the back end stopped, such as the saved
    // lists' first load, may show its own error alert too).
    const banner = page
      .getByRole('alert')
      .filter({ hasText: "Lost the connection to Campaign Desk's back end" });
    await expect(banner).toContainText("Lost the connection to Campaign Desk's back end");
    await expect(banner).toContainText(/attempt [2-9]/);
    await expect(banner.getByRole('button', { name: 'Retry now' })).toBeVisible();
    // A call made now fails with a Result, not a hang or an exception.
    const result = await page.evaluate(() => window.desk!.app.info());
    expect(result).toMatchObject({ ok: false, error: { code: 'unreachable' } });
  });

  test('when the back end cannot be reached at start, the page says so instead of loading forever', async ({
    page,
    desk,
  }) => {
    // The page is served, but its socket never gets through and the host stops answering: the same
    // as a back end that died right after serving the page.
    await page.routeWebSocket(/\/desk/, (socket) => socket.close());
    await page.route(`${desk.origin}/`, (route) =>
      route.request().method() === 'HEAD' ? route.abort() : route.continue(),
    );
    await page.goto(desk.url);
    await expect(page.locator('html')).toHaveAttribute('data-app-state', 'error');
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Campaign Desk could not start');
    await expect(alert).toContainText("Campaign Desk's back end");
    await expect(alert.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
