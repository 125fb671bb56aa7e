import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SandboxService } from './fixtures.ts';
import { expect, test } from './fixtures.ts';
import { AgentsPage } from './pages/AgentsPage.ts';
import { CallsPage } from './pages/CallsPage.ts';
import { CampaignsPage } from './pages/CampaignsPage.ts';
import { SettingsPage } from './pages/SettingsPage.ts';
import { writeCampaignList } from './support/campaignList.ts';
import { pickerValue, TIME_ZONE } from './support/campaignLaunch.ts';

// The do-not-call list end to end (issue 27), in Chromium through the browser host against a
// separate sandbox: a customer's call is marked "Do not call again", a new list holding that number
// is imported and shows it held back with its reason, the campaign is launched, and the sandbox's
// own record of what it received holds every number of the list but that one.

const AGENT = 'Loan Repayment Reminder';

async function control<T>(
  sandbox: SandboxService,
  route: string,
  method = 'GET',
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${new URL(sandbox.baseUrl).origin}/_sandbox/${route}`, {
    method,
    headers: { 'X-API-KEY': sandbox.apiKey, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.status, `${method} /_sandbox/${route}`).toBe(200);
  return (await res.json()) as T;
}

test.describe('do not call', () => {
  test.describe.configure({ timeout: 180_000 });
  let dir = '';
  test.beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-dnc-'));
  });
  test.afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('a number marked after its call is held back from the next list with its reason, and the service never receives it', async ({
    page,
    desk,
    sandbox,
  }) => {
    // The next list (12 rows, seed 4): row i has +91 9400000000 + i. The customer of row 3 was
    // called last month and asked not to be called again.
    const list = writeCampaignList(dir, 'december-reminders', 12, 4);
    const optedOut = '+919400000003';
    await control(sandbox, 'seed-calls', 'POST', { count: 3, status: 'completed' });
    const history = await (
      await fetch(
        `${sandbox.baseUrl}/calling/history?start_date=2000-01-01T00:00:00Z&end_date=2100-01-01T00:00:00Z&limit=3`,
        { headers: { 'X-API-KEY': sandbox.apiKey } },
      )
    ).json();
    const callId = (history as { calls: { id: string }[] }).calls[0]!.id;
    await control(sandbox, 'history-overrides', 'POST', {
      call_id: callId,
      fields: { to_number: optedOut, name: 'Opted Customer' },
    });

    const settings = new SettingsPage(page);
    await settings.shell.open(desk.url);
    await settings.open();
    await settings.add({ name: 'Remote', baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
    await settings.test('Remote');
    await settings.shell.workspaceSwitcher.selectOption({ label: 'Remote' });
    const agents = new AgentsPage(page);
    await agents.open();
    await agents.refreshButton.click();
    await expect(agents.agent(new RegExp(`^${AGENT}`))).toBeVisible();

    // Suppress from the call.
    const calls = new CallsPage(page);
    await calls.open();
    await calls.syncAndWait();
    const row = calls.rows().filter({ hasText: optedOut });
    await expect(row).toHaveCount(1);
    await row.click();
    await expect(calls.detail.getByRole('heading', { name: 'Call with Opted Customer' })).toBeVisible();
    await calls.detail.getByRole('button', { name: 'Do not call again' }).click();
    await expect(calls.detail.getByRole('button', { name: 'On the do-not-call list' })).toBeVisible();

    // The Do not call page lists it, with the call as its source.
    await calls.shell.goTo('Do not call');
    const entry = page.getByTestId('suppression-table').locator(`tr[data-number="${optedOut}"]`);
    await expect(entry).toContainText('Opted out');
    await expect(entry).toContainText(callId);

    // Import the next list: the number is held back, with its reason.
    await calls.shell.goTo('Contacts');
    await page.getByLabel('Choose a CSV file').setInputFiles(list.file);
    await expect(page.getByTestId('summary')).toBeVisible({ timeout: 60_000 });
    await expect(page.locator('[data-count="valid"]')).toHaveText('12');
    await expect(page.locator('[data-count="suppressed"]')).toHaveText('1');
    await expect(page.getByTestId('summary-suppressed').locator('[data-reason="opted_out"]')).toHaveText(
      'Opted out: 1',
    );
    await page.getByTestId('summary-suppressed').getByRole('button').click();
    await expect(page.getByText('do not call: opted out').first()).toBeVisible();

    // Launch it: the confirmation names the number held back; 11 calls start.
    const campaigns = new CampaignsPage(page);
    await campaigns.open();
    await campaigns.newCampaign();
    await campaigns.chooseList('december-reminders');
    await campaigns.agentPanel.agent.selectOption({ label: AGENT });
    await campaigns.agentPanel.column('callee_name').selectOption('Name');
    await expect(campaigns.launchButton).toBeEnabled();
    const clock = await control<{ now: string }>(sandbox, 'clock');
    const now = Date.parse(clock.now);
    await campaigns.field('Campaign name').fill('December after opt-outs');
    await campaigns.field('Country code').fill('+91');
    await campaigns.field('Timezone').fill(TIME_ZONE);
    await campaigns.field('Campaign start').fill(pickerValue(now + 5 * 60_000));
    await campaigns.field('Campaign end').fill(pickerValue(now + 3 * 86_400_000));
    await campaigns.field('Daily window from').fill('00:00');
    await campaigns.field('Daily window to').fill('23:59');
    await page.getByRole('button', { name: 'Refresh numbers' }).click();
    await expect(campaigns.callerNumbers().first()).toBeVisible();
    await campaigns.callerNumbers().first().check();
    await campaigns.launchButton.click();
    await expect(campaigns.confirmation).toBeVisible();
    await expect(campaigns.confirmation.locator('[data-fact="held-back"]')).toHaveText('1');
    await expect(campaigns.confirmation.locator('[data-fact="calls"]')).toHaveText('11');
    await campaigns.startButton().click();
    await expect(campaigns.progress).toHaveAttribute('data-state', 'started', { timeout: 60_000 });

    // What the service received: the list's other 11 numbers, never the suppressed one.
    const received = await control<{ lists: { campaign_name: string; numbers: string[] }[] }>(
      sandbox,
      'received',
    );
    const numbers = received.lists.find((l) => l.campaign_name === 'December after opt-outs')!.numbers;
    expect(numbers).toHaveLength(11);
    expect(numbers).not.toContain(optedOut);
  });
});
