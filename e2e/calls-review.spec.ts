import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';
import { CallsPage, useSandboxWorkspace } from './pages/CallsPage.ts';
import { sandboxControl, sandboxHistory } from './support/sandboxControl.ts';

// Calls review tells the truth and follows a running campaign, in Chromium through the browser host
// against a separate sandbox: the campaign's counters move with nobody clicking Sync, the time of
// a call is when it was dialled, and after a terminate its contacts never dialled read "Not called
// (terminated)". The launch itself is the campaigns feature's (its own specs): like
// calls-results.spec.ts, the test writes the rows a launch records into the app's SQLite file.

const BULK_LIST_ID = 'bl-e2e-review';
const CAMPAIGN = 'Review campaign';
const DIALLED = 12;
const QUEUED = 20;

test.describe('calls: review and live progress', () => {
  test.describe.configure({ timeout: 240_000 });

  test('a running campaign moves by itself; a call shows its attempt time; terminated contacts read "Not called (terminated)"', async ({
    page,
    desk,
    sandbox,
  }) => {
    // The campaign on the service: calls already made, and calls still queued.
    const now = Date.now();
    const span = {
      start_date: new Date(now - 20 * 60_000).toISOString(),
      end_date: new Date(now - 60_000).toISOString(),
    };
    await sandboxControl(sandbox, 'POST', '/seed-calls', {
      count: DIALLED,
      status: 'completed',
      bulk_list_id: BULK_LIST_ID,
      ...span,
    });
    await sandboxControl(sandbox, 'POST', '/seed-calls', {
      count: QUEUED,
      status: 'registered',
      bulk_list_id: BULK_LIST_ID,
      ...span,
    });
    const history = await sandboxHistory(
      sandbox,
      new Date(now - 3_600_000),
      new Date(now + 60_000),
      BULK_LIST_ID,
    );
    expect(history).toHaveLength(DIALLED + QUEUED);
    const dialled = history.find((c) => c.status === 'completed' && c.call_attempt_time)!;
    expect(dialled).toBeDefined();

    // The contact list that went out, imported as an operator does.
    const numbers = [...new Set(history.map((c) => c.to_number!))];
    const shell = new AppShell(page);
    await shell.open(desk.url);
    await useSandboxWorkspace(page, sandbox);
    await shell.goTo('Contacts');
    await page.getByLabel('Choose a CSV file').setInputFiles({
      name: 'review.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        ['Name,Mobile Number', ...numbers.map((n, i) => `Person ${i + 1},${n}`)].join('\n') + '\n',
      ),
    });
    await expect(page.locator('[data-count="valid"]')).toHaveText(String(numbers.length), {
      timeout: 30_000,
    });
    const ids = await page.evaluate(async () => {
      const lists = await window.desk!.contacts.lists();
      const workspaces = await window.desk!.workspaces.list();
      if (!lists.ok || !workspaces.ok) throw new Error('could not read lists or workspaces');
      return {
        listId: lists.value.lists.find((l) => l.name.startsWith('review'))!.id,
        workspaceId: workspaces.value.activeId!,
      };
    });
    const db = new Database(path.join(desk.dataDir, 'campaign-desk.sqlite'));
    try {
      db.pragma('busy_timeout = 10000');
      const at = new Date().toISOString();
      db.prepare(
        'INSERT INTO campaign_lists (workspace_id, bulk_list_id, list_id, launched_at) VALUES (?, ?, ?, ?)',
      ).run(ids.workspaceId, BULK_LIST_ID, ids.listId, at);
      db.prepare(
        `INSERT INTO campaign_launches (id, workspace_id, list_id, name, agent_id, flow, state, step, settings,
           upload_file, bulk_list_id, valid, created_at, updated_at)
         VALUES ('launch-e2e-review', ?, ?, ?, 'agent', 'large', 'started', 'make-call-async', '{}', 'u.csv', ?, ?, ?, ?)`,
      ).run(ids.workspaceId, ids.listId, CAMPAIGN, BULK_LIST_ID, numbers.length, at, at);
    } finally {
      db.close();
    }

    // Campaigns: the counters fill in and move with no click (the app polls the running campaign
    // while the sandbox dials its queued calls).
    await shell.goTo('Campaigns');
    const row = page.locator(`[data-live-campaign="${CAMPAIGN}"]`);
    const cell = (col: string) => row.locator(`[data-col="${col}"]`);
    await expect(cell('state')).toHaveText('Running', { timeout: 60_000 });
    await expect(cell('dialled')).not.toHaveText('0', { timeout: 90_000 });
    const left = (await cell('left').textContent())!;
    const dialledSoFar = (await cell('dialled').textContent())!;
    // Time passes on the service: more queued calls are dialled (nobody touches the app).
    await sandboxControl(sandbox, 'POST', '/clock', { advance_seconds: 600 });
    await expect(async () => {
      const now = [await cell('left').textContent(), await cell('dialled').textContent()];
      expect(now).not.toEqual([left, dialledSoFar]);
    }).toPass({ timeout: 90_000, intervals: [250] });

    // Terminated: the calls still queued are cancelled before they are dialled.
    const res = await fetch(`${sandbox.baseUrl}/campaign/terminate`, {
      method: 'PATCH',
      headers: { 'X-API-KEY': sandbox.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ campaign_id: BULK_LIST_ID }),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect((JSON.parse(text) as { terminated_count: number }).terminated_count).toBeGreaterThan(0);
    // The contacts whose latest call the terminate cancelled, as the service lists them.
    const after = await sandboxHistory(
      sandbox,
      new Date(now - 3_600_000),
      new Date(Date.now() + 60_000),
      BULK_LIST_ID,
    );
    const latest = new Map<string, (typeof after)[number]>();
    for (const c of after) {
      const seen = latest.get(c.to_number!);
      if (!seen || Date.parse(c.created_at) > Date.parse(seen.created_at)) latest.set(c.to_number!, c);
    }
    const stopped = [...latest.values()].filter(
      (c) => c.status === 'cancelled' && c.sub_status === 'USER_TERMINATED',
    ).length;
    expect(stopped).toBeGreaterThan(0);

    // Campaign results: those contacts read "Not called (terminated)", not "Failed".
    const calls = new CallsPage(page);
    await calls.open();
    await calls.tab('Campaign results').click();
    await expect(page.locator('[data-outcome="not_called_terminated"]')).toHaveText(String(stopped), {
      timeout: 90_000,
    });
    const terminated = page.getByRole('checkbox', { name: /^Not called \(terminated\) \(/ });
    await terminated.check();
    for (const other of ['No answer', 'Busy or unreachable', 'Voicemail'])
      await page.getByRole('checkbox', { name: new RegExp(`^${other} \\(`) }).uncheck();
    await expect(page.getByTestId('results-total')).toHaveText(`${stopped} contacts with these outcomes`);
    const outcomes = await page
      .getByRole('grid', { name: 'Campaign results' })
      .locator('[role="row"][data-key] .call-status')
      .allTextContents();
    expect(outcomes.length).toBeGreaterThan(0);
    expect(new Set(outcomes)).toEqual(new Set(['Not called (terminated)']));

    // All calls: a call's time is its attempt time (its queued time shown apart), in the table and
    // in its detail; a call never dialled says so.
    await calls.tab('All calls').click();
    const callRow = calls.rows().filter({ hasText: dialled.to_number! });
    const time = callRow.locator('[data-attempted]');
    await expect(time).toHaveAttribute('data-attempted', new Date(dialled.call_attempt_time!).toISOString());
    const shown = await time.textContent();
    await callRow.click();
    await expect(page.getByTestId('call-time')).toHaveText(shown!);
    await page.getByRole('button', { name: 'Back to calls' }).click();
    await calls.filter('Outcome').selectOption({ label: 'Not called (terminated)' });
    await expect(calls.rows().filter({ hasText: 'Not dialled' }).first()).toBeVisible();
  });
});
