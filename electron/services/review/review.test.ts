// QA review through the desk's dispatcher on a real data folder (real SQLite file), the history
// synced over HTTP from the real sandbox through a recording proxy: marks, reasons, filters, the
// QA report CSV, marks that survive re-syncs that rewrite and re-insert the call rows, and proof
// that nothing about the marks reaches the service.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallFilter, CallSummary } from '../../../shared/ipc/channels/calls.ts';
import type { ReviewMark, ReviewReason } from '../../../shared/ipc/channels/review.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { deskOnSandbox, syncNow, value } from '../calls/testing.ts';
import type { Desk } from '../createDesk.ts';
import { DATABASE_FILE_NAME } from '../db/openDatabase.ts';
import { tempDirs } from '../db/testing.ts';
import { startSyncSandbox } from '../sync/testing.ts';
import { QA_REPORT_COLUMNS } from './qaReport.ts';
import { linkCampaign, recordingProxy } from './testing.ts';
import type { RecordingProxy } from './testing.ts';

const CAMPAIGN = 'bl-qa-campaign';
const NOTE = 'Agent quoted the wrong renewal price (qa-note-7f3a)';
const REASON = 'Upsell pressure qa-7f3a';

const dirs = tempDirs('desk-review-');
let sandbox: SandboxProcess;
let proxy: RecordingProxy;
let desk: Desk;
let dataDir = '';
let campaignCalls: CallSummary[] = [];
let totalCalls = 0;

const list = async (filter: CallFilter, limit = 500) =>
  value<{ total: number; rows: CallSummary[] }>(
    await desk.handle('calls:list', { filter, sort: { by: 'created_at', dir: 'asc' }, offset: 0, limit }),
  );
const mark = async (request: Record<string, unknown>) =>
  value<{ mark: ReviewMark }>(await desk.handle('review:set', request)).mark;
const reasons = async () =>
  value<{ reasons: ReviewReason[] }>(await desk.handle('review:reasons', {})).reasons;
const errorOf = (r: Result<unknown>) => (r.ok ? null : r.error);

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  const now = Date.now();
  await sandbox.control('POST', '/seed-calls', {
    count: 60,
    bulk_list_id: CAMPAIGN,
    start_date: new Date(now - 5 * 3_600_000).toISOString(),
    end_date: new Date(now - 3_600_000).toISOString(),
  });
  await sandbox.control('POST', '/seed-calls', {
    count: 140,
    start_date: new Date(now - 5 * 86_400_000).toISOString(),
    end_date: new Date(now - 3_600_000).toISOString(),
  });
  proxy = await recordingProxy(sandbox.baseUrl);
  dataDir = dirs.make();
  let workspaceId: string;
  ({ desk, workspaceId } = await deskOnSandbox({ baseUrl: proxy.baseUrl, apiKey: sandbox.apiKey }, dataDir));
  await linkCampaign(desk, { dataDir, workspaceId, bulkListId: CAMPAIGN });
  const { final } = await syncNow(desk);
  expect(final.state).toBe('done');
  totalCalls = final.calls;
  expect(totalCalls).toBe(200);
  campaignCalls = (await list({ bulkListId: CAMPAIGN })).rows;
  expect(campaignCalls).toHaveLength(60);
}, 90_000);
afterAll(async () => {
  await desk?.close();
  await proxy?.close();
  await sandbox?.stop();
  dirs.cleanup();
});

