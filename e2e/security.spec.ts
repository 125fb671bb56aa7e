import { expect, test } from './fixtures.ts';
import { AgentsPage } from './pages/AgentsPage.ts';
import { CallsPage, useSandboxWorkspace } from './pages/CallsPage.ts';
import { sandboxControl, seedRecentCalls } from './support/sandboxControl.ts';

// The service boundary in Chromium through the browser host (real back end, real SQLite, a separate
// sandbox over real HTTP): what the service sends is shown as text, a malformed record is kept
// apart with its reason, and a webhook URL never carries credentials.

const WEBHOOK_RULE =
  'Callback URL must not contain a user name or password (user:password@…): send credentials as a header instead (for example Authorization).';

test.describe('security', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a transcript with HTML renders as text, and a malformed history record is skipped with its reason', async ({
    page,
    desk,
    sandbox,
  }) => {
    const history = await seedRecentCalls(sandbox, 12, 3);
    const [htmlCall, badCall] = history as [(typeof history)[0], (typeof history)[0]];
    const hostile = '<img src=x onerror="window.__deskXss=1">Hello';
    // The service sends a transcript holding markup, and a record whose date does not exist.
    await sandboxControl(sandbox, 'POST', '/history-overrides', {
      call_id: htmlCall.id,
      fields: {
        status: 'completed',
        transcript: JSON.stringify([{ bot: hostile }, { user: '<b>bold</b> reply' }]),
      },
    });
    await sandboxControl(sandbox, 'POST', '/history-overrides', {
      call_id: badCall.id,
      fields: { created_at: '2025-02-30T25:61:61Z' },
    });

    const calls = new CallsPage(page);
    await calls.shell.open(desk.url);
    await useSandboxWorkspace(page, sandbox);
    await calls.open();
    await calls.syncAndWait();
    await expect(calls.figure('calls')).toHaveText('11');
    await expect(page.locator('[data-testid="sync-figures"] [data-count="skipped"]')).toHaveText('1');
    await expect(calls.syncState).toContainText('1 skipped record');

    // (c) The skipped record is listed with its call id, field and reason.
    await page.getByRole('button', { name: 'Show skipped records' }).click();
    const dialog = page.getByRole('dialog', { name: 'Skipped records' });
    const row = dialog.getByRole('row').filter({ hasText: badCall.id });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('created_at');
    await expect(row).toContainText('"2025-02-30T25:61:61Z" day 30 does not exist in 2025-02');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // (a) The call with markup in its transcript: the markup is shown as text, never run.
    await calls.search.fill(htmlCall.to_number!.replace(/\D/g, '').slice(-10));
    const found = calls.rows().filter({ hasText: htmlCall.to_number! });
    await expect(found).toHaveCount(1);
    await found.click();
    const transcript = calls.detail.getByRole('list', { name: 'Transcript' });
    await expect(transcript).toContainText(hostile);
    await expect(transcript).toContainText('<b>bold</b> reply');
    await expect(calls.detail.locator('img')).toHaveCount(0);
    await expect(transcript.locator('b')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __deskXss?: number }).__deskXss)).toBeUndefined();
  });

  test('a webhook URL with credentials is refused in the subscriptions editor, saying to use headers', async ({
    page,
    desk,
  }) => {
    const agents = new AgentsPage(page);
    await agents.shell.open(desk.url);
    await agents.open();
    await agents.select('Insurance Renewal');
    await agents.subscriptions.getByRole('button', { name: 'Add subscription' }).click();
    const dialog = agents.dialog('Add subscription');
    await dialog.getByRole('checkbox', { name: /^Call completed/ }).check();
    await dialog.getByLabel('Callback URL').fill('https://hook-user:hook-pass@hooks.example.com/calls');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog.getByText(WEBHOOK_RULE)).toBeVisible();
    await expect(dialog.getByLabel('Callback URL')).toBeFocused();
    // With the credentials moved to a header it is taken.
    await dialog.getByLabel('Callback URL').fill('https://hooks.example.com/calls');
    await dialog.getByRole('button', { name: 'Add header' }).click();
    await dialog.getByLabel('Header 1 name').fill('Authorization');
    await dialog.getByLabel('Header 1 value').fill('Basic aG9vay11c2VyOmhvb2stcGFzcw==');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    await expect(agents.subscription(1)).toContainText('https://hooks.example.com/calls');
    await expect(agents.subscriptions).not.toContainText('hook-pass');
  });
});
