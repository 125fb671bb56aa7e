import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { SandboxService } from './fixtures.ts';
import { expect, test } from './fixtures.ts';
import { AgentsPage } from './pages/AgentsPage.ts';
import { CampaignsPage } from './pages/CampaignsPage.ts';
import { SettingsPage } from './pages/SettingsPage.ts';
import type { CampaignList } from './support/campaignList.ts';
import { writeCampaignList } from './support/campaignList.ts';
import { pickerValue, TIME_ZONE } from './support/campaignLaunch.ts';
import { sandboxControl } from './support/sandboxControl.ts';

// One campaign, one launch, as a new user meets it in Chromium (browser host, real back end and
// SQLite, the sandbox over real HTTP): Launch asks first (the confirmation's figures are the plan's,
// Escape cancels with nothing sent), the launched campaign leaves Drafts and reopens read-only with
// no Launch, and "Duplicate as new campaign" warns of the overlap in the builder and again in the
// confirmation, where cancelling starts nothing.

const AGENT = 'Loan Repayment Reminder';

interface Stats {
  clock: { now: string };
  starts: { bulk_list_id: string; accepted: number }[];
  start_attempts: unknown[];
}
const stats = async (sandbox: SandboxService) =>
  (await sandboxControl(sandbox, 'GET', '/stats?deliveries_limit=0')) as Stats;

