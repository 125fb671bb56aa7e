// Integration: the history sync against the real sandbox over HTTP with 100,000 seeded calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import type { FetchHistory } from './historySync.ts';
import { runHistorySync, SyncFailure } from './historySync.ts';
import {
  checkSearchIndex,
  historyFetcher,
  openTempDb,
  sandboxStatusCounts,
  startSyncSandbox,
} from './testing.ts';
import type { TempDb } from './testing.ts';

const SEEDED = 100_000;
const DAY = 86_400_000;
let sandbox: SandboxProcess;
let fetchHistory: FetchHistory;
const since = () => Date.now() - 31 * DAY;
const fastRetries = { baseDelayMs: 20, maxDelayMs: 200, maxRetryAfterMs: 1000 };

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  await sandbox.control('POST', '/seed-calls', { count: SEEDED });
  fetchHistory = historyFetcher(sandbox);
}, 120_000);
afterAll(async () => {
  await sandbox?.stop();
});

async function storedByStatus(t: TempDb): Promise<Record<string, number>> {
  const stats = await t.db.call('calls.stats', { workspaceId: 'w1', filter: {} });
  return Object.fromEntries(stats.byStatus.map((s) => [s.status, s.count]));
}

async function expectSameAsSandbox(t: TempDb): Promise<void> {
  const theirs = await sandboxStatusCounts(sandbox);
  const total = Object.values(theirs).reduce((a, b) => a + b, 0);
  const state = await t.db.call('calls.syncState', { workspaceId: 'w1' });
  expect(state.calls).toBe(total);
  expect(await storedByStatus(t)).toEqual(theirs);
  expect(state.pass).toBeNull();
}

describe('history sync against the sandbox (100,000 calls)', () => {
  it('stores each seeded call exactly once in a full sync', async () => {
    const t = await openTempDb();
    try {
      const r = await runHistorySync({
        db: t.db,
        workspaceId: 'w1',
        fetchHistory,
        signal: new AbortController().signal,
        sinceMs: since(),
      });
      expect(r.inserted).toBe(SEEDED);
      expect(r.updated).toBe(0);
      expect(r.retries).toBe(0);
      expect(r.pages).toBeGreaterThanOrEqual(SEEDED / 1000);
      await expectSameAsSandbox(t);
      // A second, incremental pass finds nothing new and changes nothing.
      const again = await runHistorySync({
        db: t.db,
        workspaceId: 'w1',
        fetchHistory,
        signal: new AbortController().signal,
      });
      expect(again.inserted).toBe(0);
      expect(again.updated).toBe(0);
      await expectSameAsSandbox(t);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('gives the same result with 500s, 429s, drops, cut bodies, slow pages and calls added during the pass', async () => {
    const t = await openTempDb();
    const path = 'calling/history';
    await sandbox.control('POST', '/faults', {
      faults: [
        { path, kind: 'error', status: 500, rate: 0.1, max_count: 6 },
        { path, kind: 'error', status: 503, rate: 0.05, max_count: 2 },
        { path, kind: 'error', status: 429, retry_after_seconds: 1, rate: 0.05, max_count: 2 },
        { path, kind: 'drop', rate: 0.05, max_count: 3 },
        { path, kind: 'truncate', rate: 0.05, max_count: 3 },
        { path, kind: 'latency', latency_ms: 300, rate: 0.1, max_count: 6 },
      ],
    });
    let added = false;
    let addition: Promise<unknown> | null = null;
    try {
      const r = await runHistorySync({
        db: t.db,
        workspaceId: 'w1',
        fetchHistory,
        signal: new AbortController().signal,
        sinceMs: since(),
        policy: fastRetries,
        onProgress: (p) => {
          // Half-way through, 2,000 calls arrive, spread over the whole month (above and below us).
          if (!added && p.pages >= 40) {
            added = true;
            addition = sandbox.control('POST', '/seed-calls', { count: 2000 });
          }
        },
      });
      await addition;
      expect(added).toBe(true);
      expect(r.retries).toBeGreaterThan(0);
      const faults = await sandbox.control<{ faults: Array<{ hits: number; kind: string }> }>(
        'GET',
        '/faults',
      );
      expect(faults.faults.every((f) => f.hits > 0)).toBe(true);
      // Calls added behind the pass's position are found by the window recheck or the next pass.
      await runHistorySync({
        db: t.db,
        workspaceId: 'w1',
        fetchHistory,
        signal: new AbortController().signal,
        sinceMs: since(),
        policy: fastRetries,
      });
      await expectSameAsSandbox(t);
    } finally {
      await sandbox.control('DELETE', '/faults');
      await t.close();
    }
  }, 180_000);

  it('resumes after a crash mid-pass without loss or duplicates, every stored call searchable', async () => {
    const t = await openTempDb();
    try {
      let pages = 0;
      const crashing: FetchHistory = async (q, opts) => {
        if (++pages === 30) throw new Error('process killed');
        return fetchHistory(q, opts);
      };
      await expect(
        runHistorySync({
          db: t.db,
          workspaceId: 'w1',
          fetchHistory: crashing,
          signal: new AbortController().signal,
          sinceMs: since(),
        }),
      ).rejects.toThrow(/process killed/);
      const mid = await t.db.call('calls.syncState', { workspaceId: 'w1' });
      expect(mid.pass).not.toBeNull();
      expect(mid.pass!.cursorMs).toBeGreaterThan(mid.pass!.fromMs);
      expect(mid.calls).toBeGreaterThan(0);
      // What the crashed pass stored is already in the search index (stored and indexed together).
      checkSearchIndex(t);
      const r = await runHistorySync({
        db: t.db,
        workspaceId: 'w1',
        fetchHistory,
        signal: new AbortController().signal,
      });
      expect(r.resumed).toBe(true);
      await expectSameAsSandbox(t);
      checkSearchIndex(t);
      const found = await t.db.call('calls.list', {
        workspaceId: 'w1',
        filter: { search: 'reminder' },
        offset: 0,
        limit: 1,
      });
      expect(found.total).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('stops at once with "key rejected" on a 401, and a cancelled pass says so', async () => {
    const t = await openTempDb();
    try {
      const wrongKey = historyFetcher({ baseUrl: sandbox.baseUrl, apiKey: 'sk-wrong' });
      const err = await runHistorySync({
        db: t.db,
        workspaceId: 'w1',
        fetchHistory: wrongKey,
        signal: new AbortController().signal,
        sinceMs: since(),
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SyncFailure);
      expect((err as SyncFailure).code).toBe('key_rejected');
      expect((err as SyncFailure).message).toMatch(/key rejected/);
      const ac = new AbortController();
      const cancelled = await runHistorySync({
        db: t.db,
        workspaceId: 'w1',
        fetchHistory,
        signal: ac.signal,
        sinceMs: since(),
        onProgress: (p) => p.pages >= 3 && ac.abort(),
      }).catch((e: unknown) => e);
      expect((cancelled as SyncFailure).code).toBe('cancelled');
    } finally {
      await t.close();
    }
  }, 60_000);
});
