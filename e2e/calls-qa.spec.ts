import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';
import { CallsPage, useSandboxWorkspace } from './pages/CallsPage.ts';
import { expectNoAxeViolations } from './support/a11y.ts';
import { seedRecentCalls } from './support/sandboxControl.ts';

// QA review end to end in Chromium through the browser host (real back end, real SQLite, real HTTP
// against a separate sandbox): a campaign's calls synced, walked in the review queue with the
// keyboard (a note typed with j and k in it moves nothing), one marked reviewed and one flagged,
// then both found through the Calls filters, and the campaign's QA report downloaded.
//
// Launching is another feature: as in calls-results.spec.ts the test records the one row a launch
// writes (campaign_lists: this list went out as that bulk_list_id) in the app's SQLite file.

const BULK_LIST_ID = 'bl-e2e-qa';
const SEEDED = 24;
const NOTE = 'Asked to be called back; said j and k twice';

async function expectAccessible(page: Page, where: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(page, `${where} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('calls: QA review', () => {
  test.describe.configure({ timeout: 180_000 });

  test('review a call with the keyboard in the queue and find it by the reviewed filter; flag one and find it by reason', async ({
    page,
    desk,
    sandbox,
  }) => {
    const history = await seedRecentCalls(sandbox, SEEDED, 3, BULK_LIST_ID);
    expect(history).toHaveLength(SEEDED);
    // The queue walks the campaign oldest first (queued time, then id), as the calls table sorts.
    const order = [...history].sort(
      (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : 1),
    );

    const shell = new AppShell(page);
    await shell.open(desk.url);
    await useSandboxWorkspace(page, sandbox);
    await shell.goTo('Contacts');
    const numbers = [...new Set(history.map((c) => c.to_number!))];
    await page.getByLabel('Choose a CSV file').setInputFiles({
      name: 'qa-campaign.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `Name,Mobile Number\n${numbers.map((n, i) => `Person ${i + 1},${n}`).join('\n')}\n`,
      ),
    });
    await expect(page.locator('[data-count="valid"]')).toHaveText(numbers.length.toLocaleString('en-US'), {
      timeout: 30_000,
    });
    const ids = await page.evaluate(async () => {
      const lists = await window.desk!.contacts.lists();
      const workspaces = await window.desk!.workspaces.list();
      if (!lists.ok || !workspaces.ok) throw new Error('could not read lists or workspaces');
      return {
        listId: lists.value.lists.find((l) => l.name.startsWith('qa-campaign'))!.id,
        workspaceId: workspaces.value.activeId!,
      };
    });
    const db = new Database(path.join(desk.dataDir, 'campaign-desk.sqlite'));
    try {
      db.pragma('busy_timeout = 10000');
      db.prepare(
        'INSERT INTO campaign_lists (workspace_id, bulk_list_id, list_id, launched_at) VALUES (?, ?, ?, ?)',
      ).run(ids.workspaceId, BULK_LIST_ID, ids.listId, new Date(Date.now() - 4 * 3600_000).toISOString());
    } finally {
      db.close();
    }

    const calls = new CallsPage(page);
    await calls.open();
    await calls.syncAndWait();
    await expect(calls.figure('calls')).toHaveText(String(SEEDED));

    // The queue: the campaign's calls, none reviewed yet, the keys on screen.
    await page.getByRole('tab', { name: 'Review queue' }).click();
    await expect(page.getByRole('combobox', { name: 'Campaign' }).locator('option:checked')).toHaveText(
      /^qa-campaign/,
    );
    const progress = page.getByTestId('queue-progress');
    await expect(progress).toHaveText(`Call 1 of ${SEEDED} · ${SEEDED} not reviewed`);
    const keys = page.getByRole('group', { name: 'Review queue keys' });
    for (const key of ['J', 'K', 'R', 'F', 'N', 'Space'])
      await expect(keys.locator('kbd', { hasText: key })).toBeVisible();
    const number = page.getByTestId('queue-number');
    await expect(number).toHaveText(order[0]!.to_number!);

    // j and k walk; the heading of the call reached gets the focus.
    await page.keyboard.press('j');
    await expect(progress).toHaveText(`Call 2 of ${SEEDED} · ${SEEDED} not reviewed`);
    await expect(number).toHaveText(order[1]!.to_number!);
    await expect(page.getByTestId('queue-call')).toBeFocused();
    await page.keyboard.press('k');
    await expect(number).toHaveText(order[0]!.to_number!);

    // n: a note. Typing j and k in it moves nothing; Ctrl+Enter saves; Escape gives the keys back.
    await page.keyboard.press('n');
    const note = page.getByRole('textbox', { name: 'Note' });
    await expect(note).toBeFocused();
    await page.keyboard.type(NOTE);
    await expect(progress).toHaveText(`Call 1 of ${SEEDED} · ${SEEDED} not reviewed`);
    await page.keyboard.press('Control+Enter');
    await expect(page.getByTestId('review-state')).toContainText('Note saved');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('queue-call')).toBeFocused();

    // r: reviewed, and on to the next call.
    await page.keyboard.press('r');
    await expect(progress).toHaveText(`Call 2 of ${SEEDED} · ${SEEDED - 1} not reviewed`);
    await expect(number).toHaveText(order[1]!.to_number!);
    // The next call is shown and holds the focus before its key is pressed (a key sent while the
    // queue re-rendered went nowhere: a flake of the full run).
    await expect(page.getByTestId('queue-call')).toBeFocused();

    // f: the flag's reason; choosing one flags the call (and counts it reviewed).
    await page.keyboard.press('f');
    const flag = page.getByRole('combobox', { name: 'Flag reason' });
    await expect(flag).toBeFocused();
    await flag.selectOption({ label: 'Compliance' });
    await expect(page.getByTestId('review-state')).toContainText('Flagged: Compliance');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('queue-call')).toBeFocused();
    await page.keyboard.press('k');
    await page.keyboard.press('j');
    await expect(progress).toHaveText(`Call 2 of ${SEEDED} · ${SEEDED - 2} not reviewed`);
    await expectAccessible(page, 'the review queue');

    // Space plays and pauses the recording of a call that has one.
    const withAudio = order.findIndex((c, i) => i >= 1 && c.status === 'completed' && c.audio_recording);
    expect(withAudio).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < withAudio; i++) await page.keyboard.press('j');
    await expect(number).toHaveText(order[withAudio]!.to_number!);
    await expect(page.getByRole('button', { name: 'Play' })).toBeEnabled({ timeout: 30_000 });
    // The sandbox's recordings last a couple of seconds: looped, the pause is Space's and not the end's;
    // the element's events are recorded rather than sampled.
    await calls.audio.evaluate((a: HTMLAudioElement) => {
      a.loop = true;
      a.addEventListener('playing', () => (a.dataset.played = 'yes'));
      a.addEventListener('pause', () => (a.dataset.paused = 'yes'));
    });
    await page.getByTestId('queue-call').focus();
    await page.keyboard.press(' ');
    await expect(calls.audio).toHaveAttribute('data-played', 'yes');
    await expect(calls.audio).not.toHaveAttribute('data-paused', 'yes');
    await page.keyboard.press(' ');
    await expect(calls.audio).toHaveAttribute('data-paused', 'yes');
    expect(await calls.audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);

    // The QA report of the campaign: every call, the two marks in words.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'QA report CSV' }).click(),
    ]);
    const report = Papa.parse<Record<string, string>>(await readFile(await download.path(), 'utf8'), {
      header: true,
      skipEmptyLines: true,
    });
    expect(report.data).toHaveLength(SEEDED);
    const byId = new Map(report.data.map((r) => [r.call_id, r]));
    expect(byId.get(order[0]!.id)).toMatchObject({ reviewed: 'yes', note: NOTE, flag_reason: '' });
    expect(byId.get(order[1]!.id)).toMatchObject({ reviewed: 'yes', flag_reason: 'Compliance' });
    expect(report.data.filter((r) => r.reviewed === 'yes')).toHaveLength(2);

    // All calls: the reviewed filter finds both, the reason filter the flagged one.
    await page.getByRole('tab', { name: 'All calls' }).click();
    await calls.expectTotal(SEEDED);
    await calls.filter('Review').selectOption({ label: 'Reviewed' });
    await calls.expectTotal(2);
    await expect(calls.rows().filter({ hasText: order[0]!.to_number! })).toHaveCount(1);
    await calls.filter('Review').selectOption({ label: 'Not reviewed' });
    await calls.expectTotal(SEEDED - 2);
    await calls.filter('Review').selectOption({ label: 'Any review state' });
    await calls.filter('Flag reason').selectOption({ label: 'Compliance (1)' });
    await calls.expectTotal(1);
    await expect(calls.rows().first()).toContainText(order[1]!.to_number!);

    // The call's detail shows its review.
    await calls.rows().first().click();
    await expect(calls.detail.getByTestId('review-state')).toContainText('Flagged: Compliance');
    await expect(calls.detail.getByRole('button', { name: 'Reviewed', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });
});
