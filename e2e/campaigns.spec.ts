import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { SandboxService } from './fixtures.ts';
import { expect, HOST_READY, test } from './fixtures.ts';
import { AgentsPage } from './pages/AgentsPage.ts';
import { CampaignsPage } from './pages/CampaignsPage.ts';
import { SettingsPage } from './pages/SettingsPage.ts';
import { expectNoAxeViolations } from './support/a11y.ts';
import type { CampaignList } from './support/campaignList.ts';
import { startChildServer } from './support/childServer.ts';
import { writeCampaignList } from './support/campaignList.ts';

// Campaigns end to end in Chromium through the browser host (real back end, real SQLite) against a
// separate sandbox over real HTTP: generated lists imported in Contacts, the builder (agent panel,
// preview, settings, plan), launches of both flows, statuses as the sandbox clock advances, settings
// refused with nothing sent, and a launch prepared offline sent after confirmation.

const AGENT = 'Loan Repayment Reminder';
const TIME_ZONE = 'Asia/Kolkata';

interface Stats {
  clock: { now: string };
  starts: { bulk_list_id: string; accepted: number; refused: number }[];
  start_attempts: unknown[];
  calls_by_status: Record<string, number>;
}
interface Fault {
  id: number;
  hits: number;
}

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
const stats = (sandbox: SandboxService) => control<Stats>(sandbox, 'stats?deliveries_limit=0');
const advanceClock = (sandbox: SandboxService, seconds: number) =>
  control(sandbox, 'clock', 'POST', { advance_seconds: seconds });

/** Counts every POST the service receives (a zero-latency fault only counts hits). */
async function countPosts(sandbox: SandboxService): Promise<() => Promise<number>> {
  const { faults } = await control<{ faults: Fault[] }>(sandbox, 'faults', 'POST', {
    path: '*',
    method: 'POST',
    kind: 'latency',
    latency_ms: 0,
  });
  const id = faults[faults.length - 1]!.id;
  return async () =>
    (await control<{ faults: Fault[] }>(sandbox, 'faults')).faults.find((f) => f.id === id)?.hits ?? -1;
}

