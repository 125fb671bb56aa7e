// Every calls channel through the desk's dispatcher (request schema in, response schema out) on a
// real data folder, with the history synced from the real sandbox over HTTP.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CallDetail,
  CallStats,
  CallSummary,
  DiskUsage,
  SyncStatus,
} from '../../../shared/ipc/channels/calls.ts';
import type { ContactList, ContactRow } from '../../../shared/ipc/channels/contacts.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { generate, importThroughService } from '../contacts/testing.ts';
import type { ImportTarget } from '../contacts/testing.ts';
import type { Desk } from '../createDesk.ts';
import { upsertCalls } from './store/upsertCalls.ts';
import { deskOnSandbox, syncNow, value } from './testing.ts';
import { tempDirs } from '../db/testing.ts';
import { callColumns } from '../sync/callRow.ts';
import { recordingsDir } from '../sync/recordings.ts';
import { startSyncSandbox } from '../sync/testing.ts';

const dirs = tempDirs('desk-calls-handlers-');
let sandbox: SandboxProcess;
let desk: Desk;
let dataDir = '';
let workspaceId = '';

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  await sandbox.control('POST', '/seed-calls', { count: 2000 });
  dataDir = dirs.make();
  ({ desk, workspaceId } = await deskOnSandbox(sandbox, dataDir));
}, 60_000);
afterAll(async () => {
  await desk?.close();
  await sandbox?.stop();
  dirs.cleanup();
});

