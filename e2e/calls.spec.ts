import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { CallsPage, useSandboxWorkspace } from './pages/CallsPage.ts';
import { expectNoAxeViolations } from './support/a11y.ts';
import { sandboxControl, seedRecentCalls } from './support/sandboxControl.ts';

// The Calls page end to end in Chromium through the browser host (real back end, real SQLite, real
// HTTP against a separate sandbox): seed calls, sync them, filter, search a word from a transcript,
// open that call and play its recording from the saved file.

const SEEDED = 240;

/** The longest plain word of a transcript's turns (a word the search must find). */
function distinctiveWord(transcript: string): string {
  const words = transcript.match(/\p{L}{6,}/gu) ?? [];
  const word = [...words].sort((a, b) => b.length - a.length)[0];
  if (!word) throw new Error(`no searchable word in ${transcript}`);
  return word;
}

/** axe (WCAG 2.1 AA) on what is on screen, in the light and the dark theme. */
async function expectAccessible(page: Page, where: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(page, `${where} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test.describe('calls', () => {
  test.describe.configure({ timeout: 120_000 });

  test('sync seeded calls, filter by status, search a transcript word, open the call and play its recording', async ({
    page,
    desk,
    sandbox,
  }) => {
    // Calls of the last few hours: their recordings are still live, so the sync saves them.
    const history = await seedRecentCalls(sandbox, SEEDED, 6);
    expect(history).toHaveLength(SEEDED);
    const completed = history.filter((c) => c.status === 'completed').length;
    expect(completed).toBeGreaterThan(0);

    const calls = new CallsPage(page);
    await calls.shell.open(desk.url);
    await useSandboxWorkspace(page, sandbox);
    await calls.open();

    // Sync: every seeded call stored once, with the pass's figures and the time it finished.
    await expect(calls.lastSynced).toHaveText('Last synced: never');
    await calls.syncAndWait();
    await expect(calls.figure('calls')).toHaveText(String(SEEDED));
    await expect(calls.figure('inserted')).toHaveText(String(SEEDED));
    expect(Number(await calls.figure('pages').textContent())).toBeGreaterThan(0);
    await expect(calls.lastSynced).toHaveText('Last synced: just now');
    await calls.expectTotal(SEEDED);
    await expectAccessible(page, 'the calls table with synced calls');

    // Filter: only completed calls, as many as the service has.
    await calls.filter('Status').selectOption('completed');
    await calls.expectTotal(completed);
    await expect(calls.rows().first()).toContainText('Completed');
    // The status badges (the outcome column beside them may say "Voicemail" for a completed call).
    const shownStatuses = await calls
      .rows()
      .locator('.call-status:not([data-outcome-value])')
      .allTextContents();
    expect(new Set(shownStatuses)).toEqual(new Set(['Completed']));
    // Export: the filtered calls, one row each, with the CLI's columns.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Export CSV (${completed.toLocaleString('en-US')} calls)` }).click(),
    ]);
    const csv = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
    expect(csv).toHaveLength(completed + 1);
    for (const column of ['call_id', 'status', 'recording', 'recording_path'])
      expect(csv[0]).toContain(column);
    const ids = new Set(history.filter((c) => c.status === 'completed').map((c) => c.id));
    expect(csv.slice(1).filter((line) => ids.has(line.split(',')[0]!.replace(/"/g, '')))).toHaveLength(
      completed,
    );
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await calls.expectTotal(SEEDED);

    // Search a word of one call's transcript: that call is found, the word highlighted.
    const target = history.find((c) => c.status === 'completed' && c.transcript && c.audio_recording)!;
    const word = distinctiveWord(String(target.transcript));
    // Search covers transcripts, names and numbers: a call whose name has the word counts too.
    const withWord = history.filter((c) =>
      `${String(c.transcript ?? '')} ${c.name ?? ''} ${c.to_number ?? ''}`
        .toLowerCase()
        .includes(word.toLowerCase()),
    );
    await calls.search.fill(word);
    await expect(calls.table.getByRole('columnheader', { name: 'Match' })).toBeVisible();
    await expect(calls.rows().first().locator('mark').first()).toHaveText(new RegExp(word, 'i'));
    const total = Number((await calls.total.textContent())!.replace(/\D/g, ''));
    expect(total).toBeGreaterThanOrEqual(1);
    expect(total).toBeLessThanOrEqual(withWord.length);
    const row = calls.rows().filter({ hasText: target.to_number! });
    await expect(row).toHaveCount(1);

    // Open it: metadata and the transcript as a conversation.
    await row.click();
    await expect(calls.detail.getByRole('heading', { name: `Call with ${target.name}` })).toBeVisible();
    await expect(calls.detail.getByLabel('Call details')).toContainText(target.id);
    const transcript = calls.detail.getByRole('list', { name: 'Transcript' });
    await expect(transcript).toContainText(word);
    await expect(transcript.locator('.turn.is-user').first()).toBeVisible();
    await expectAccessible(page, 'a call with its transcript and player');

    // Play the saved recording: the audio element plays and its time moves.
    const play = calls.detail.getByRole('button', { name: 'Play' });
    await expect(play).toBeEnabled({ timeout: 30_000 });
    const src = await calls.audio.evaluate((a: HTMLAudioElement) => a.currentSrc || a.src);
    expect(src).not.toContain('/v0/recordings/'); // the saved copy, not the service's URL
    // The seeded recordings are a couple of seconds long: record what the element does rather than
    // sampling it (it may have finished by the time a check runs).
    await calls.audio.evaluate((a: HTMLAudioElement) => {
      a.addEventListener('playing', () => (a.dataset.played = 'yes'));
      a.addEventListener('timeupdate', () => {
        a.dataset.maxTime = String(Math.max(Number(a.dataset.maxTime ?? 0), a.currentTime));
        a.dataset.rate = String(a.playbackRate);
      });
    });
    await calls.detail.getByLabel('Speed').selectOption('0.75');
    await play.click();
    await expect(calls.audio).toHaveAttribute('data-played', 'yes');
    await expect
      .poll(async () => Number(await calls.audio.getAttribute('data-max-time')), { timeout: 15_000 })
      .toBeGreaterThan(0.3);
    await expect(calls.audio).toHaveAttribute('data-rate', '0.75');
    // It plays to the end: the button offers Play again and the clock shows the whole length.
    await expect(play).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => calls.audio.evaluate((a: HTMLAudioElement) => a.ended)).toBe(true);
    await expect(page.getByTestId('audio-time')).not.toHaveText(/^0:00 \//);

    await calls.detail.getByRole('button', { name: 'Back to calls' }).click();
    await expect(calls.table).toBeVisible();
    await calls.tab('Charts').click();
    await expect(page.getByTestId('stats-figures')).toBeVisible();
    await expectAccessible(page, 'the calls charts');
    await calls.tab('All calls').click();
    await expect(calls.table).toBeVisible();

    // From the keyboard: the table's first row opens with Enter.
    const firstName = await calls.rows().first().locator('[aria-colindex="2"]').textContent();
    await calls.table.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await expect(calls.detail.getByRole('heading', { name: `Call with ${firstName}` })).toBeVisible();
    await expect(calls.detail.getByRole('heading', { name: `Call with ${firstName}` })).toBeFocused();
  });
  test('a slow, failing sync shows its retries and can be cancelled; the next sync completes it', async ({
    page,
    desk,
    sandbox,
  }) => {
    const seeded = 5000;
    await seedRecentCalls(sandbox, seeded, 48);
    await sandboxControl(sandbox, 'POST', '/faults', {
      faults: [
        { path: 'calling/history', kind: 'error', status: 500, max_count: 2 },
        { path: 'calling/history', kind: 'latency', latency_ms: 1500 },
      ],
    });

    const calls = new CallsPage(page);
    await calls.shell.open(desk.url);
    await useSandboxWorkspace(page, sandbox);
    await calls.open();
    await calls.syncButton.click();
    await expect(calls.syncState).toHaveAttribute('data-state', 'running');
    // The two server errors were retried; pages keep arriving slowly.
    await expect
      .poll(async () => Number(await calls.figure('retries').textContent()), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2);
    await expect
      .poll(async () => Number(await calls.figure('pages').textContent()), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(1);
    await calls.cancelButton.click();
    await expect(calls.syncState).toHaveAttribute('data-state', 'cancelled');
    await expect(calls.syncState).toContainText('Sync cancelled');
    await expect(calls.cancelButton).toHaveCount(0);
    const stored = Number((await calls.figure('calls').textContent())!.replace(/,/g, ''));
    expect(stored).toBeLessThan(seeded);
    await expect(calls.lastSynced).toHaveText('Last synced: never');

    // Without the faults the next sync stores everything, each call once.
    await sandboxControl(sandbox, 'DELETE', '/faults');
    await calls.syncAndWait(90_000);
    await expect(calls.figure('calls')).toHaveText(seeded.toLocaleString('en-US'));
    await calls.expectTotal(seeded);
    await expect(calls.lastSynced).toHaveText('Last synced: just now');
  });
});