/** `YYYY-MM-DDTHH:MM` (the date-time picker's value) of `ms` on the clock of TIME_ZONE. */
function pickerValue(ms: number): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The test's sandbox as the active workspace, its agents synced. */
async function useSandboxWorkspace(page: Page, deskUrl: string, sandbox: SandboxService) {
  const settings = new SettingsPage(page);
  await settings.shell.open(deskUrl);
  await settings.open();
  await settings.add({ name: 'Remote', baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
  // Test connection reads the workspace's credits (the plan compares against them).
  await settings.test('Remote');
  await settings.shell.workspaceSwitcher.selectOption({ label: 'Remote' });
  const agents = new AgentsPage(page);
  await agents.open();
  await agents.refreshButton.click();
  await expect(agents.agent(new RegExp(`^${AGENT}`))).toBeVisible();
}

async function importList(page: Page, list: CampaignList) {
  const campaigns = new CampaignsPage(page);
  await campaigns.shell.goTo('Contacts');
  await page.getByLabel('Choose a CSV file').setInputFiles(list.file);
  await expect(page.getByTestId('summary')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[data-count="valid"]')).toHaveText(list.valid.toLocaleString('en-US'));
}

/** New campaign on `listName` for the agent, callee_name from Name; the preview shows row 2's values. */
async function startBuilder(page: Page, listName: string, list: CampaignList): Promise<CampaignsPage> {
  const campaigns = new CampaignsPage(page);
  await campaigns.open();
  await campaigns.newCampaign();
  await expect(campaigns.blockers).toContainText('Choose a contact list.');
  await expect(campaigns.launchButton).toBeDisabled();
  await campaigns.chooseList(listName);
  await expect(campaigns.blockers).toContainText('Choose an agent for the list.');
  const panel = campaigns.agentPanel;
  await panel.agent.selectOption({ label: AGENT });
  await expect(panel.column('loan_amount')).toHaveValue('Loan Amount');
  await panel.column('callee_name').selectOption('');
  // A variable without a column blocks the launch, and the builder says which.
  await expect(campaigns.blockers).toContainText('Variable callee_name has no column');
  await expect(campaigns.launchButton).toBeDisabled();
  await panel.column('callee_name').selectOption('Name');
  await expect(panel.value('callee_name').first()).toHaveText(list.firstName);
  await expect(panel.value('city').first()).toHaveText('Pune');
  await expect(panel.position).toContainText('Row 2');
  await expect(campaigns.blockers).toBeHidden();
  await expect(campaigns.launchButton).toBeEnabled();
  return campaigns;
}

/** Settings that pass: a caller number, start in 5 minutes, end in 3 days, an all-day window. */
async function fillGoodSettings(campaigns: CampaignsPage, name: string, nowMs: number) {
  await campaigns.field('Campaign name').fill(name);
  await campaigns.field('Country code').fill('+91');
  await campaigns.field('Timezone').fill(TIME_ZONE);
  await campaigns.field('Campaign start').fill(pickerValue(nowMs + 5 * 60_000));
  await campaigns.field('Campaign end').fill(pickerValue(nowMs + 3 * 86_400_000));
  await campaigns.field('Daily window from').fill('00:00');
  await campaigns.field('Daily window to').fill('23:59');
  await campaigns.field('Concurrency (%)').fill('100');
  await campaigns.page.getByRole('button', { name: 'Refresh numbers' }).click();
  await expect(campaigns.callerNumbers().first()).toBeVisible();
  await campaigns.callerNumbers().first().check();
}

async function expectStartedOnce(sandbox: SandboxService, serviceId: string) {
  const s = await stats(sandbox);
  const starts = s.starts.filter((x) => x.bulk_list_id === serviceId);
  expect(starts.map((x) => x.accepted)).toEqual([1]);
}

/** Launch while the service answers: confirmed once, it goes out at once, nothing waits in the queue. */
async function launchNow(campaigns: CampaignsPage, name: string) {
  await campaigns.launchConfirmed();
  await expect(campaigns.progress).toHaveAttribute('data-state', /^(pending|waiting|started)$/);
  await expect(campaigns.page.getByRole('button', { name: `Send ${name} now` })).toHaveCount(0);
}

/** The launch's service id, shown in its progress once started. */
async function startedId(campaigns: CampaignsPage): Promise<string> {
  await expect(campaigns.progress).toHaveAttribute('data-state', 'started', { timeout: 60_000 });
  const text = await campaigns.progress.getByRole('status').innerText();
  const id = /id (\S+)/.exec(text)?.[1];
  expect(id, text).toBeTruthy();
  return id!;
}

/** Refresh the list until the campaign's status reads `status`, advancing the sandbox clock meanwhile. */
async function expectStatus(campaigns: CampaignsPage, name: string, status: RegExp) {
  await expect(async () => {
    await campaigns.page.getByRole('button', { name: 'Refresh campaigns' }).click();
    await expect(campaigns.campaignRow(name).locator('[data-col="status"]').first()).toHaveText(status, {
      timeout: 2_000,
    });
  }).toPass({ timeout: 30_000 });
}

test.describe('campaigns', () => {
  test.describe.configure({ timeout: 150_000 });

  let dir = '';
  test.beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-campaigns-'));
  });
  test.afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('a 60-row campaign (standard flow): preview, bad settings refused with nothing sent, plan, launch, statuses follow the clock, terminate asks first', async ({
    page,
    desk,
    sandbox,
  }) => {
    const list = writeCampaignList(dir, 'campaign-60', 62, 3, 30);
    expect(list.valid).toBe(60);
    await useSandboxWorkspace(page, desk.url, sandbox);
    await importList(page, list);
    const campaigns = await startBuilder(page, 'campaign-60', list);
    const posts = await countPosts(sandbox);

    // Bad settings: each named beside its field and in the summary; nothing reaches the service.
    await campaigns.field('Campaign name').fill('');
    await campaigns.field('Campaign start').fill(pickerValue(Date.now() - 86_400_000));
    await campaigns.field('Campaign end').fill(pickerValue(Date.now() - 2 * 86_400_000));
    await campaigns.field('Daily window from').fill('18:00');
    await campaigns.field('Daily window to').fill('09:00');
    await campaigns.field('Callback URL').fill('not a url');
    await campaigns.checkAndPlan();
    const errors = campaigns.settingsErrors;
    await expect(errors).toBeVisible();
    for (const field of ['name', 'numberSource', 'start', 'end', 'callbackUrl']) {
      await expect(errors.locator(`li[data-field^="${field}"]`)).toHaveCount(1);
    }
    await expect(errors).toContainText('Campaign name:');
    await expect(errors).toContainText('Campaign start:');
    await expect(campaigns.fieldError('Campaign name')).toBeVisible();
    await expect(campaigns.plan).toBeHidden();
    await campaigns.launchButton.click();
    await expect(errors).toBeVisible();
    await expect(campaigns.progress).toBeHidden();
    // A concurrency over 100 is named too.
    await campaigns.field('Concurrency (%)').fill('150');
    await campaigns.checkAndPlan();
    await expect(errors.locator('li[data-field="concurrency"]')).toHaveCount(1);
    expect(await posts()).toBe(0);
    expect((await stats(sandbox)).start_attempts).toHaveLength(0);

    // Good settings: the plan, then the launch.
    await fillGoodSettings(campaigns, 'Standard sixty', Date.parse((await stats(sandbox)).clock.now));
    await campaigns.field('Callback URL').fill('');
    await campaigns.checkAndPlan();
    await expect(errors).toBeHidden();
    await expect(campaigns.fact('calls')).toHaveText('60');
    await expect(campaigns.fact('flow')).toContainText('Standard');
    await expect(campaigns.plan.getByRole('img', { name: /^Calls per day/ })).toBeVisible();
    await expect(campaigns.plan.getByRole('table')).toContainText('60');
    await expectNoAxeViolations(page, 'the campaign builder with its plan');
    await launchNow(campaigns, 'Standard sixty');
    for (const step of ['save', 'start']) {
      await expect(campaigns.step(step)).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
    }
    const id = await startedId(campaigns);
    await expectStartedOnce(sandbox, id);
    // Its rows counted as the plan counts them: every valid row a call (none dropped), the invalid left out.
    await expect(page.getByTestId('launch-rows')).toHaveText(
      new RegExp(
        `^${list.valid} calls to place · ${list.invalid} invalid \\(not sent\\)( · 0 refused by the service)?$`,
      ),
    );

    // The list: the campaign, its timeline, and statuses following the sandbox clock.
    await campaigns.backToList();
    const row = campaigns.campaignRow('Standard sixty');
    await expect(row.first()).toBeVisible();
    await row.first().getByRole('button', { name: 'Timeline of Standard sixty' }).click();
    const timeline = page.getByTestId('campaign-timeline');
    await expect(timeline.locator('li[data-step="start"][data-outcome="ok"]')).toHaveCount(1);
    await expectNoAxeViolations(page, 'a campaign timeline');
    await page.getByRole('button', { name: 'Close' }).click();
    await expectStatus(campaigns, 'Standard sixty', /scheduled|started/i);
    await advanceClock(sandbox, 15 * 60);
    await expectStatus(campaigns, 'Standard sixty', /ongoing/i);

    // Terminate asks first: Keep calling changes nothing; confirmed, the service answers in words.
    const terminate = row.first().getByRole('button', { name: 'Terminate Standard sixty' });
    await terminate.click();
    const confirm = page.getByRole('alertdialog', { name: 'Terminate Standard sixty?' });
    await expect(confirm).toBeVisible();
    await expectNoAxeViolations(page, 'the terminate confirmation');
    await confirm.getByRole('button', { name: 'Keep calling' }).click();
    await expect(confirm).toBeHidden();
    await expect(terminate).toBeFocused();
    await terminate.click();
    await confirm.getByRole('button', { name: 'Terminate remaining calls' }).click();
    await expect(confirm.getByRole('status')).not.toBeEmpty();
    await expect(confirm.locator('.field-error')).toHaveCount(0);
    await confirm.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect(confirm).toBeHidden();
    await advanceClock(sandbox, 4 * 86_400);
    // Terminated, not "completed" as the service's listing calls it once no call is left.
    await expectStatus(campaigns, 'Standard sixty', /terminated/i);
    await expectStartedOnce(sandbox, id);
  });

  test('a 6,000-row campaign (large flow): upload, status, balance, start, exactly once', async ({
    page,
    desk,
    sandbox,
  }) => {
    const list = writeCampaignList(dir, 'campaign-6000', 6_000, 7, 1_000);
    expect(list.valid).toBeGreaterThanOrEqual(5_000);
    await useSandboxWorkspace(page, desk.url, sandbox);
    await importList(page, list);
    const campaigns = await startBuilder(page, 'campaign-6000', list);
    await fillGoodSettings(campaigns, 'Large six thousand', Date.parse((await stats(sandbox)).clock.now));
    await campaigns.checkAndPlan();
    await expect(campaigns.fact('calls')).toHaveText(list.valid.toLocaleString('en-US'));
    await expect(campaigns.fact('flow')).toContainText('Large');
    await expect(campaigns.fact('credits-available')).toHaveText(/^25,?000$/);
    await launchNow(campaigns, 'Large six thousand');
    for (const step of ['upload', 'upload-status', 'balance', 'make-call-async']) {
      await expect(campaigns.step(step)).toHaveAttribute('data-status', 'done', { timeout: 90_000 });
    }
    const id = await startedId(campaigns);
    await expectStartedOnce(sandbox, id);

    await campaigns.backToList();
    await expectStatus(campaigns, 'Large six thousand', /scheduled|started/i);
    await advanceClock(sandbox, 15 * 60);
    await expectStatus(campaigns, 'Large six thousand', /ongoing/i);
    const calls = (await stats(sandbox)).calls_by_status;
    expect(Object.values(calls).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(list.valid);
    await expectStartedOnce(sandbox, id);
  });

  test('a launch prepared while the service is unreachable waits in the queue and goes out once confirmed', async ({
    page,
    desk,
    sandbox,
  }) => {
    const list = writeCampaignList(dir, 'campaign-offline', 40, 5);
    await useSandboxWorkspace(page, desk.url, sandbox);
    await importList(page, list);
    const campaigns = await startBuilder(page, 'campaign-offline', list);
    await fillGoodSettings(campaigns, 'Offline forty', Date.parse((await stats(sandbox)).clock.now));

    // The service stops answering: the launch is queued, nothing is started.
    const { faults } = await control<{ faults: Fault[] }>(sandbox, 'faults', 'POST', {
      path: '/v0*',
      kind: 'drop',
    });
    await expect(campaigns.shell.connectivity).toContainText('Offline', { timeout: 40_000 });
    await campaigns.launchConfirmed();
    await expect(campaigns.progress).toHaveAttribute('data-state', /queued|waiting/, { timeout: 30_000 });
    await campaigns.backToList();
    const queued = campaigns.queued('Offline forty');
    await expect(queued).toBeVisible();
    await expectNoAxeViolations(page, 'the campaigns list with a queued launch');
    expect((await stats(sandbox)).start_attempts).toHaveLength(0);

    // Back online: it goes out only when the operator sends it.
    await control(sandbox, `faults?id=${faults[faults.length - 1]!.id}`, 'DELETE');
    await expect(campaigns.shell.connectivity).toContainText('Online', { timeout: 40_000 });
    await expect(queued).toBeVisible();
    expect((await stats(sandbox)).start_attempts).toHaveLength(0);
    await queued.getByRole('button', { name: 'Send Offline forty' }).click();
    await expect(queued).toBeHidden({ timeout: 60_000 });
    await expectStatus(campaigns, 'Offline forty', /started|scheduled/i);
    await expect(async () => {
      const s = await stats(sandbox);
      expect(s.starts.map((x) => x.accepted)).toEqual([1]);
    }).toPass({ timeout: 30_000 });
  });

  test('a test call from the builder is followed until it ends with its transcript; the draft survives a restart', async ({
    page,
    desk,
    sandbox,
  }) => {
    const list = writeCampaignList(dir, 'campaign-test-call', 20, 8);
    await useSandboxWorkspace(page, desk.url, sandbox);
    await importList(page, list);
    const campaigns = await startBuilder(page, 'campaign-test-call', list);
    await fillGoodSettings(campaigns, 'Kept draft', Date.parse((await stats(sandbox)).clock.now));

    // Every sandbox call is answered, so the call has a conversation to show.
    await control(sandbox, 'dialer', 'POST', { shares: { answered: 1 } });
    const testCall = page.getByTestId('test-call');
    await testCall.getByLabel(/^Number to call/).fill('+919811111111');
    await testCall.getByLabel(/^Row/).fill('3');
    await testCall.getByRole('button', { name: 'Place test call' }).click();
    await expect(testCall.getByRole('status')).toContainText('following');
    await advanceClock(sandbox, 10 * 60);
    await expect(testCall.getByRole('status')).toContainText('(ended)', { timeout: 30_000 });
    const transcript = testCall.getByRole('list', { name: 'Transcript' });
    await expect(transcript.getByRole('listitem').first()).toBeVisible();
    expect((await stats(sandbox)).start_attempts).toHaveLength(0);

    // The draft (saved as it was edited) is there after the app restarts.
    await expect(async () => {
      await campaigns.backToList();
      await expect(page.getByTestId('campaign-drafts')).toContainText('Kept draft', { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    await desk.stop();
    const host = await startChildServer({
      name: 'browser host (restarted)',
      script: 'electron/browser-host/main.ts',
      args: ['--port', '0', '--data', desk.dataDir, '--no-open'],
      ready: HOST_READY,
    });
    try {
      const [, origin, , token] = host.match;
      await page.goto('about:blank');
      await campaigns.shell.open(`${origin}/#token=${token}`);
      await campaigns.open();
      await page.getByRole('button', { name: 'Open Kept draft' }).click();
      await expect(campaigns.field('Campaign name')).toHaveValue('Kept draft');
      await expect(campaigns.field('Timezone')).toHaveValue(TIME_ZONE);
      await expect(page.getByRole('combobox', { name: 'Contact list' })).toHaveValue(/\d+/);
      await expect(campaigns.agentPanel.agent).toHaveValue(/.+/);
      await expect(campaigns.callerNumbers().first()).toBeChecked();
    } finally {
      await host.stop();
    }
  });
});
