import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cleanInMemory } from '../shared/domain/contacts/index.ts';
import { generateContacts } from '../shared/testing/contactsGenerator.ts';
import type { Page } from '@playwright/test';
import type { DeskHost, SandboxService } from './fixtures.ts';
import { expect, HOST_READY, test } from './fixtures.ts';
import { AgentsPage } from './pages/AgentsPage.ts';
import { AppShell } from './pages/AppShell.ts';
import { ListAgentPanel } from './pages/ListAgentPanel.ts';
import { SettingsPage } from './pages/SettingsPage.ts';
import type { ChildServer } from './support/childServer.ts';
import { startChildServer } from './support/childServer.ts';

// The Agents section and the agent side of a contact list, in Chromium through the browser host
// (real back end, real SQLite, the built-in sandbox or a separate one over real HTTP).

const SANDBOX_AGENTS = ['Loan Repayment Reminder', 'Insurance Renewal', 'Delivery Feedback Survey'];

/** Stops the test's browser host and starts another on the same data folder; opens it on Agents. */
async function restartHost(page: Page, desk: DeskHost): Promise<{ agents: AgentsPage; host: ChildServer }> {
  await desk.stop();
  const host = await startChildServer({
    name: 'browser host (restarted)',
    script: 'electron/browser-host/main.ts',
    args: ['--port', '0', '--data', desk.dataDir, '--no-open'],
    ready: HOST_READY,
  });
  const [, origin, , token] = host.match;
  await page.goto('about:blank');
  const agents = new AgentsPage(page);
  await agents.shell.open(`${origin}/#token=${token}`);
  await agents.open();
  return { agents, host };
}

