import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, HOST_READY, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/a11y.ts';
import type { Fault } from './support/campaignLaunch.ts';
import {
  advanceClock,
  control,
  countPosts,
  expectStartedOnce,
  expectStatus,
  fillGoodSettings,
  importList,
  launchNow,
  pickerValue,
  startBuilder,
  startedId,
  stats,
  TIME_ZONE,
  useSandboxWorkspace,
} from './support/campaignLaunch.ts';
import { startChildServer } from './support/childServer.ts';
import { writeCampaignList } from './support/campaignList.ts';

// Campaigns end to end in Chromium through the browser host (real back end, real SQLite) against a
// separate sandbox over real HTTP: generated lists imported in Contacts, the builder (agent panel,
// preview, settings, plan), launches of both flows, statuses as the sandbox clock advances, settings
// refused with nothing sent, and a launch prepared offline sent after confirmation.

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
