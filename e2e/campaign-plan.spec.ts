import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { SandboxService } from './fixtures.ts';
import { expect, test } from './fixtures.ts';
import { AgentsPage } from './pages/AgentsPage.ts';
import { CampaignsPage } from './pages/CampaignsPage.ts';
import { SettingsPage } from './pages/SettingsPage.ts';
import { writeCampaignList } from './support/campaignList.ts';
import { pickerValue, TIME_ZONE } from './support/campaignLaunch.ts';

// The plan as a promise, in Chromium through the browser host against a separate sandbox: credits as
// the service reports them (no "Test connection" first), a campaign over the credits refused before
// anything is uploaded (the sandbox counts every POST and lists every uploaded list), the plan in the
// campaign's timezone with a titled chart, and the permitted-hours warning to acknowledge.

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

/** Counts every POST the service receives (a zero-latency fault only counts hits). */
async function countPosts(sandbox: SandboxService): Promise<() => Promise<number>> {
  const { faults } = await control<{ faults: Array<{ id: number; hits: number }> }>(
    sandbox,
    'faults',
    'POST',
    {
      path: '*',
      method: 'POST',
      kind: 'latency',
      latency_ms: 0,
    },
  );
  const id = faults[faults.length - 1]!.id;
  return async () =>
    (await control<{ faults: Array<{ id: number; hits: number }> }>(sandbox, 'faults')).faults.find(
      (f) => f.id === id,
    )?.hits ?? -1;
}

/** Lists the service holds (uploaded or saved). */
async function listedCampaigns(sandbox: SandboxService): Promise<number> {
  const res = await fetch(`${sandbox.baseUrl}/campaign/all?limit=1`, {
    headers: { 'X-API-KEY': sandbox.apiKey },
  });
  return ((await res.json()) as { pagination: { total: number } }).pagination.total;
}