async function useSandboxWorkspace(page: Page, deskUrl: string, sandbox: SandboxService) {
  const settings = new SettingsPage(page);
  await settings.shell.open(deskUrl);
  await settings.open();
  await settings.add({ name: 'Remote', baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
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

/** The plan's figures as shown, to compare with the confirmation's. */
async function planFigures(campaigns: CampaignsPage) {
  await campaigns.checkAndPlan();
  await expect(campaigns.plan).toBeVisible();
  return {
    calls: await campaigns.fact('calls').innerText(),
    needed: await campaigns.fact('credits-needed').innerText(),
    available: await campaigns.fact('credits-available').innerText(),
  };
}

test.describe('a campaign launches once', () => {
  test.describe.configure({ timeout: 240_000 });

  let dir = '';
  test.beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-launch-once-'));
  });
  test.afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('confirm before calls go out, reopen read-only, duplicate warns of the overlap, Escape cancels', async ({
    page,
    desk,
    sandbox,
  }) => {
    const list = writeCampaignList(dir, 'launch-once', 42, 4, 20);
    await useSandboxWorkspace(page, desk.url, sandbox);
    await importList(page, list);

    const campaigns = new CampaignsPage(page);
    await campaigns.open();
    await campaigns.newCampaign();
    await campaigns.chooseList('launch-once');
    await campaigns.agentPanel.agent.selectOption({ label: AGENT });
    await expect(campaigns.agentPanel.column('loan_amount')).toHaveValue('Loan Amount');
    await expect(campaigns.launchButton).toBeEnabled();
    const now = Date.parse((await stats(sandbox)).clock.now);
    await campaigns.field('Campaign name').fill('Once only');
    await campaigns.field('Country code').fill('+91');
    await campaigns.field('Timezone').fill(TIME_ZONE);
    await campaigns.field('Campaign start').fill(pickerValue(now + 10 * 60_000));
    await campaigns.field('Campaign end').fill(pickerValue(now + 3 * 86_400_000));
    await campaigns.field('Daily window from').fill('00:00');
    await campaigns.field('Daily window to').fill('23:59');
    await page.getByRole('button', { name: 'Refresh numbers' }).click();
    await expect(campaigns.callerNumbers().first()).toBeVisible();
    await campaigns.callerNumbers().first().check();
    const plan = await planFigures(campaigns);
    expect(plan.calls).toBe(list.valid.toLocaleString('en-US'));

    // Launch asks first; its figures are the plan's; Escape cancels with nothing sent.
    await campaigns.launchButton.click();
    await expect(campaigns.confirmation).toBeVisible();
    await expect(campaigns.confirmationFact('name')).toHaveText('Once only');
    await expect(campaigns.confirmationFact('list')).toContainText('launch-once');
    await expect(campaigns.confirmationFact('calls')).toHaveText(plan.calls);
    await expect(campaigns.confirmationFact('credits-needed')).toHaveText(plan.needed);
    await expect(campaigns.confirmationFact('credits-available')).toHaveText(plan.available);
    await expect(campaigns.confirmationFact('window')).toHaveText(`00:00–23:59 (${TIME_ZONE})`);
    await expect(campaigns.confirmationFact('agent')).toContainText(AGENT);
    await expect(campaigns.confirmationFact('overlaps')).toContainText('None');
    await expect(campaigns.startButton()).toHaveText(`Start ${plan.calls} calls`);
    // Focus is inside the dialog (kept there by the modal); Escape cancels.
    expect(await campaigns.confirmation.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(campaigns.confirmation).toBeHidden();
    await expect(campaigns.launchButton).toBeFocused();
    expect((await stats(sandbox)).start_attempts).toHaveLength(0);

    // Confirmed: it starts once.
    await campaigns.launchConfirmed();
    await expect(campaigns.progress).toHaveAttribute('data-state', 'started', { timeout: 60_000 });
    const text = await campaigns.progress.getByRole('status').innerText();
    const serviceId = /id (\S+)/.exec(text)?.[1] ?? '';
    expect(serviceId).not.toBe('');
    await expect(campaigns.launchButton).toHaveCount(0);

    // It left Drafts; the list shows it once; reopened it is read-only with no Launch.
    await campaigns.backToList();
    await expect(page.getByTestId('campaign-drafts')).toHaveCount(0);
    await page.getByRole('button', { name: 'Refresh campaigns' }).click();
    await expect(campaigns.campaignRow('Once only')).toHaveCount(1);
    await campaigns.campaignRow('Once only').getByRole('button', { name: 'Open Once only' }).click();
    const view = page.getByTestId('campaign-view');
    await expect(view).toBeVisible();
    await expect(page.getByTestId('campaign-state')).toContainText('Started');
    await expect(page.getByTestId('campaign-state')).toContainText(serviceId);
    await expect(
      view.getByTestId('campaign-timeline').locator('li[data-step="start"][data-outcome="ok"]'),
    ).toHaveCount(1);
    await expect(campaigns.launchButton).toHaveCount(0);
    await expect(campaigns.field('Campaign name')).toHaveValue('Once only');
    await expect(campaigns.field('Campaign name')).toBeDisabled();
    await expect(campaigns.field('Campaign start')).toBeDisabled();

    // Duplicate: a new draft with its settings; the builder and the confirmation warn of the overlap.
    await view.getByRole('button', { name: 'Duplicate as new campaign' }).click();
    await expect(campaigns.field('Campaign name')).toHaveValue('Once only (copy)');
    await expect(campaigns.field('Campaign name')).toBeEnabled();
    const overlap = new RegExp(`^${list.valid} contacts are also in Once only \\(${list.valid}\\)`);
    await expect(page.getByTestId('overlap-warning')).toHaveText(overlap);
    await campaigns.field('Campaign start').fill(pickerValue(now + 20 * 60_000));
    await expect(campaigns.launchButton).toBeEnabled();
    const copyPlan = await planFigures(campaigns);
    await campaigns.launchButton.click();
    await expect(campaigns.confirmation).toBeVisible();
    await expect(campaigns.confirmationFact('overlaps')).toHaveText(overlap);
    await expect(campaigns.confirmation.getByTestId('confirmation-overlap')).toBeVisible();
    await expect(campaigns.confirmationFact('calls')).toHaveText(copyPlan.calls);
    await expect(campaigns.confirmationFact('credits-needed')).toHaveText(copyPlan.needed);
    await expect(campaigns.confirmationFact('credits-available')).toHaveText(copyPlan.available);
    await page.keyboard.press('Escape');
    await expect(campaigns.confirmation).toBeHidden();
    const s = await stats(sandbox);
    expect(s.start_attempts).toHaveLength(1);
    expect(s.starts.find((x) => x.bulk_list_id === serviceId)?.accepted).toBe(1);

    // The copy under the same name, a day later: the Campaigns list tells the two apart by start date.
    await campaigns.field('Campaign name').fill('Once only');
    await campaigns.field('Campaign start').fill(pickerValue(now + 86_400_000 + 20 * 60_000));
    await campaigns.launchConfirmed();
    await expect(campaigns.progress).toHaveAttribute('data-state', 'started', { timeout: 60_000 });
    await campaigns.backToList();
    await page.getByRole('button', { name: 'Refresh campaigns' }).click();
    const day = (ms: number) =>
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: TIME_ZONE }).format(ms);
    const names = campaigns.campaigns.locator('tbody th[data-col="name"]');
    await expect(names.filter({ hasText: /^Once only/ })).toHaveCount(2);
    for (const at of [now + 10 * 60_000, now + 86_400_000 + 20 * 60_000])
      await expect(names.filter({ hasText: `Once only (starts ${day(at)})` })).toHaveCount(1);
  });
});
