import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';
import { CallsPage, useSandboxWorkspace } from './pages/CallsPage.ts';
import { CAMPAIGN_OUTCOMES } from '../shared/ipc/channels/calls.ts';
import { seedRecentCalls } from './support/sandboxControl.ts';

// Campaign results end to end: a contact list "launched" as a bulk list whose calls the sandbox
// made, synced, shown row by row with each contact's latest outcome; the no answer + busy +
// voicemail rows become a new contact list in one click.
//
// Launching campaigns is a later issue, so the test writes the one row a launch records
// (campaign_lists: this list went out as that bulk_list_id) straight into the app's SQLite file.

const BULK_LIST_ID = 'bl-e2e-followup';
const SEEDED = 120;
const NEVER_CALLED = ['+919999900001', '+919999900002', '+919999900003'];

test.describe('calls: campaign results', () => {
  test.describe.configure({ timeout: 120_000 });

  test('build a follow-up list from campaign results (no answer + busy + voicemail)', async ({
    page,
    desk,
    sandbox,
  }) => {
    const now = Date.now();
    const history = await seedRecentCalls(sandbox, SEEDED, 3, BULK_LIST_ID);
    expect(history).toHaveLength(SEEDED);

    // The contact list that went out: every called number once, plus numbers not called yet.
    const called = [...new Map(history.map((c) => [c.to_number!, c.name ?? ''])).entries()];
    const lines = [
      'Name,Mobile Number',
      ...called.map(([phone, name]) => `${name},${phone}`),
      ...NEVER_CALLED.map((phone, i) => `Waiting ${i + 1},${phone}`),
    ];
    const rows = called.length + NEVER_CALLED.length;

    const shell = new AppShell(page);
    await shell.open(desk.url);
    await useSandboxWorkspace(page, sandbox);
    await shell.goTo('Contacts');
    await page.getByLabel('Choose a CSV file').setInputFiles({
      name: 'launched.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${lines.join('\n')}\n`),
    });
    await expect(page.locator('[data-count="valid"]')).toHaveText(rows.toLocaleString('en-US'), {
      timeout: 30_000,
    });
    const ids = await page.evaluate(async () => {
      const lists = await window.desk!.contacts.lists();
      const workspaces = await window.desk!.workspaces.list();
      if (!lists.ok || !workspaces.ok) throw new Error('could not read lists or workspaces');
      return {
        listId: lists.value.lists.find((l) => l.name.startsWith('launched'))!.id,
        workspaceId: workspaces.value.activeId!,
      };
    });
    const db = new Database(path.join(desk.dataDir, 'campaign-desk.sqlite'));
    try {
      db.pragma('busy_timeout = 10000');
      db.prepare(
        'INSERT INTO campaign_lists (workspace_id, bulk_list_id, list_id, launched_at) VALUES (?, ?, ?, ?)',
      ).run(ids.workspaceId, BULK_LIST_ID, ids.listId, new Date(now - 4 * 3600_000).toISOString());
    } finally {
      db.close();
    }

    const calls = new CallsPage(page);
    await calls.open();
    await calls.syncAndWait();
    await expect(calls.figure('calls')).toHaveText(String(SEEDED));

    await calls.tab('Campaign results').click();
    const campaign = page.getByRole('combobox', { name: 'Campaign' });
    await expect(campaign.locator('option:checked')).toHaveText(/^launched/);

    // Every contact row has exactly one outcome; the numbers never called are "not called yet".
    const counts: Record<string, number> = {};
    for (const outcome of CAMPAIGN_OUTCOMES) {
      const cell = page.locator(`[data-outcome="${outcome}"]`);
      await expect(cell).toHaveText(/^\d[\d,]*$/);
      counts[outcome] = Number((await cell.textContent())!.replace(/,/g, ''));
    }
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(rows);
    expect(counts.not_called).toBe(NEVER_CALLED.length);

    // No answer + busy + voicemail are chosen by default: the table shows those rows only.
    const followUp = counts.no_answer! + counts.busy! + counts.voicemail!;
    expect(followUp).toBeGreaterThan(0);
    for (const label of ['No answer', 'Busy or unreachable', 'Voicemail']) {
      await expect(page.getByRole('checkbox', { name: new RegExp(`^${label} \\(`) })).toBeChecked();
    }
    for (const label of ['Not called yet', 'In progress', 'Completed', 'Failed']) {
      await expect(page.getByRole('checkbox', { name: new RegExp(`^${label} \\(`) })).not.toBeChecked();
    }
    await expect(page.getByTestId('results-total')).toHaveText(
      `${followUp.toLocaleString('en-US')} contacts with these outcomes`,
    );
    const table = page.getByRole('grid', { name: 'Campaign results' });
    const shown = await table.locator('[role="row"][data-key] .call-status').allTextContents();
    expect(shown.length).toBeGreaterThan(0);
    expect(new Set(shown).size).toBeLessThanOrEqual(3);
    for (const outcome of shown) expect(['No answer', 'Busy or unreachable', 'Voicemail']).toContain(outcome);

    // One click: a new contact list of exactly those rows.
    await page.getByRole('textbox', { name: 'New list name' }).fill('Call again');
    await page.getByRole('button', { name: /^Create follow-up list/ }).click();
    await expect(page.getByTestId('follow-up-created')).toHaveText(
      `Created the list “Call again” with ${followUp.toLocaleString('en-US')} contacts.`,
    );
    await page.getByRole('button', { name: 'Open “Call again” in Contacts' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible();
    await expect(page.locator('[data-count="valid"]')).toHaveText(followUp.toLocaleString('en-US'));
    // Exactly the numbers of the rows with those outcomes; none of the numbers not called yet.
    const { inList, expected } = await page.evaluate(
      async ({ listName, bulkListId }) => {
        const lists = await window.desk!.contacts.lists();
        if (!lists.ok) throw new Error(lists.error.message);
        const list = lists.value.lists.find((l) => l.name === listName)!;
        const got = await window.desk!.contacts.rows({
          listId: list.id,
          filter: 'all',
          offset: 0,
          limit: 500,
        });
        if (!got.ok) throw new Error(got.error.message);
        const results = await window.desk!.calls.campaignResults({
          bulkListId,
          outcomes: ['no_answer', 'busy', 'voicemail'],
          offset: 0,
          limit: 500,
        });
        if (!results.ok) throw new Error(results.error.message);
        return {
          inList: got.value.rows.map((r) => r.e164),
          expected: results.value.rows.map((r) => r.phone),
        };
      },
      { listName: 'Call again', bulkListId: BULK_LIST_ID },
    );
    expect(inList).toHaveLength(followUp);
    expect([...inList].sort()).toEqual([...expected].sort());
    for (const phone of NEVER_CALLED) expect(inList).not.toContain(phone.slice(1));
  });
});
