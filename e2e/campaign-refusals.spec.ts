import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import { AgentsPage } from './pages/AgentsPage.ts';
import { CampaignsPage } from './pages/CampaignsPage.ts';

// What a new user met: a list whose Loan Amount is empty in some rows, an agent that needs it. The
// Summary counts those rows per variable, the builder's launch checklist blocks the launch with the
// reason while "Remove invalid rows" is off (the service would refuse the whole file), says how
// many rows the service will drop when it is on, and one click excludes them (Launch enabled),
// with Undo. In Chromium through the browser host and its built-in Sandbox workspace.

const AGENT = 'Loan Repayment Reminder';
const EMPTY_ROWS = [4, 9, 15]; // spreadsheet rows whose Loan Amount is blank

function writeList(dir: string): string {
  const lines = ['Name,Mobile Number,Loan Amount,Due Date,City,Language'];
  for (let i = 0; i < 20; i++) {
    const row = i + 2;
    const amount = EMPTY_ROWS.includes(row) ? '' : String(5000 + i * 100);
    lines.push(`Customer ${i},+91 98${String(i).padStart(8, '0')},${amount},15/12/2026,Pune,Hindi`);
  }
  const file = path.join(dir, 'loan-refusals.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

test.describe('campaign refusals', () => {
  test.describe.configure({ timeout: 120_000 });
  let dir = '';
  test.beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-refusals-'));
  });
  test.afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('a list with empty variables: Launch blocked with the reason; excluded in one click, Launch enabled', async ({
    page,
    desk,
  }) => {
    const agents = new AgentsPage(page);
    await agents.shell.open(desk.url);
    await agents.open();
    await agents.refreshButton.click();
    await expect(agents.agent(new RegExp(`^${AGENT}`))).toBeVisible();

    // Contacts: the list, its agent, the Summary's count of rows with the variable missing.
    const campaigns = new CampaignsPage(page);
    await campaigns.shell.goTo('Contacts');
    await page.getByLabel('Choose a CSV file').setInputFiles(writeList(dir));
    await expect(page.getByTestId('summary')).toBeVisible({ timeout: 60_000 });
    await campaigns.agentPanel.agent.selectOption({ label: AGENT });
    const summary = page.locator('.summary').getByTestId('empty-variables');
    await expect(summary.locator('[data-empty-variable="loan_amount"]')).toHaveText('3');
    await expect(summary.locator('[data-count="service-refusals"]')).toHaveText('3');
    // The figure filters the grid to those rows.
    await summary.getByRole('button', { name: /^Variable missing: loan_amount/ }).click();
    await expect(page.getByRole('grid')).toHaveAttribute('aria-rowcount', String(EMPTY_ROWS.length + 1));

    // The builder: blocked with the reason while Remove invalid rows is off.
    await campaigns.open();
    await campaigns.newCampaign();
    await campaigns.chooseList('loan-refusals');
    await campaigns.agentPanel.agent.selectOption({ label: AGENT });
    const remove = page.getByRole('checkbox', { name: /^Remove invalid rows/ });
    await expect(remove).toBeChecked();
    const notes = page.getByTestId('launch-notes');
    await expect(notes).toContainText('The service will drop 3 rows with an empty variable');
    await remove.uncheck();
    await expect(campaigns.blockers).toContainText(
      'Variable loan_amount: column Loan Amount is empty in 3 rows to call',
    );
    await expect(campaigns.launchButton).toBeDisabled();

    // One click excludes them: nothing left to refuse, Launch enabled; Undo brings the block back.
    const checklist = page.locator('.campaign-builder').getByTestId('empty-variables');
    await checklist.getByRole('button', { name: 'Exclude 3 rows with an empty variable' }).click();
    await expect(checklist.locator('[data-count="service-refusals"]')).toHaveText('0');
    await expect(campaigns.blockers).toBeHidden();
    await expect(campaigns.launchButton).toBeEnabled();
    await checklist.getByRole('button', { name: 'Undo the exclusion' }).click();
    await expect(campaigns.blockers).toContainText('Loan Amount is empty in 3 rows');
    await expect(campaigns.launchButton).toBeDisabled();
  });
});
