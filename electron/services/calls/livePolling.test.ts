// Live polling of running campaigns through the desk, against the real sandbox over HTTP and a real
// SQLite file: a running campaign's calls are read by bulk_list_id every few moments (interval
// shortened for the test) until they are all final, then polling stops; a live pass never runs
// at the same time as a manual sync of the workspace.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveStatus, SyncStatus } from '../../../shared/ipc/channels/calls.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { startSyncSandbox } from '../sync/testing.ts';
import { deskOnSandbox, value } from './testing.ts';

const dirs = tempDirs('desk-calls-live-');
let sandbox: SandboxProcess;
let desk: Desk;
let workspaceId: string;
let dataDir: string;

type Fault = { id: number; path: string; hits: number };
const faults = async () => (await sandbox.control<{ faults: Fault[] }>('GET', '/faults')).faults;
const live = async () => value<LiveStatus>(await desk.handle('calls:live', {}));
const campaign = async (id: string) => (await live()).campaigns.find((c) => c.bulkListId === id);

/** What the launch records: this campaign was started from here (as the campaigns feature writes it). */
function recordLaunch(bulkListId: string, contacts: number) {
  const db = new Database(join(dataDir, 'campaign-desk.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    const at = new Date().toISOString();
    db.prepare(
      `INSERT INTO campaign_launches (id, workspace_id, name, agent_id, flow, state, step, settings, upload_file,
         bulk_list_id, valid, created_at, updated_at)
       VALUES (?, ?, ?, 'agent', 'large', 'started', 'make-call-async', '{}', 'u.csv', ?, ?, ?, ?)`,
    ).run(`launch-${bulkListId}`, workspaceId, `Campaign ${bulkListId}`, bulkListId, contacts, at, at);
  } finally {
    db.close();
  }
}

async function seedOpenCalls(bulkListId: string, count: number) {
  const now = Date.now();
  await sandbox.control('POST', '/seed-calls', {
    count,
    bulk_list_id: bulkListId,
    status: 'registered',
    start_date: new Date(now - 120_000).toISOString(),
    end_date: new Date(now - 60_000).toISOString(),
  });
}

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  dataDir = dirs.make();
  ({ desk, workspaceId } = await deskOnSandbox(sandbox, dataDir, {
    livePollMs: 100,
    livePollMaxMs: 400,
    connectivityIntervalMs: 200,
  }));
}, 60_000);
afterAll(async () => {
  await desk?.close();
  await sandbox?.stop();
  dirs.cleanup();
});

describe('live polling of running campaigns', () => {
  it('polls a running campaign by bulk_list_id until its calls are all final, then stops asking', async () => {
    // Counts every history request (a zero-latency fault only counts hits).
    await sandbox.control('POST', '/faults', {
      path: '/v0/calling/history*',
      kind: 'latency',
      latency_ms: 0,
    });
    const [history] = await faults();
    const hits = async () => (await faults()).find((f) => f.id === history!.id)!.hits;
    await seedOpenCalls('bl-live-1', 30);
    recordLaunch('bl-live-1', 30);

    // Nobody clicks Sync: the campaign's calls arrive and the counters fill in by themselves.
    const stored = async (bulkListId: string) =>
      value<{ total: number }>(
        await desk.handle('calls:list', { filter: { bulkListId }, offset: 0, limit: 1 }),
      ).total;
    await expect.poll(() => stored('bl-live-1'), { timeout: 30_000, interval: 100 }).toBe(30);
    await expect
      .poll(async () => (await campaign('bl-live-1'))?.left, { timeout: 30_000, interval: 100 })
      .toBe(30);
    expect((await live()).polling).toBe(true);
    await expect.poll(async () => (await live()).updatedAt, { timeout: 10_000, interval: 50 }).not.toBeNull();

    // The campaign ends (terminated on the service): the next pass sees every call final.
    const res = await fetch(`${sandbox.baseUrl}/campaign/terminate`, {
      method: 'PATCH',
      headers: { 'x-api-key': sandbox.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ campaign_id: 'bl-live-1' }),
    });
    expect(res.status).toBe(200);
    await expect
      .poll(async () => (await campaign('bl-live-1'))?.running, { timeout: 30_000, interval: 100 })
      .toBe(false);
    const ended = await campaign('bl-live-1');
    expect(ended).toMatchObject({ left: 0, dialled: 0, estimatedFinishAt: null });
    expect((await live()).polling).toBe(false);

    // Polling has stopped: no history request over many poll intervals.
    const after = await hits();
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await hits()).toBe(after);
    await sandbox.control('DELETE', '/faults');
  }, 90_000);

  it('never runs a live pass while a manual sync of the workspace runs (one pass at a time)', async () => {
    // Slow history answers: passes take a while, so they would overlap if the lock let them.
    await sandbox.control('POST', '/faults', {
      path: '/v0/calling/history*',
      kind: 'latency',
      latency_ms: 150,
    });
    await seedOpenCalls('bl-live-2', 40);
    recordLaunch('bl-live-2', 40);
    const timeline: Array<{ kind: 'live' | 'sync'; running: boolean }> = [];
    const offLive = desk.on('calls:live-changed', (s) => timeline.push({ kind: 'live', running: s.running }));
    let syncing = false;
    const offSync = desk.on('calls:sync-progress', (s: SyncStatus) => {
      const now = s.state === 'running';
      if (now !== syncing) timeline.push({ kind: 'sync', running: now });
      syncing = now;
    });
    await expect
      .poll(async () => (await campaign('bl-live-2'))?.left, { timeout: 30_000, interval: 100 })
      .toBe(40);
    // Manual syncs asked for while live passes come and go.
    for (let i = 0; i < 3; i++) {
      await expect
        .poll(() => timeline.at(-1), { timeout: 10_000, interval: 20 })
        .toEqual({ kind: 'live', running: true });
      const { started } = value<{ started: boolean }>(
        await desk.handle('calls:sync', {
          since: new Date(Date.now() - 3_600_000).toISOString(),
          recordings: false,
        }),
      );
      expect(started).toBe(true);
      await expect.poll(() => syncing, { timeout: 30_000, interval: 20 }).toBe(true);
      await expect.poll(() => syncing, { timeout: 60_000, interval: 20 }).toBe(false);
    }
    offLive();
    offSync();
    // Replayed in order: a pass starts only while no other runs.
    let current: 'live' | 'sync' | null = null;
    for (const e of timeline) {
      if (e.running) {
        expect(current, JSON.stringify(timeline)).toBeNull();
        current = e.kind;
      } else if (current === e.kind) current = null;
    }
    expect(timeline.filter((e) => e.kind === 'sync' && e.running)).toHaveLength(3);
    await sandbox.control('DELETE', '/faults');
  }, 180_000);
});
