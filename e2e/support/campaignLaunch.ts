import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import type { SandboxService } from '../fixtures.ts';
import { AgentsPage } from '../pages/AgentsPage.ts';
import { CampaignsPage } from '../pages/CampaignsPage.ts';
import { SettingsPage } from '../pages/SettingsPage.ts';
import type { CampaignList } from './campaignList.ts';

// Launching a campaign as an operator does, for the specs that need one running on the sandbox
// (campaigns, calls-live): the sandbox's control API (clock, stats, faults), the workspace with its
// agents, a generated list imported in Contacts, the builder filled with settings that pass, and
// the launch followed to its service id.

export const AGENT = 'Loan Repayment Reminder';
export const TIME_ZONE = 'Asia/Kolkata';

export interface Stats {
  clock: { now: string };
  starts: { bulk_list_id: string; accepted: number; refused: number }[];
  start_attempts: unknown[];
  calls_by_status: Record<string, number>;
}
export interface Fault {
  id: number;
  hits: number;
}

export async function control<T>(
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
export const stats = (sandbox: SandboxService) => control<Stats>(sandbox, 'stats?deliveries_limit=0');
export const advanceClock = (sandbox: SandboxService, seconds: number) =>
  control(sandbox, 'clock', 'POST', { advance_seconds: seconds });

/** Counts every POST the service receives (a zero-latency fault only counts hits). */
export async function countPosts(sandbox: SandboxService): Promise<() => Promise<number>> {
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
export function pickerValue(ms: number): string {
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
export async function useSandboxWorkspace(page: Page, deskUrl: string, sandbox: SandboxService) {
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

export async function importList(page: Page, list: CampaignList) {
  const campaigns = new CampaignsPage(page);
  await campaigns.shell.goTo('Contacts');
  await page.getByLabel('Choose a CSV file').setInputFiles(list.file);
  await expect(page.getByTestId('summary')).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[data-count="valid"]')).toHaveText(list.valid.toLocaleString('en-US'));
}

/** New campaign on `listName` for the agent, callee_name from Name; the preview shows row 2's values. */
export async function startBuilder(page: Page, listName: string, list: CampaignList): Promise<CampaignsPage> {
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
export async function fillGoodSettings(campaigns: CampaignsPage, name: string, nowMs: number) {
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

export async function expectStartedOnce(sandbox: SandboxService, serviceId: string) {
  const s = await stats(sandbox);
  const starts = s.starts.filter((x) => x.bulk_list_id === serviceId);
  expect(starts.map((x) => x.accepted)).toEqual([1]);
}

/** Launch while the service answers: confirmed once, it goes out at once, nothing waits in the queue. */
export async function launchNow(campaigns: CampaignsPage, name: string) {
  await campaigns.launchConfirmed();
  await expect(campaigns.progress).toHaveAttribute('data-state', /^(pending|waiting|started)$/);
  await expect(campaigns.page.getByRole('button', { name: `Send ${name} now` })).toHaveCount(0);
}

/** The launch's service id, shown in its progress once started. */
export async function startedId(campaigns: CampaignsPage): Promise<string> {
  await expect(campaigns.progress).toHaveAttribute('data-state', 'started', { timeout: 60_000 });
  const text = await campaigns.progress.getByRole('status').innerText();
  const id = /id (\S+)/.exec(text)?.[1];
  expect(id, text).toBeTruthy();
  return id!;
}

/** Refresh the list until the campaign's status reads `status`, advancing the sandbox clock meanwhile. */
export async function expectStatus(campaigns: CampaignsPage, name: string, status: RegExp) {
  await expect(async () => {
    await campaigns.page.getByRole('button', { name: 'Refresh campaigns' }).click();
    await expect(campaigns.campaignRow(name).locator('[data-col="status"]').first()).toHaveText(status, {
      timeout: 2_000,
    });
  }).toPass({ timeout: 30_000 });
}
