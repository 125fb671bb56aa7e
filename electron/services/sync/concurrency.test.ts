// Integration: the sync's requests in flight against the real sandbox over HTTP, with the sandbox's
// network profile (latency) and its own count of requests in flight. The limit is never exceeded,
// it halves on a 429 and nothing leaves during Retry-After, recordings come alongside within their
// own limit, and a sync killed (SIGKILL, the CLI) with 4 requests in flight resumes without loss or
// duplicates.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCount } from '../../../shared/domain/formatCount.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { startSandboxProcess } from '../api/testing/sandboxProcess.ts';
import type { FetchHistory } from './historySync.ts';
import { runHistorySync } from './historySync.ts';
import { checkSearchIndex, historyFetcher, openTempDb, sandboxStatusCounts } from './testing.ts';
import type { TempDb } from './testing.ts';
import { runWorkspaceSync } from './workspaceSync.ts';

const SEEDED = 20_000;
const DAY = 86_400_000;
const cli = fileURLToPath(new URL('../../cli/main.ts', import.meta.url));
let sandbox: SandboxProcess;
let fetchHistory: FetchHistory;
const since = () => Date.now() - 31 * DAY;

interface Lane {
  requests: number;
  in_flight: number;
  max_in_flight: number;
}
type Counters = Record<'history' | 'recordings', Lane>;
const counters = async () => (await sandbox.control<{ counters: Counters }>('GET', '/network')).counters;
const setNetwork = (profile: string) =>
  sandbox.control('POST', '/network', { profile, reset_counters: true });

beforeAll(async () => {
  sandbox = await startSandboxProcess({
    apiKey: `sk-conc-${Math.random().toString(36).slice(2)}`,
    network: 'rtt=60ms',
  });
  await sandbox.control('POST', '/seed-calls', { count: SEEDED });
  fetchHistory = historyFetcher(sandbox);
}, 120_000);
afterAll(async () => {
  await sandbox?.stop();
});

async function expectSameAsSandbox(t: TempDb): Promise<void> {
  const theirs = await sandboxStatusCounts(sandbox);
  const stats = await t.db.call('calls.stats', { workspaceId: 'w1', filter: {} });
  expect(Object.fromEntries(stats.byStatus.map((s) => [s.status, s.count]))).toEqual(theirs);
  const state = await t.db.call('calls.syncState', { workspaceId: 'w1' });
  expect(state.calls).toBe(Object.values(theirs).reduce((a, b) => a + b, 0));
  expect(state.pass).toBeNull();
}