describe('QA review marks', () => {
  it('marks reviewed, flags with a reason (which marks it reviewed), notes, with who and when; clearing everything removes the mark', async () => {
    value(await desk.handle('review:set-reviewer', { name: 'Asha QA' }));
    const [a, b, c, d] = campaignCalls;
    const rude = (await reasons()).find((r) => r.label === 'Rude')!;
    expect(rude.removed).toBe(false);

    const reviewed = await mark({ callId: a!.id, reviewed: true });
    expect(reviewed).toMatchObject({
      callId: a!.id,
      reviewed: true,
      reviewedBy: 'Asha QA',
      flag: null,
      note: null,
    });
    expect(Date.parse(reviewed.reviewedAt!)).toBeGreaterThan(Date.now() - 60_000);

    const flagged = await mark({ callId: b!.id, flagReasonId: rude.id });
    expect(flagged).toMatchObject({
      reviewed: true,
      reviewedBy: 'Asha QA',
      flag: { reasonId: rude.id, label: 'Rude', removed: false },
      flaggedBy: 'Asha QA',
    });

    const noted = await mark({ callId: c!.id, note: NOTE });
    expect(noted).toMatchObject({ reviewed: false, note: NOTE, notedBy: 'Asha QA' });
    expect(value<{ mark: ReviewMark }>(await desk.handle('review:get', { callId: c!.id })).mark).toEqual(
      noted,
    );

    // Everything set, then everything cleared: the call reads as never reviewed again.
    await mark({ callId: d!.id, reviewed: true, note: 'temp' });
    const cleared = await mark({ callId: d!.id, reviewed: false, note: '  ' });
    expect(cleared).toMatchObject({ reviewed: false, flag: null, note: null, updatedAt: null });

    // Refusals in words: a call of no workspace here, a reason not on the list, nothing to change.
    expect(
      errorOf(await desk.handle('review:set', { callId: 'no-such-call', reviewed: true })),
    ).toMatchObject({
      code: 'not_found',
      field: 'callId',
    });
    expect(errorOf(await desk.handle('review:set', { callId: a!.id, flagReasonId: 99_999 }))).toMatchObject({
      code: 'invalid_request',
      field: 'flagReasonId',
    });
    expect(errorOf(await desk.handle('review:set', { callId: a!.id }))).toMatchObject({
      code: 'invalid_request',
    });
  });

  it('filters the calls table by reviewed, unreviewed, flagged and reason, with the other filters and search', async () => {
    const [a, b, c] = campaignCalls;
    const rude = (await reasons()).find((r) => r.label === 'Rude')!;
    const ids = (r: { rows: CallSummary[] }) => r.rows.map((x) => x.id).sort();

    const reviewed = await list({ review: 'reviewed' });
    expect(ids(reviewed)).toEqual([a!.id, b!.id].sort());
    expect(reviewed.total).toBe(2);
    expect((await list({ review: 'unreviewed' })).total).toBe(totalCalls - 2);
    expect(ids(await list({ review: 'flagged' }))).toEqual([b!.id]);
    expect(ids(await list({ flagReasons: [rude.id] }))).toEqual([b!.id]);
    // A noted call that is not reviewed is still in the queue's walk.
    expect((await list({ bulkListId: CAMPAIGN, review: 'unreviewed' })).rows.map((r) => r.id)).toContain(
      c!.id,
    );
    expect((await list({ bulkListId: CAMPAIGN, review: 'unreviewed' })).total).toBe(58);
    // With other filters and a search: the search path (FTS) applies the same conditions.
    const byNumber = await list({ review: 'reviewed', search: a!.toNumber!.replace(/\D/g, '').slice(-10) });
    expect(ids(byNumber)).toEqual([a!.id]);
    expect((await list({ review: 'flagged', statuses: [b!.status] })).total).toBe(1);
    // The same filter drives the charts and the export.
    const stats = value<{ total: number }>(
      await desk.handle('calls:stats', { filter: { review: 'reviewed' } }),
    );
    expect(stats.total).toBe(2);
  });

  it('keeps every mark across a re-sync that rewrites the marked rows and one that re-inserts every call', async () => {
    const [a, b, c] = campaignCalls;
    const before = await Promise.all(
      [a!, b!, c!].map(
        async (x) => value<{ mark: ReviewMark }>(await desk.handle('review:get', { callId: x.id })).mark,
      ),
    );

    // The service now sends the marked calls changed, and every record in another documented shape.
    for (const x of [a!, b!, c!])
      await sandbox.control('POST', '/history-overrides', {
        call_id: x.id,
        fields: { name: `Renamed ${x.id}` },
      });
    await sandbox.control('POST', '/variants', { timestamps: 'micro_offset' });
    const rewritten = await syncNow(desk);
    expect(rewritten.final.state).toBe('done');
    expect(rewritten.final.updated).toBe(totalCalls); // every row rewritten
    const renamed = await list({ review: 'reviewed' });
    expect(renamed.rows.map((r) => r.name).sort()).toEqual([`Renamed ${a!.id}`, `Renamed ${b!.id}`].sort());

    // The calls rows deleted behind the app's back (a rebuilt cache): the next sync inserts them anew.
    const file = new Database(join(dataDir, DATABASE_FILE_NAME));
    try {
      file.pragma('busy_timeout = 5000');
      file.pragma('foreign_keys = ON'); // their recording rows go with them, as in the app
      file.exec('DELETE FROM calls');
      expect(file.prepare('SELECT count(*) FROM call_reviews').pluck().get()).toBe(3);
    } finally {
      file.close();
    }
    const reinserted = await syncNow(desk);
    expect(reinserted.final.inserted).toBe(totalCalls);

    const after = await Promise.all(
      [a!, b!, c!].map(
        async (x) => value<{ mark: ReviewMark }>(await desk.handle('review:get', { callId: x.id })).mark,
      ),
    );
    expect(after).toEqual(before);
    expect((await list({ review: 'reviewed' })).total).toBe(2);
    expect((await list({ review: 'flagged' })).total).toBe(1);
  }, 90_000);

  it('edits the reasons list: add, rename (marks follow), remove (marks keep the label, shown as removed; it cannot be chosen again)', async () => {
    const [, b, , , e] = campaignCalls;
    const added = value<{ reasons: ReviewReason[] }>(
      await desk.handle('review:add-reason', { label: REASON }),
    ).reasons;
    const mine = added.find((r) => r.label === REASON)!;
    expect(added.filter((r) => !r.removed).at(-1)!.id).toBe(mine.id); // at the end of the list
    expect(errorOf(await desk.handle('review:add-reason', { label: REASON.toUpperCase() }))).toMatchObject({
      code: 'conflict',
      field: 'label',
    });
    expect(errorOf(await desk.handle('review:add-reason', { label: '   ' }))).toMatchObject({
      code: 'invalid_request',
    });

    await mark({ callId: e!.id, flagReasonId: mine.id, note: NOTE });
    const renamedTo = `${REASON} (renamed)`;
    value(await desk.handle('review:rename-reason', { id: mine.id, label: renamedTo }));
    expect((await mark({ callId: e!.id, reviewed: true })).flag?.label).toBe(renamedTo);

    const rude = (await reasons()).find((r) => r.label === 'Rude')!;
    expect(rude.uses).toBe(1);
    const afterRemove = value<{ reasons: ReviewReason[] }>(
      await desk.handle('review:remove-reason', { id: rude.id }),
    ).reasons;
    expect(afterRemove.find((r) => r.id === rude.id)).toMatchObject({
      removed: true,
      uses: 1,
      label: 'Rude',
    });
    const kept = value<{ mark: ReviewMark }>(await desk.handle('review:get', { callId: b!.id })).mark;
    expect(kept.flag).toEqual({ reasonId: rude.id, label: 'Rude', removed: true });
    expect((await list({ flagReasons: [rude.id] })).rows.map((r) => r.id)).toEqual([b!.id]);
    expect(errorOf(await desk.handle('review:set', { callId: e!.id, flagReasonId: rude.id }))).toMatchObject({
      field: 'flagReasonId',
    });
    expect(
      errorOf(await desk.handle('review:rename-reason', { id: rude.id, label: 'Rude again' })),
    ).toMatchObject({
      code: 'not_found',
    });
    // A removed label is free again.
    value(await desk.handle('review:add-reason', { label: 'Rude' }));
  });

  it('writes the QA report of a campaign: every call once, its review in words, whole or not at all', async () => {
    const [a, b, c, , e] = campaignCalls;
    const folder = join(dataDir, 'reports');
    mkdirSync(folder, { recursive: true });
    const target = join(folder, 'qa.csv');
    writeFileSync(target, 'old\n');
    const inodeBefore = statSync(target).ino;
    const result = value<{ rows: number; path: string }>(
      await desk.handle('review:report', { bulkListId: CAMPAIGN, path: target }),
    );
    expect(result.rows).toBe(60);
    expect(statSync(target).ino).not.toBe(inodeBefore); // renamed into place, not written over
    expect(readdirSync(folder)).toEqual(['qa.csv']); // no temporary file left

    const parsed = Papa.parse<Record<string, string>>(readFileSync(target, 'utf8'), {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.meta.fields).toEqual([...QA_REPORT_COLUMNS]);
    expect(parsed.data).toHaveLength(60);
    expect(new Set(parsed.data.map((r) => r.call_id))).toEqual(new Set(campaignCalls.map((x) => x.id)));
    const byId = new Map(parsed.data.map((r) => [r.call_id!, r]));
    expect(byId.get(a!.id)).toMatchObject({
      reviewed: 'yes',
      flag_reason: '',
      note: '',
      reviewer: 'Asha QA',
    });
    expect(Date.parse(byId.get(a!.id)!.reviewed_at!)).not.toBeNaN();
    expect(byId.get(b!.id)).toMatchObject({ reviewed: 'yes', flag_reason: 'Rude', reviewer: 'Asha QA' });
    expect(byId.get(c!.id)).toMatchObject({ reviewed: 'no', note: NOTE, reviewer: '', reviewed_at: '' });
    expect(byId.get(e!.id)).toMatchObject({
      reviewed: 'yes',
      flag_reason: `${REASON} (renamed)`,
      note: NOTE,
    });
    // Time of the attempt and outcome as the calls table shows them.
    expect(byId.get(a!.id)!.call_attempt_time).toBe(a!.attemptedAt ?? '');
    expect(byId.get(a!.id)!.outcome).not.toBe('');

    // The report's folder does not exist: refused in words, nothing written.
    const missing = errorOf(
      await desk.handle('review:report', { bulkListId: CAMPAIGN, path: join(dataDir, 'nope', 'qa.csv') }),
    );
    expect(missing).toMatchObject({ code: 'file_error' });
    expect(missing!.message).toMatch(/its folder does not exist/);
  });

  it('never sends anything about the marks to the service', async () => {
    await mark({ callId: campaignCalls[5]!.id, reviewed: true, note: NOTE });
    value(await desk.handle('review:add-reason', { label: `${REASON} 2` }));
    const again = await syncNow(desk); // a sync after all of that
    expect(again.final.state).toBe('done');
    expect(proxy.seen.length).toBeGreaterThan(0); // every sync went through the proxy
    // Only reads (and the connectivity check's HEAD) ever reached the service, and none of them carries anything of a mark.
    expect(proxy.seen.filter((r) => r.method !== 'GET' && r.method !== 'HEAD')).toEqual([]);
    for (const r of proxy.seen) {
      const text = `${r.url}\n${r.headers}\n${r.body}`;
      for (const s of [NOTE, 'qa-7f3a', 'Asha', 'review', 'flag']) expect(text).not.toContain(s);
    }
  }, 60_000);
});