/** The sandbox as the active workspace (no "Test connection": the plan must ask the service itself). */
async function useSandboxWorkspace(page: Page, deskUrl: string, sandbox: SandboxService) {
  const settings = new SettingsPage(page);
  await settings.shell.open(deskUrl);
  await settings.open();
  await settings.add({ name: 'Remote', baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
  await settings.shell.workspaceSwitcher.selectOption({ label: 'Remote' });
  const agents = new AgentsPage(page);
  await agents.open();
  await agents.refreshButton.click();
  await expect(agents.agent(new RegExp(`^${AGENT}`))).toBeVisible();
}

test.describe('campaign plan', () => {
  test.describe.configure({ timeout: 150_000 });
  let dir = '';
  test.beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-plan-'));
  });
  test.afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('a campaign over the credits is refused before upload; the plan speaks in the campaign’s timezone with a titled chart; calling hours are acknowledged', async ({
    page,
    desk,
    sandbox,
  }) => {
    // Some valid rows leave Loan Amount empty: with "Remove invalid rows" on the service drops them.
    const list = writeCampaignList(dir, 'plan-40', 42, 7, 21, 10);
    const calls = list.valid - list.emptyLoan;
    expect(list.emptyLoan).toBeGreaterThan(0);
    await useSandboxWorkspace(page, desk.url, sandbox);
    const campaigns = new CampaignsPage(page);
    await campaigns.shell.goTo('Contacts');
    await page.getByLabel('Choose a CSV file').setInputFiles(list.file);
    await expect(page.locator('[data-count="valid"]')).toHaveText(list.valid.toLocaleString('en-US'), {
      timeout: 60_000,
    });

    await campaigns.open();
    await campaigns.newCampaign();
    await campaigns.chooseList('plan-40');
    await campaigns.agentPanel.agent.selectOption({ label: AGENT });
    await expect(campaigns.agentPanel.column('loan_amount')).toHaveValue('Loan Amount');
    await campaigns.agentPanel.column('callee_name').selectOption('Name');

    const now = Date.parse((await control<{ now: string }>(sandbox, 'clock')).now);
    await campaigns.field('Campaign name').fill('Over the credits');
    await campaigns.field('Country code').fill('+91');
    await campaigns.field('Timezone').fill(TIME_ZONE);
    await campaigns.field('Campaign start').fill(pickerValue(Math.max(now, Date.now()) + 10 * 60_000));
    await campaigns.field('Campaign end').fill(pickerValue(Math.max(now, Date.now()) + 3 * 86_400_000));
    await campaigns.field('Daily window from').fill('08:00');
    await campaigns.field('Daily window to').fill('22:00');
    await page.getByRole('button', { name: 'Refresh numbers' }).click();
    await expect(campaigns.callerNumbers().first()).toBeVisible();
    await campaigns.callerNumbers().first().check();

    // Promotional calls to India until 22:00: a warning to acknowledge, named in the summary.
    await campaigns.field('Purpose of the calls').selectOption('promotional');
    const hours = page.getByTestId('calling-hours');
    await expect(hours).toContainText('outside the hours India permits for promotional calls: 09:00–21:00');
    await campaigns.checkAndPlan();
    await expect(campaigns.settingsErrors.locator('li[data-field="hoursAcknowledged"]')).toHaveText(
      /^Calling hours: The daily window 08:00–22:00 Asia\/Kolkata is outside/,
    );
    await hours.getByLabel(/^I have checked/).check();

    // Credits as the service says, read for the plan.
    await control(sandbox, 'workspace', 'POST', { credits: 10 });
    const posts = await countPosts(sandbox);
    const lists = await listedCampaigns(sandbox);
    await campaigns.checkAndPlan();
    await expect(campaigns.settingsErrors).toBeHidden();
    // Calls to place: the rows sent less the rows the service will drop; credits counted from them.
    await expect(campaigns.fact('calls')).toHaveText(String(calls));
    await expect(campaigns.fact('service-drops')).toHaveText(String(list.emptyLoan));
    await expect(campaigns.fact('credits-needed')).toHaveText(String(calls));
    await expect(campaigns.fact('credits-available')).toHaveText('10');
    await expect(page.getByTestId('credits-note')).toHaveText(
      /^As the service reported (just now|\d+ min ago)\.$/,
    );
    const short = `Not enough credits: this campaign needs ${calls} credits (one a call) and the workspace has 10, ${calls - 10} short. Add credits or send fewer rows.`;
    await expect(page.getByTestId('plan-credits-short')).toHaveText(
      `${short} Launch stays disabled until the credits cover the calls.`,
    );
    // Launch is disabled with the reason, before any confirmation.
    await expect(campaigns.launchButton).toBeDisabled();
    await expect(campaigns.blockers).toContainText(short);

    // The plan in the campaign's timezone, labelled; the chart has titled axes.
    await expect(page.getByTestId('plan-timezone')).toHaveText(
      'Times and days below are in the campaign’s timezone, Asia/Kolkata.',
    );
    await expect(campaigns.fact('finish')).toHaveText(/\(Asia\/Kolkata\)$/);
    await expect(campaigns.plan.locator('[data-fact="start"]')).toHaveText(/\(Asia\/Kolkata\)$/);
    await expect(campaigns.plan.locator('[data-fact="window"]')).toHaveText('08:00–22:00 (Asia/Kolkata)');
    await expect(campaigns.plan.getByRole('columnheader', { name: 'Day (Asia/Kolkata)' })).toBeVisible();
    const chart = page.getByTestId('plan-chart');
    await expect(chart).toHaveAttribute('data-x-title', 'Day (Asia/Kolkata)');
    await expect(chart).toHaveAttribute('data-y-title', 'Calls placed (count)');
    await expect(
      chart.getByRole('img', { name: /^Calls per day, x axis Day \(Asia\/Kolkata\)/ }),
    ).toBeVisible();
    // The canvas is drawn (chart.js), not left blank.
    const drawn = await chart
      .locator('canvas')
      .evaluate(
        (c: HTMLCanvasElement) =>
          c.width > 0 && c.toDataURL() !== document.createElement('canvas').toDataURL(),
      );
    expect(drawn).toBe(true);
    await expect(page.getByTestId('plan-assumption')).toHaveText(
      /^Estimate: 5 lines at once \(50% concurrency/,
    );

    // Settings edited after the plan: Launch checks the plan again and stays shut, no confirmation.
    await campaigns.field('Campaign name').fill('Over the credits again');
    await expect(campaigns.launchButton).toBeEnabled();
    await campaigns.launchButton.click();
    await expect(campaigns.blockers).toContainText(short);
    await expect(campaigns.launchButton).toBeDisabled();
    await expect(campaigns.confirmation).toBeHidden();
    await expect(campaigns.progress).toBeHidden();
    expect(await posts()).toBe(0);
    expect(await listedCampaigns(sandbox)).toBe(lists);

    // Credits added: the confirmation's figures are the plan's (calls, drops, credits, its button).
    await control(sandbox, 'workspace', 'POST', { credits: 25_000 });
    await campaigns.checkAndPlan();
    await expect(campaigns.fact('credits-available')).toHaveText('25,000');
    await expect(campaigns.blockers).toBeHidden();
    await campaigns.launchButton.click();
    await expect(campaigns.confirmation).toBeVisible();
    await expect(campaigns.confirmationFact('calls')).toHaveText(String(calls));
    await expect(campaigns.confirmationFact('service-drops')).toHaveText(String(list.emptyLoan));
    await expect(campaigns.confirmationFact('credits-needed')).toHaveText(String(calls));
    await expect(campaigns.confirmationFact('credits-available')).toHaveText('25,000');
    await expect(campaigns.confirmationFact('calling-hours')).toContainText(
      'outside the hours India permits for promotional calls',
    );
    await expect(campaigns.startButton()).toHaveText(`Start ${calls} calls`);
    await page.keyboard.press('Escape');
    await expect(campaigns.confirmation).toBeHidden();
    expect(await posts()).toBe(0);
  });
});