/** Adds a workspace on the test's own sandbox, makes it active and syncs its agents. */
async function useRemoteWorkspace(page: Page, deskUrl: string, sandbox: SandboxService): Promise<AgentsPage> {
  const settings = new SettingsPage(page);
  await settings.shell.open(deskUrl);
  await settings.open();
  await settings.add({ name: 'Remote', baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
  await settings.shell.workspaceSwitcher.selectOption({ label: 'Remote' });
  const agents = new AgentsPage(page);
  await agents.open();
  await agents.refreshButton.click();
  for (const name of SANDBOX_AGENTS) await expect(agents.agent(new RegExp(`^${name}`))).toBeVisible();
  return agents;
}

test.describe('agents', () => {
  test('the three sandbox agents are listed, searchable, and an agent’s prompt shows its placeholders', async ({
    page,
    desk,
  }) => {
    const agents = new AgentsPage(page);
    await agents.shell.open(desk.url);
    await agents.open();
    for (const name of SANDBOX_AGENTS) await expect(agents.agent(new RegExp(`^${name}`))).toBeVisible();
    await expect(agents.list.getByRole('listitem')).toHaveCount(3);
    await expect(agents.syncStatus).toContainText(/Last synced (less than a minute|\d+ minutes?) ago/);

    // Search narrows the list by name.
    await agents.search.fill('insur');
    await expect(agents.list.getByRole('listitem')).toHaveCount(1);
    await expect(agents.agent(/^Insurance Renewal/)).toBeVisible();
    await agents.search.fill('');
    await expect(agents.list.getByRole('listitem')).toHaveCount(3);

    // The versioned agent: two versions, the active one marked; its prompt's placeholders highlighted.
    await agents.select('Loan Repayment Reminder');
    const versions = agents.detail.getByRole('radio');
    await expect(versions).toHaveCount(2);
    await expect(agents.detail.locator('.version-choice').filter({ hasText: 'active' })).toHaveCount(1);
    for (const v of ['callee_name', 'loan_amount', 'due_date', 'city', 'language']) {
      await expect(agents.placeholder(v).first()).toContainText(`@{{${v}}}`);
    }
    // Every highlight is a placeholder of the prompt text, and the variable list says where each occurs.
    const promptText = (await agents.prompt.innerText()).replace(/variable /g, '');
    const marks = await agents.prompt.locator('mark.placeholder').count();
    expect(marks).toBe(promptText.match(/@\{\{\s*[A-Za-z0-9_.-]+\s*\}\}/g)?.length);
    const dueDate = agents.variables.locator('tr[data-variable="due_date"]');
    await expect(dueDate).toContainText(/line \d+/i);
    await expect(agents.variables.locator('tr[data-variable="mobile_number"]')).toContainText(
      'Always present',
    );
    await expect(agents.variables.locator('tr[data-variable="callee_name"]')).toContainText('Always present');
  });

  test('more agents than one page are synced, archived ones marked; a local draft comes from a pasted prompt', async ({
    page,
    desk,
    sandbox,
  }) => {
    // 23 s alone, 32 s beside another worker on 2 cores: the default 30 s is too tight.
    test.setTimeout(60_000);
    // 120 more agents on the sandbox (the listing pages by at most 100), every 40th archived.
    const seeded = await fetch(`${new URL(sandbox.baseUrl).origin}/_sandbox/agents`, {
      method: 'POST',
      headers: { 'X-API-KEY': sandbox.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ count: 120, archive_every: 40, name_prefix: 'Seeded agent' }),
    });
    expect(seeded.status).toBe(200);
    const agents = await useRemoteWorkspace(page, desk.url, sandbox);
    await expect(agents.list.getByRole('listitem')).toHaveCount(123);
    await agents.search.fill('Seeded agent 40');
    await expect(agents.list.getByRole('listitem')).toHaveCount(1);
    await expect(agents.agent(/^Seeded agent 40/)).toContainText('archived');
    await agents.select('Seeded agent 40');
    await expect(
      agents.detail.getByRole('note').filter({ hasText: 'archived on the service' }),
    ).toBeVisible();
    await agents.search.fill('Seeded agent 39');
    await expect(agents.agent(/^Seeded agent 39/)).not.toContainText('archived');
    await agents.search.fill('');

    // A local draft: its variables are the prompt's placeholders; it is marked local, has no webhooks.
    await page.getByRole('button', { name: 'New local draft' }).click();
    const dialog = agents.dialog('New local draft agent');
    await dialog.getByRole('button', { name: 'Make draft' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Pasted prompt');
    await dialog
      .getByRole('textbox', { name: 'Prompt' })
      .fill('Hi @{{callee_name}}, your EMI of @{{emi}} is due on @{{due_date}}.');
    await expect(dialog).toContainText('Variables found: callee_name, emi, due_date');
    await dialog.getByRole('button', { name: 'Make draft' }).click();
    await expect(dialog).toBeHidden();
    await expect(agents.agent(/^Pasted prompt/)).toContainText('local draft');
    await expect(agents.detail.getByRole('heading', { level: 2, name: 'Pasted prompt' })).toBeVisible();
    await expect(
      agents.detail.getByRole('note').filter({ hasText: 'no campaign or call can be launched' }),
    ).toBeVisible();
    for (const v of ['callee_name', 'emi', 'due_date']) await expect(agents.placeholder(v)).toBeVisible();
    await expect(agents.variables.locator('tr[data-variable="emi"]')).toContainText('Line 1');
    await expect(agents.subscriptions).toHaveCount(0);
  });

  test.describe('against a sandbox that checks a bearer token', () => {
    test.use({ sandboxOptions: { bearer: true } });

    test('an event subscription is added, saved, kept over a restart, edited and removed', async ({
      page,
      desk,
      sandbox,
    }) => {
      test.setTimeout(120_000);
      const secret = `tok-${randomBytes(8).toString('hex')}`;
      let again: ChildServer | null = null;
      try {
        // A workspace on a separate sandbox, first without a bearer token.
        let agents = await useRemoteWorkspace(page, desk.url, sandbox);
        await agents.select('Insurance Renewal');
        await expect(agents.subscriptions.getByTestId('subscriptions-empty')).toBeVisible();

        // Add: the form checks the address before anything is sent, naming the field.
        await agents.subscriptions.getByRole('button', { name: 'Add subscription' }).click();
        let dialog = agents.dialog('Add subscription');
        await dialog.getByRole('checkbox', { name: /^Call completed/ }).check();
        await dialog.getByLabel('Callback URL').fill('ftp://hooks.example.com/x');
        await dialog.getByRole('button', { name: 'Done' }).click();
        await expect(
          dialog.getByText('Callback URL must be a full http:// or https:// address.'),
        ).toBeVisible();
        await expect(dialog.getByLabel('Callback URL')).toBeFocused();
        await dialog.getByLabel('Callback URL').fill('http://127.0.0.1:9/hooks/first');
        await dialog.getByRole('combobox', { name: 'Method' }).selectOption('PUT');
        await dialog.getByRole('button', { name: 'Add header' }).click();
        await dialog.getByLabel('Header 1 name').fill('X-Token');
        await dialog.getByLabel('Header 1 value').fill(secret);
        await dialog.getByRole('button', { name: 'Done' }).click();
        await expect(dialog).toBeHidden();
        await expect(agents.subscription(1)).toContainText('http://127.0.0.1:9/hooks/first');
        await expect(agents.subscription(1)).toContainText('X-Token: ');
        await expect(agents.subscriptions).not.toContainText(secret);

        // Without a bearer token the service answers 401: said in plain words, the edit kept as a draft.
        await agents.save();
        const outcome = agents.subscriptions.getByTestId('subscriptions-outcome');
        await expect(outcome).toContainText('needs a bearer token');
        await outcome.getByRole('link', { name: 'Open Settings → Workspaces' }).click();
        const settings = new SettingsPage(page);
        await expect(settings.row('Remote')).toBeVisible();
        await settings.edit('Remote', { bearerToken: sandbox.bearerToken! });
        await agents.open();
        await agents.select('Insurance Renewal');
        await expect(agents.subscriptions.getByRole('note')).toContainText('Unsaved draft');
        await expect(agents.subscription(1)).toContainText('http://127.0.0.1:9/hooks/first');
        await agents.save();
        await expect(outcome).toContainText('Saved');
        await expect(agents.subscriptions.getByRole('note')).toHaveCount(0);

        // Restart the host on the same data folder: the subscription is read back (value masked).
        ({ agents, host: again } = await restartHost(page, desk));
        await agents.select('Insurance Renewal');
        await expect(agents.subscription(1)).toContainText('http://127.0.0.1:9/hooks/first');
        await expect(agents.subscription(1)).toContainText('PUT');
        await expect(agents.subscription(1)).toContainText('X-Token: ');
        await expect(agents.subscription(1)).toContainText('Call completed');
        await expect(page.locator('body')).not.toContainText(secret);

        // Edit: a new address and event, the header's stored value kept (left blank).
        await agents.subscription(1).getByRole('button', { name: 'Edit subscription 1' }).click();
        dialog = agents.dialog('Edit subscription 1');
        await expect(dialog.getByLabel('Header 1 value')).toHaveValue('');
        await dialog.getByLabel('Callback URL').fill('https://hooks.example.com/edited');
        await dialog.getByRole('checkbox', { name: /^All processing done/ }).check();
        await dialog.getByRole('button', { name: 'Done' }).click();
        await agents.save();
        await expect(outcome).toContainText('Saved');
        await expect(agents.subscription(1)).toContainText('https://hooks.example.com/edited');
        await expect(agents.subscription(1)).toContainText('All processing done');
        await expect(agents.subscription(1)).toContainText('X-Token: ');

        // The saved list is read again from a fresh detail.
        await agents.select('Loan Repayment Reminder');
        await agents.select('Insurance Renewal');
        await expect(agents.subscription(1)).toContainText('https://hooks.example.com/edited');

        // Remove it.
        await agents.subscription(1).getByRole('button', { name: 'Remove subscription 1' }).click();
        await expect(agents.subscriptions.getByTestId('subscriptions-empty')).toBeVisible();
        await agents.save();
        await expect(outcome).toContainText('Saved');
        await agents.select('Loan Repayment Reminder');
        await agents.select('Insurance Renewal');
        await expect(agents.subscriptions.getByTestId('subscriptions-empty')).toBeVisible();
      } finally {
        await again?.stop();
      }
    });
  });

  test('with the sandbox stopped, the cached agents stay listed with their age, and a subscription save is kept as a draft', async ({
    page,
    desk,
    sandbox,
  }) => {
    // It restarts the browser host (up to the fixture's 60 s start-up bound on a loaded machine).
    test.setTimeout(90_000);
    const agents = await useRemoteWorkspace(page, desk.url, sandbox);
    await expect(agents.syncStatus).toContainText('Last synced less than a minute ago');

    await sandbox.stop();
    await agents.refreshButton.click();
    await expect(agents.syncStatus).toContainText('Refresh failed');
    await expect(agents.syncStatus).toContainText('Showing the agents synced less than a minute ago');
    await expect(agents.list.getByRole('listitem')).toHaveCount(3);
    // The detail comes from the local copy too.
    await agents.select('Loan Repayment Reminder');
    await expect(agents.placeholder('due_date').first()).toBeVisible();

    // The editor works offline; Save says the service cannot be reached and keeps a draft, which a
    // restart does not lose.
    await agents.subscriptions.getByRole('button', { name: 'Add subscription' }).click();
    const dialog = agents.dialog('Add subscription');
    await dialog.getByLabel('Callback URL').fill('https://hooks.example.com/offline');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await agents.save();
    const outcome = agents.subscriptions.getByTestId('subscriptions-outcome');
    await expect(outcome).toContainText('Kept as a draft');
    const restarted = await restartHost(page, desk);
    try {
      await restarted.agents.select('Loan Repayment Reminder');
      await expect(restarted.agents.subscriptions.getByRole('note')).toContainText('Unsaved draft');
      await expect(restarted.agents.subscription(1)).toContainText('https://hooks.example.com/offline');
      await expect(restarted.agents.agent(/^Loan Repayment Reminder/)).toContainText('unsaved webhooks');
      await expect(restarted.agents.list.getByRole('listitem')).toHaveCount(3);
    } finally {
      await restarted.host.stop();
    }
  });

  test('in the 10k messy list the lint names the empty Due Date rows, filters to them, follows edit and undo; the preview steps rows; the upload carries the mapped columns', async ({
    page,
    desk,
  }) => {
    test.setTimeout(120_000);
    const dir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-agents-'));
    try {
      const file = path.join(dir, 'gen-10000-42.csv');
      await writeFile(file, generateContacts({ rows: 10_000, seed: 42 }).bytes);
      // What the lint must find, from the engine itself: valid rows whose Due Date is blank.
      const engine = await cleanInMemory(await readFile(file), { country: 'IN' }, { includeCells: true });
      const header = engine.setup.header;
      const dueIndex = header.indexOf('Due Date');
      const cellsByRow = new Map<number, string[]>();
      const emptyDue: number[] = [];
      for (const b of engine.blocks) {
        b.rowNumbers.forEach((row, i) => {
          const cells = b.cells![i]!;
          cellsByRow.set(row, [...cells]);
          if (b.buckets[i] === 0 && (cells[dueIndex] ?? '').trim() === '') emptyDue.push(row);
        });
      }
      expect(emptyDue.length).toBeGreaterThan(0);

      const shell = new AppShell(page);
      await shell.open(desk.url);
      await shell.goTo('Contacts');
      await page.getByLabel('Choose a CSV file').setInputFiles(file);
      await expect(page.getByTestId('summary')).toBeVisible({ timeout: 60_000 });

      const panel = new ListAgentPanel(page);
      await panel.agent.selectOption({ label: 'Loan Repayment Reminder' });
      await expect(panel.column('due_date')).toHaveValue('Due Date');
      await expect(panel.column('loan_amount')).toHaveValue('Loan Amount');
      await panel.column('callee_name').selectOption('Name');

      // The lint names the empty Due Date rows with their count.
      const lintDue = panel.emptyColumn('Due Date');
      await expect(lintDue).toContainText(
        `Due Date is empty in ${emptyDue.length.toLocaleString('en-US')} rows`,
      );
      await expect(panel.lint.getByTestId('lint-unused')).toContainText('Email');

      // The preview steps rows: row 2 first, then j moves to row 3, k back; values as in the file.
      const firstValid = (row: number) => cellsByRow.get(row)!;
      await expect(panel.position).toContainText(/^Row 2 · 1 of 10,000/);
      const loanOf = (row: number) => firstValid(row)[header.indexOf('Loan Amount')]!.trim();
      if (loanOf(2)) await expect(panel.value('loan_amount').first()).toHaveText(loanOf(2));
      await panel.previewText.focus();
      await page.keyboard.press('j');
      await expect(panel.position).toContainText(/^Row 3 · 2 of 10,000/);
      if (loanOf(3)) await expect(panel.value('loan_amount').first()).toHaveText(loanOf(3));
      const cityOf3 = firstValid(3)[header.indexOf('City')]!.trim();
      if (cityOf3) await expect(panel.value('city').first()).toHaveText(cityOf3);
      await page.keyboard.press('ArrowDown');
      await expect(panel.position).toContainText(/^Row 4 · 3 of 10,000/);
      await page.keyboard.press('k');
      await expect(panel.position).toContainText(/^Row 3 · 2 of 10,000/);

      // Next row with a problem: a row with a missing value, flagged in the preview.
      await page.keyboard.press('n');
      await expect(panel.position).toContainText('missing');
      await expect(panel.previewText.locator('mark.preview-missing').first()).toBeVisible();

      // A click on the lint line filters the grid to exactly those rows.
      await lintDue.click();
      await expect(lintDue).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByTestId('grid-total')).toHaveText(
        `${emptyDue.length.toLocaleString('en-US')} rows`,
      );
      const gridRows = page.getByRole('grid').locator('.grid-row[data-row]');
      await expect(gridRows.first()).toHaveAttribute('data-row', String(emptyDue[0]));
      const shown = await gridRows.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-row'))));
      expect(shown).toEqual(emptyDue.slice(0, shown.length));
      // The preview follows the filter: the first such row, its due date flagged missing.
      await expect(panel.position).toContainText(
        `Row ${emptyDue[0]} · 1 of ${emptyDue.length.toLocaleString('en-US')}`,
      );
      await expect(panel.missing('due_date').first()).toContainText('Due Date is empty');

      // With "extract first name", the preview shows the name the service would use and the original.
      await page.getByRole('checkbox', { name: 'Extract first name' }).check();
      const original = firstValid(emptyDue[0]!)[header.indexOf('Name')]!;
      await expect(page.getByTestId('preview-first-name')).toContainText(
        original.trim().replace(/\s+/g, ' '),
      );

      // The counts come from SQLite and follow edits and undo: fill one empty Due Date, then undo it.
      const grid = page.getByRole('grid');
      await grid.focus();
      for (let i = 0; i < dueIndex; i++) await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      const editor = grid.getByRole('textbox', { name: `Due Date, row ${emptyDue[0]}` });
      await editor.fill('31/12/2026');
      await editor.press('Enter');
      const fewer = (emptyDue.length - 1).toLocaleString('en-US');
      await expect(lintDue).toContainText(`Due Date is empty in ${fewer} rows`);
      await expect(page.getByTestId('grid-total')).toHaveText(`${fewer} rows`);
      await page.getByRole('button', { name: `Undo: Edit of row ${emptyDue[0]}` }).click();
      await expect(lintDue).toContainText(
        `Due Date is empty in ${emptyDue.length.toLocaleString('en-US')} rows`,
      );
      // The preview shows the row selected in the grid.
      await grid.focus();
      await page.keyboard.press('ArrowDown');
      await expect(panel.position).toContainText(`Row ${emptyDue[1]} · 2 of`);

      // The upload for this agent carries just the mapped columns (under their header names), and the
      // launch's variables_map is derived from the same mapping.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: /^Download upload CSV/ }).click(),
      ]);
      const upload = await readFile(await download.path(), 'utf8');
      const uploadHeader = upload.slice(0, upload.indexOf('\n')).replace(/\r$/, '').split(',');
      const variablesMap = JSON.parse(
        (await page.getByTestId('variables-map').locator('code').textContent()) ?? '{}',
      ) as Record<string, string>;
      expect(Object.keys(variablesMap)).toEqual(
        expect.arrayContaining(['callee_name', 'loan_amount', 'due_date']),
      );
      expect(uploadHeader[0]).toBe('Mobile Number');
      expect(variablesMap.mobile_number).toBe('Mobile Number');
      expect([...uploadHeader].sort()).toEqual(Object.values(variablesMap).sort());
      expect(uploadHeader).not.toContain('Email');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
