import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CallRecord } from '../shared/service/history.ts';
import { expect, test } from './fixtures.ts';
import { CallsPage } from './pages/CallsPage.ts';
import {
  advanceClock,
  fillGoodSettings,
  importList,
  launchNow,
  startBuilder,
  startedId,
  stats,
  useSandboxWorkspace,
} from './support/campaignLaunch.ts';
import { writeCampaignList } from './support/campaignList.ts';
import { sandboxHistory } from './support/sandboxControl.ts';

// A campaign launched from the app on a separate sandbox, followed live in Chromium through the
// browser host: its counters move while the sandbox dials (nobody clicks Sync), a call's time is
// when it was dialled, its recording plays as long as the call with no Content-Security-Policy
// violation (both channels of the waveform drawn where played, no scrollbar of its own), and after
// a terminate the contacts never dialled read "Not called (terminated)".

const CAMPAIGN = 'Live sixty';
const CONTACTS = 60;

/** m:ss as the player and the detail show a duration (whole seconds, rounded down). */
const clock = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.floor(seconds) % 60).padStart(2, '0')}`;

test.describe('calls: a running campaign, live', () => {
  test.describe.configure({ timeout: 420_000 });

  let dir = '';
  test.beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-calls-live-'));
  });
  test.afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('counters move by themselves; a call shows its attempt time; its recording plays as long as the call with no CSP violation; terminated contacts read "Not called (terminated)"', async ({
    page,
    desk,
    sandbox,
  }) => {
    // Every CSP violation the page reports, as an event and in the console.
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/content.security.policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
    });
    await page.exposeFunction('reportCspViolation', (v: string) => violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { reportCspViolation(v: string): void }).reportCspViolation(
          `${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`,
        ),
      );
    });

    // Launch as an operator does: import, build, starting in 5 minutes.
    const list = writeCampaignList(dir, 'live-sixty', CONTACTS, 7);
    await useSandboxWorkspace(page, desk.url, sandbox);
    await importList(page, list);
    const campaigns = await startBuilder(page, 'live-sixty', list);
    await fillGoodSettings(campaigns, CAMPAIGN, Date.parse((await stats(sandbox)).clock.now));
    await campaigns.checkAndPlan();
    await expect(campaigns.fact('calls')).toHaveText(String(CONTACTS));
    await launchNow(campaigns, CAMPAIGN);
    const id = await startedId(campaigns);
    await campaigns.backToList();

    // (b) The counters: running, nothing dialled before the start; the sandbox's clock passes the
    // start and the counters move with no click (the app polls the running campaign).
    const row = page.locator(`[data-live-campaign="${CAMPAIGN}"]`);
    const cell = (col: string) => row.locator(`[data-col="${col}"]`);
    await expect(cell('state')).toHaveText('Running', { timeout: 60_000 });
    await expect(cell('left')).toHaveText(String(CONTACTS), { timeout: 60_000 });
    await expect(cell('dialled')).toHaveText('0');
    await expect(page.getByTestId('live-updated')).toContainText('Updating by itself');
    await advanceClock(sandbox, 5.5 * 60);
    await expect(cell('dialled')).not.toHaveText('0', { timeout: 120_000 });
    const figures = async () =>
      Promise.all(['dialled', 'answered', 'completed', 'left'].map(async (c) => await cell(c).textContent()));
    const first = await figures();
    // More time passes: calls end (answered, completed), others wait to retry; the counters follow,
    // still with no click.
    await advanceClock(sandbox, 4 * 60);
    await expect.poll(figures, { timeout: 120_000 }).not.toEqual(first);
    await expect
      .poll(async () => Number(await cell('completed').textContent()), { timeout: 120_000 })
      .toBeGreaterThan(0);
    expect(Number(await cell('left').textContent())).toBeLessThan(CONTACTS);

    // The service's own record of the campaign so far.
    const now = Date.now();
    const history = await sandboxHistory(sandbox, new Date(now - 3_600_000), new Date(now + 86_400_000), id);
    const perNumber = new Map<string, number>();
    for (const c of history) perNumber.set(c.to_number!, (perNumber.get(c.to_number!) ?? 0) + 1);
    const played: CallRecord | undefined = history.find(
      (c) =>
        c.status === 'completed' &&
        c.audio_recording &&
        (c.call_duration ?? 0) >= 10 &&
        c.call_attempt_time &&
        perNumber.get(c.to_number!) === 1,
    );
    expect(played, 'a completed call with a recording').toBeDefined();
    const call = played!;

    // (c) The time of a call is its attempt time, in the table and in its detail.
    const calls = new CallsPage(page);
    await calls.open();
    await calls.syncAndWait(120_000);
    await calls.search.fill(call.to_number!);
    const callRow = calls.rows().filter({ hasText: call.to_number! });
    await expect(callRow).toHaveCount(1);
    const time = callRow.locator('[data-attempted]');
    await expect(time).toHaveAttribute('data-attempted', new Date(call.call_attempt_time!).toISOString());
    const shown = (await time.textContent())!;
    await callRow.click();
    await expect(page.getByTestId('call-time')).toHaveText(shown);

    // (a) Its recording, saved by the sync, lasts as long as the call; it plays with no CSP violation.
    const play = calls.detail.getByRole('button', { name: 'Play' });
    await expect(play).toBeEnabled({ timeout: 30_000 });
    await expect(page.getByTestId('audio-time')).toHaveText(`0:00 / ${clock(call.call_duration!)}`);
    const length = await calls.audio.evaluate((a: HTMLAudioElement) => a.duration);
    expect(Math.abs(length - call.call_duration!)).toBeLessThan(0.01);
    // Played from 70 % to the end: the played part then spans turns of both speakers (the
    // agent's on the left, top channel; the callee's on the right, bottom channel).
    const from = Math.floor(call.call_duration! * 0.7);
    await calls.detail.getByLabel('Position').fill(String(from));
    await play.click();
    await expect
      .poll(() => calls.audio.evaluate((a: HTMLAudioElement) => a.ended), { timeout: 90_000 })
      .toBe(true);
    await expect(play).toBeVisible();
    const wave = await calls.detail.locator('.audio-wave').evaluate((waveBox) => {
      // wavesurfer.js's element: the one with a shadow root.
      const root = [...waveBox.querySelectorAll('div')].find((d) => d.shadowRoot)?.shadowRoot;
      if (!root) throw new Error('the waveform has no shadow root');
      const box = (sel: string) => root.querySelector(sel)!.getBoundingClientRect();
      const scroll = root.querySelector<HTMLElement>('.scroll')!;
      // The played part: is there ink in the top half (left channel) and the bottom half (right)?
      const progress = root.querySelector<HTMLCanvasElement>('.progress canvas')!;
      const playedPx = Math.floor((box('.progress').width / box('.canvases').width) * progress.width);
      const ink = (y0: number, y1: number) => {
        const data = progress.getContext('2d')!.getImageData(0, y0, Math.max(1, playedPx), y1 - y0).data;
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
        return n;
      };
      const half = Math.floor(progress.height / 2);
      return {
        styles: root.querySelectorAll('style').length,
        sheets: root.querySelectorAll('link[rel="stylesheet"]').length,
        innerScroll: scroll.scrollHeight > scroll.clientHeight || scroll.scrollWidth > scroll.clientWidth,
        progressTop: box('.progress').top - box('.canvases').top,
        progressHeight: box('.progress').height - box('.canvases').height,
        playedPx,
        topInk: ink(0, half),
        bottomInk: ink(half, progress.height),
      };
    });
    expect(wave).toMatchObject({ styles: 0, sheets: 1, innerScroll: false, progressTop: 0 });
    expect(wave.progressHeight).toBeGreaterThanOrEqual(0);
    expect(wave.playedPx).toBeGreaterThan(0);
    expect(wave.topInk, 'the played part of the top channel is drawn').toBeGreaterThan(0);
    expect(wave.bottomInk, 'the played part of the bottom channel is drawn').toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Back to calls' }).click();

    // (d) Terminated: the calls still queued are cancelled before they are dialled.
    await campaigns.open();
    const listRow = campaigns.campaignRow(CAMPAIGN).first();
    await listRow.getByRole('button', { name: `Terminate ${CAMPAIGN}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Terminate ${CAMPAIGN}?` });
    await confirm.getByRole('button', { name: 'Terminate remaining calls' }).click();
    await expect(confirm.getByRole('status')).not.toBeEmpty();
    await confirm.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect(confirm).toBeHidden();
    const after = await sandboxHistory(
      sandbox,
      new Date(now - 3_600_000),
      new Date(Date.now() + 86_400_000),
      id,
    );
    const latest = new Map<string, CallRecord>();
    for (const c of after) {
      const seen = latest.get(c.to_number!);
      if (!seen || Date.parse(c.created_at) > Date.parse(seen.created_at)) latest.set(c.to_number!, c);
    }
    const stopped = [...latest.values()].filter(
      (c) => c.status === 'cancelled' && c.sub_status === 'USER_TERMINATED',
    ).length;
    expect(stopped).toBeGreaterThan(0);

    await calls.open();
    await calls.search.fill('');
    await calls.syncAndWait(120_000);
    await calls.tab('Campaign results').click();
    await expect(page.locator('[data-outcome="not_called_terminated"]')).toHaveText(String(stopped), {
      timeout: 60_000,
    });
    // Only that outcome chosen: the contacts listed are those, and each reads so.
    const choices = page.getByRole('group', { name: /^Outcomes/ }).getByRole('checkbox');
    for (const box of await choices.all()) {
      const name = (await box.locator('xpath=..').textContent()) ?? '';
      await box.setChecked(name.startsWith('Not called (terminated)'));
    }
    await expect(page.getByTestId('results-total')).toHaveText(`${stopped} contacts with these outcomes`);
    const outcomes = await page
      .getByRole('grid', { name: 'Campaign results' })
      .locator('[role="row"][data-key] .call-status')
      .allTextContents();
    expect(outcomes.length).toBeGreaterThan(0);
    expect(new Set(outcomes)).toEqual(new Set(['Not called (terminated)']));

    expect(violations, 'Content-Security-Policy violations').toEqual([]);
  });
});