describe('history requests in flight (sandbox with 60 ms round trips, 20,000 calls)', () => {
  it('never has more requests in flight than its limit, counted by the sandbox, and uses them', async () => {
    for (const limit of [4, 2]) {
      const t = await openTempDb();
      try {
        await setNetwork('rtt=60ms');
        const r = await runHistorySync({
          db: t.db,
          workspaceId: 'w1',
          fetchHistory,
          signal: new AbortController().signal,
          sinceMs: since(),
          policy: { maxInFlight: limit, pageSize: 250 },
        });
        const seen = (await counters()).history;
        expect(seen.max_in_flight).toBeLessThanOrEqual(limit);
        expect(seen.max_in_flight).toBe(limit); // the pages were asked for side by side
        expect(r.concurrency.peakInFlight).toBe(limit);
        expect(r.inserted).toBe(SEEDED);
        await expectSameAsSandbox(t);
      } finally {
        await t.close();
      }
    }
  }, 180_000);

  it('says how many calls are stored while the pass runs, not only when it ends', async () => {
    const t = await openTempDb();
    try {
      await setNetwork('rtt=60ms');
      const seen: Array<{ calls: number; inserted: number }> = [];
      const report = await runWorkspaceSync({
        db: t.db,
        dataDir: t.dir,
        workspaceId: 'w1',
        serviceBaseUrl: sandbox.baseUrl,
        fetchHistory,
        signal: new AbortController().signal,
        sinceMs: since(),
        recordings: false,
        policy: { pageSize: 250 },
        onStatus: (s) => {
          if (s.phase === 'history') seen.push({ calls: s.calls, inserted: s.inserted });
        },
      });
      expect(report.status.state).toBe('done');
      expect(report.status.calls).toBe(SEEDED);
      // A fresh file: what the panel says is stored is what the pass has stored so far.
      for (const s of seen) expect(s.calls).toBe(s.inserted);
      expect(seen.some((s) => s.calls > 0 && s.calls < SEEDED)).toBe(true);
    } finally {
      await t.close();
    }
  }, 180_000);

  it('halves its limit on a 429 and sends nothing during Retry-After, then stays within the new limit', async () => {
    const t = await openTempDb();
    await setNetwork('rtt=60ms');
    const changes: Array<{ limit: number; reason: string }> = [];
    let faultAdded = false;
    let pausedRequests: number | null = null;
    let check: Promise<void> | null = null;
    try {
      const r = await runHistorySync({
        db: t.db,
        workspaceId: 'w1',
        fetchHistory,
        signal: new AbortController().signal,
        sinceMs: since(),
        // No growth back within this test: what follows the 429 runs at the halved limit.
        policy: { maxInFlight: 4, pageSize: 250, growAfterPages: 1_000_000, latencyRiseFactor: 1000 },
        onProgress: (p) => {
          if (!faultAdded && p.pages >= 12) {
            faultAdded = true;
            void sandbox.control('POST', '/faults', {
              path: 'calling/history',
              kind: 'error',
              status: 429,
              retry_after_seconds: 2,
              max_count: 1,
            });
          }
        },
        onConcurrency: (limit, reason) => {
          changes.push({ limit, reason });
          if (reason !== 'rate_limited' || check) return;
          // The requests already out finish within ~0.7 s (60 ms each); from then until the
          // 2 s Retry-After ends, the sandbox must see no request at all.
          check = (async () => {
            await new Promise((r) => setTimeout(r, 700));
            await sandbox.control('POST', '/network', { reset_counters: true });
            await new Promise((r) => setTimeout(r, 800));
            pausedRequests = (await counters()).history.requests;
          })();
        },
      });
      await check;
      expect(changes[0]).toEqual({ limit: 2, reason: 'rate_limited' });
      expect(r.concurrency.halvings).toBe(1);
      expect(r.retries).toBe(1);
      expect(pausedRequests).toBe(0);
      // Counted by the sandbox from 0.7 s after the 429 to the end: never more than the halved limit.
      const after = (await counters()).history;
      expect(after.requests).toBeGreaterThan(10);
      expect(after.max_in_flight).toBeLessThanOrEqual(2);
      await expectSameAsSandbox(t);
    } finally {
      await sandbox.control('DELETE', '/faults');
      await t.close();
    }
  }, 180_000);

  it('downloads recordings alongside the history pages, within their own limit', async () => {
    // Its own sandbox: calls of the last 20 hours (their recordings still downloadable), read in
    // many small windows, so recordings are due from the first stored window on. 4,000 of them: with
    // windows' first pages asked ahead, 2,000 were read in too short a time to save 10 recordings.
    const own = await startSandboxProcess({
      apiKey: `sk-rec-${Math.random().toString(36).slice(2)}`,
      network: 'rtt=60ms',
    });
    const t = await openTempDb();
    const lanes = async () => (await own.control<{ counters: Counters }>('GET', '/network')).counters;
    let overlap = false;
    let polling = true;
    let poll: Promise<void> = Promise.resolve();
    try {
      await own.control('POST', '/seed-calls', {
        count: 4000,
        start_date: new Date(Date.now() - 20 * 3_600_000).toISOString(),
        end_date: new Date(Date.now() - 60_000).toISOString(),
      });
      poll = (async () => {
        while (polling) {
          const c = await lanes();
          if (c.history.in_flight > 0 && c.recordings.in_flight > 0) overlap = true;
          await new Promise((r) => setTimeout(r, 25));
        }
      })();
      const ac = new AbortController();
      const report = await runWorkspaceSync({
        db: t.db,
        dataDir: t.dir,
        workspaceId: 'w1',
        serviceBaseUrl: own.baseUrl,
        fetchHistory: historyFetcher(own),
        signal: ac.signal,
        sinceMs: Date.now() - DAY,
        recordings: true,
        policy: { pageSize: 100, initialWindowMs: 3_600_000, targetWindowCalls: 200 },
        onStatus: (s) => {
          // What was saved by now was saved alongside the history pages; the rest is not needed.
          if (s.phase === 'recordings') ac.abort();
        },
      });
      polling = false;
      await poll;
      expect(overlap).toBe(true);
      expect(report.status.state).toBe('cancelled');
      expect(report.recordings.saved).toBeGreaterThan(10);
      const c = await lanes();
      expect(c.history.max_in_flight).toBeLessThanOrEqual(4);
      expect(c.recordings.max_in_flight).toBeLessThanOrEqual(3);
      expect(c.recordings.max_in_flight).toBeGreaterThan(1);
    } finally {
      polling = false;
      await poll;
      await t.close();
      await own.stop();
    }
  }, 180_000);

  it('killed (SIGKILL) with 4 requests in flight, resumes on the next run without loss or duplicates', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'desk-conc-kill-'));
    const data = join(dir, 'data');
    const env = { ...process.env, CAMPAIGN_DESK_API_KEY: sandbox.apiKey };
    const args = ['sync', '--data', data, '--base-url', sandbox.baseUrl, '--no-recordings'];
    try {
      // Slow pages, so the moment with 4 out lasts long enough to be seen and killed in (and the
      // sandbox's own time per page is small beside the round trip: latency does not halve the limit).
      await setNetwork('rtt=1500ms');
      const child = spawn(process.execPath, [cli, ...args, '--since', new Date(since()).toISOString()], {
        env,
        stdio: 'ignore',
      });
      const closed = new Promise((r) => child.on('close', r));
      let inFlightAtKill = 0;
      let mostSeen = 0;
      const deadline = Date.now() + 120_000;
      while (child.exitCode === null && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        let stored = 0;
        try {
          const db = new Database(join(data, 'campaign-desk.sqlite'), {
            readonly: true,
            fileMustExist: true,
          });
          try {
            const pass = db.prepare(`SELECT pass FROM call_sync`).pluck().get() as string | undefined;
            const p = pass ? (JSON.parse(pass) as { fromMs: number; cursorMs: number }) : null;
            if (p && p.cursorMs > p.fromMs)
              stored = db.prepare(`SELECT count(*) FROM calls`).pluck().get() as number;
          } finally {
            db.close();
          }
        } catch {
          continue; // not created or migrated yet
        }
        if (stored === 0) continue;
        const inFlight = (await counters()).history.in_flight;
        mostSeen = Math.max(mostSeen, inFlight);
        if (inFlight === 4) {
          child.kill('SIGKILL');
          inFlightAtKill = inFlight;
          break;
        }
      }
      await closed;
      expect(child.signalCode, `most requests in flight seen: ${mostSeen}`).toBe('SIGKILL');
      expect(inFlightAtKill).toBe(4);
      const before = new Database(join(data, 'campaign-desk.sqlite'), { readonly: true });
      const partial = before.prepare(`SELECT count(*) FROM calls`).pluck().get() as number;
      before.close();
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(SEEDED);

      await setNetwork('rtt=20ms');
      const resumed = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const c = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        c.stdout.on('data', (d: Buffer) => (out += d.toString()));
        c.stderr.on('data', (d: Buffer) => (out += d.toString()));
        c.on('close', (code) => resolve({ code, out }));
      });
      expect(resumed.code, resumed.out).toBe(0);
      // Every call once: the resumed run inserted exactly what the killed one had not stored.
      expect(resumed.out).toContain(
        `Synced ${formatCount(SEEDED)} calls (${formatCount(SEEDED - partial)} new, `,
      );
      const after = new Database(join(data, 'campaign-desk.sqlite'), { readonly: true });
      try {
        expect(after.prepare(`SELECT count(*) FROM calls`).pluck().get()).toBe(SEEDED);
        expect(after.prepare(`SELECT count(DISTINCT id) FROM calls`).pluck().get()).toBe(SEEDED);
        expect(after.prepare(`SELECT pass FROM call_sync`).pluck().get()).toBeNull();
      } finally {
        after.close();
      }
      // The search index holds each stored call once, with its text.
      checkSearchIndex({ dir: data });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