describe('calls channels through the desk', () => {
  it('syncs on demand with progress events, then lists, searches, opens, charts and exports offline', async () => {
    const { started, final } = await syncNow(desk);
    expect(started).toBe(true);
    expect(final.state).toBe('done');
    expect(final.calls).toBe(2000);
    expect(final.lastSyncedAt).not.toBeNull();
    expect(value<SyncStatus>(await desk.handle('calls:sync-status', {})).state).toBe('idle');

    const page = value<{ total: number; rows: CallSummary[] }>(
      await desk.handle('calls:list', {
        filter: { statuses: ['completed'] },
        sort: { by: 'call_duration', dir: 'desc' },
        offset: 0,
        limit: 50,
      }),
    );
    expect(page.total).toBeGreaterThan(0);
    expect(page.rows.every((r) => r.status === 'completed')).toBe(true);
    const durations = page.rows.map((r) => r.callDuration ?? 0);
    expect(durations).toEqual([...durations].sort((a, b) => b - a));

    const detail = value<{ call: CallDetail }>(
      await desk.handle('calls:get', { callId: page.rows[0]!.id }),
    ).call;
    expect(detail.transcript.length).toBeGreaterThan(0);
    const word = detail.transcript
      .map((t) => t.text)
      .join(' ')
      .match(/\p{L}{5,}/u)![0];
    const found = value<{ total: number; rows: CallSummary[] }>(
      await desk.handle('calls:list', { filter: { search: word }, offset: 0, limit: 20 }),
    );
    expect(found.total).toBeGreaterThan(0);
    expect(
      found.rows[0]!.snippet!.some((p) => p.hit && p.text.toLowerCase().startsWith(word.toLowerCase())),
    ).toBe(true);

    const stats = value<CallStats>(await desk.handle('calls:stats', { filter: {} }));
    expect(stats.total).toBe(2000);
    expect(stats.byStatus.reduce((s, x) => s + x.count, 0)).toBe(2000);
    // Calls over time are dialled calls at their attempt time; the never dialled are left out.
    expect(stats.dialled).toBeLessThan(2000);
    expect(stats.overTime.points.reduce((s, x) => s + x.calls, 0)).toBe(stats.dialled);
    expect(stats.outcomes.reduce((s, x) => s + x.count, 0)).toBe(2000);
    const exported = value<{ rows: number; downloadUrl: string }>(
      await desk.handle('calls:export', { filter: { statuses: ['completed'] }, download: true }),
    );
    expect(exported.rows).toBe(page.total);
    expect(exported.downloadUrl).toMatch(/^\/downloads\//);
  }, 120_000);

  it('joins a launched list with its latest calls per outcome and builds a follow-up list in one step', async () => {
    const target: ImportTarget = {
      importBegin: async (req) => value(await desk.handle('contacts:import-begin', req)),
      importBatch: async (req) => value(await desk.handle('contacts:import-batch', req)),
      importFinish: async (req) => value(await desk.handle('contacts:import-finish', req)),
    };
    const { list } = await importThroughService(target, generate(300, 5).bytes);
    const rows = value<{ rows: ContactRow[] }>(
      await desk.handle('contacts:rows', { listId: list.id, filter: 'bucket:valid', offset: 0, limit: 40 }),
    ).rows;
    // The campaigns feature records the launch; the calls below are what a campaign sync stores.
    const db = new Database(join(dataDir, 'campaign-desk.sqlite'));
    db.pragma('busy_timeout = 5000');
    db.prepare(`INSERT INTO campaign_lists (workspace_id, bulk_list_id, list_id) VALUES (?, 'bl-1', ?)`).run(
      workspaceId,
      list.id,
    );
    // The service's listing (as campaigns:list caches it) names the campaign.
    db.prepare(
      `INSERT INTO campaign_cache (workspace_id, kind, body, synced_at) VALUES (?, 'listing', ?, ?)
       ON CONFLICT (workspace_id, kind) DO UPDATE SET body = excluded.body`,
    ).run(
      workspaceId,
      JSON.stringify([
        { id: 'c-1', bulk_list_id: 'bl-1', name: 'December reminders', created_at: '2026-01-01T09:00:00Z' },
      ]),
      new Date().toISOString(),
    );
    const call = (i: number, status: string, sub: string | null, at: number) => ({
      id: `camp-${i}-${at}`,
      to_number: `+${rows[i]!.e164!.replace(/^\+/, '')}`,
      status,
      sub_status: sub,
      created_at: new Date(Date.UTC(2026, 0, 1, 10, at)).toISOString(),
      // Dialled hours after it was queued (the time of the call); never when cancelled unplaced.
      call_attempt_time:
        status === 'cancelled' ? null : new Date(Date.UTC(2026, 0, 1, 14, at, 7)).toISOString(),
    });
    const records = [
      ...[0, 1, 2, 3].map((i) => call(i, 'completed', 'ACCEPTED', 5)),
      // Row 4 was not answered first, then answered: its latest call counts.
      call(4, 'failed', 'USER_DID_NOT_JOIN', 1),
      call(4, 'completed', 'ACCEPTED', 9),
      ...[5, 6, 7].map((i) => call(i, 'failed', 'USER_DID_NOT_JOIN', 5)),
      ...[8, 9].map((i) => call(i, 'failed', 'NOT_ABLE_TO_CALL', 5)),
      call(10, 'completed', 'VOICEMAIL_DETECTED', 5),
      call(11, 'ongoing', null, 5),
      call(12, 'error', 'FAILED', 5),
      // The campaign was terminated before row 13's call was placed.
      call(13, 'cancelled', 'USER_TERMINATED', 5),
    ];
    upsertCalls(db, {
      workspaceId,
      bulkListId: 'bl-1',
      rows: records.map(callColumns),
      nowIso: new Date().toISOString(),
    });
    db.close();

    const { campaigns } = value<{
      campaigns: Array<{ bulkListId: string; listId: number | null; listName: string | null; calls: number }>;
    }>(await desk.handle('calls:campaigns', {}));
    expect(campaigns).toContainEqual(
      expect.objectContaining({
        bulkListId: 'bl-1',
        listId: list.id,
        listName: list.name,
        campaignName: 'December reminders',
        startedAt: '2026-01-01T09:00:00Z',
        calls: records.length,
      }),
    );
    const res = value<{
      counts: Record<string, number>;
      total: number;
      rows: Array<{ row: number; outcome: string; calls: number }>;
    }>(await desk.handle('calls:campaign-results', { bulkListId: 'bl-1', offset: 0, limit: 500 }));
    const uploaded = list.counts.upload;
    expect(res.counts).toEqual({
      completed: 5,
      voicemail: 1,
      no_answer: 3,
      busy: 2,
      failed: 1,
      dnd_skipped: 0,
      not_called_terminated: 1,
      not_called_time_up: 0,
      queued: 0,
      retrying: 0,
      in_progress: 1,
      not_called: uploaded - 14,
      other: 0,
      refused: 0,
    });
    expect(res.rows.find((r) => r.row === rows[4]!.row)).toMatchObject({
      outcome: 'completed',
      calls: 2,
      calledAt: '2026-01-01T14:09:07.000Z',
      queuedAt: '2026-01-01T10:09:00.000Z',
    });
    expect(res.rows.find((r) => r.row === rows[13]!.row)).toMatchObject({
      outcome: 'not_called_terminated',
      calledAt: null,
    });
    const picked = value<{ total: number; rows: Array<{ outcome: string }> }>(
      await desk.handle('calls:campaign-results', {
        bulkListId: 'bl-1',
        outcomes: ['no_answer', 'busy'],
        offset: 0,
        limit: 50,
      }),
    );
    expect(picked.total).toBe(5);
    expect(picked.rows.every((r) => r.outcome === 'no_answer' || r.outcome === 'busy')).toBe(true);

    const follow = value<{ list: ContactList; rows: number }>(
      await desk.handle('calls:follow-up-list', {
        bulkListId: 'bl-1',
        outcomes: ['no_answer', 'busy', 'voicemail'],
        name: 'Retry',
      }),
    );
    expect(follow.rows).toBe(6);
    expect(follow.list.name).toBe('Retry');
    expect(follow.list.counts.rows).toBe(6);
    expect(follow.list.counts.upload).toBe(6);
    const copied = value<{ rows: ContactRow[] }>(
      await desk.handle('contacts:rows', { listId: follow.list.id, filter: 'all', offset: 0, limit: 50 }),
    ).rows;
    expect(copied.map((r) => r.row).sort((a, b) => a - b)).toEqual(
      [5, 6, 7, 8, 9, 10].map((i) => rows[i]!.row).sort((a, b) => a - b),
    );
    expect(copied.map((r) => r.cells)).toEqual(
      [5, 6, 7, 8, 9, 10]
        .map((i) => rows[i]!)
        .sort((a, b) => a.row - b.row)
        .map((r) => r.cells),
    );
    const none = await desk.handle('calls:follow-up-list', {
      bulkListId: 'bl-unknown',
      outcomes: ['busy'],
      name: 'X',
    });
    expect(none.ok).toBe(false);
  }, 120_000);

  it("calls:get answers the active workspace's calls only: a call another workspace synced since is not found", async () => {
    const raw = new Database(join(dataDir, 'campaign-desk.sqlite'));
    raw.pragma('busy_timeout = 5000');
    const record = callColumns({
      id: 'moved-call',
      to_number: '+919812345678',
      status: 'completed',
      created_at: new Date(Date.now() - 5 * 86_400_000).toISOString(), // clear of the retention test's picks
    });
    const store = (ws: string) =>
      upsertCalls(raw, {
        workspaceId: ws,
        bulkListId: null,
        rows: [record],
        nowIso: new Date().toISOString(),
      });
    store(workspaceId);
    expect(
      value<{ call: CallDetail }>(await desk.handle('calls:get', { callId: 'moved-call' })).call,
    ).toMatchObject({ id: 'moved-call', workspaceId });
    // Another workspace (the same account added again) syncs it: the call is that workspace's now.
    expect(store('other-workspace')).toMatchObject({ updated: 1 });
    const gone = await desk.handle('calls:get', { callId: 'moved-call' });
    expect(gone.ok ? null : gone.error.code).toBe('not_found');
    // And back to the active workspace, as its next sync does.
    store(workspaceId);
    raw.close();
    expect(
      value<{ call: CallDetail }>(await desk.handle('calls:get', { callId: 'moved-call' })).call,
    ).toMatchObject({ id: 'moved-call', workspaceId });
  });

  it('the retention setting deletes saved recordings of calls older than it (files and state), and keeps newer ones', async () => {
    const day = 86_400_000;
    // Three synced calls get saved recordings (real files in the data folder): two older than a
    // week, one from the last two days. Set up with SQL: the sync's own downloads are tested apart.
    const raw = new Database(join(dataDir, 'campaign-desk.sqlite'));
    const pick = (sql: string, ms: number) =>
      (raw.prepare(sql).all(workspaceId, ms) as Array<{ id: string }>).map((r) => r.id);
    const old = pick(
      `SELECT id FROM calls WHERE workspace_id = ? AND created_ms < ? ORDER BY created_ms LIMIT 2`,
      Date.now() - 8 * day,
    );
    const recent = pick(
      `SELECT id FROM calls WHERE workspace_id = ? AND created_ms > ? ORDER BY created_ms DESC LIMIT 1`,
      Date.now() - 2 * day,
    );
    expect(old).toHaveLength(2);
    expect(recent).toHaveLength(1);
    mkdirSync(recordingsDir(dataDir), { recursive: true });
    const files = new Map<string, string>();
    for (const id of [...old, ...recent]) {
      const path = join(recordingsDir(dataDir), `${id}.mp3`);
      writeFileSync(path, Buffer.alloc(1000, 1));
      files.set(id, path);
      raw
        .prepare(
          `INSERT INTO recordings (seq, workspace_id, state, url, path, bytes)
             SELECT seq, ?, 'saved', NULL, ?, 1000 FROM calls WHERE id = ?
           ON CONFLICT (seq) DO UPDATE SET state = 'saved', path = excluded.path, bytes = 1000`,
        )
        .run(workspaceId, path, id);
    }
    raw.close();
    const before = value<DiskUsage>(await desk.handle('recordings:disk-usage', {}));
    expect(before).toMatchObject({ files: 3, bytes: 3000, retentionDays: null });

    const after = value<DiskUsage>(await desk.handle('recordings:set-retention', { retentionDays: 7 }));
    expect(after).toMatchObject({ files: 1, bytes: 1000, retentionDays: 7 });
    for (const id of old) {
      expect(existsSync(files.get(id)!)).toBe(false);
      const call = value<{ call: CallDetail }>(await desk.handle('calls:get', { callId: id })).call;
      expect(call.recording).toMatchObject({ state: 'expired' });
    }
    expect(existsSync(files.get(recent[0]!)!)).toBe(true);
    // Turned off, nothing more goes.
    expect(
      value<DiskUsage>(await desk.handle('recordings:set-retention', { retentionDays: null })),
    ).toMatchObject({
      files: 1,
      retentionDays: null,
    });
  });

  it('the recording size cap is 200 MB until set; a partial download counts in the bytes, not the files', async () => {
    const before = value<DiskUsage>(await desk.handle('recordings:disk-usage', {}));
    expect(before.maxMegabytes).toBe(200);
    mkdirSync(join(recordingsDir(dataDir), 'some-workspace'), { recursive: true });
    writeFileSync(join(recordingsDir(dataDir), 'some-workspace', 'cut.mp3.part'), Buffer.alloc(500, 1));
    expect(
      value<DiskUsage>(await desk.handle('recordings:set-max-size', { maxMegabytes: 50 })),
    ).toMatchObject({
      maxMegabytes: 50,
      files: before.files,
      bytes: before.bytes + 500,
      partialBytes: 500,
    });
    expect(value<DiskUsage>(await desk.handle('recordings:disk-usage', {})).maxMegabytes).toBe(50);
    expect(await desk.handle('recordings:set-max-size', { maxMegabytes: 0 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });
});
