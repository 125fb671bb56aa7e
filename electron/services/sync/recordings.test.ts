// Integration: recordings saved from the real sandbox over HTTP (live ones saved with size and
// sha256, expired ones marked from the 410 and never retried, cut downloads resumed with Range).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { runHistorySync } from './historySync.ts';
import { saveRecordings } from './recordings.ts';
import { historyFetcher, openTempDb, startSyncSandbox } from './testing.ts';
import type { TempDb } from './testing.ts';

const HOUR = 3_600_000;
let sandbox: SandboxProcess;
let t: TempDb;
const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  const now = Date.now();
  await sandbox.control('POST', '/seed-calls', {
    count: 120,
    start_date: iso(now - 4 * HOUR),
    end_date: iso(now - 2 * HOUR),
  });
  await sandbox.control('POST', '/seed-calls', {
    count: 60,
    start_date: iso(now - 96 * HOUR),
    end_date: iso(now - 72 * HOUR),
  });
  t = await openTempDb();
  await runHistorySync({
    db: t.db,
    workspaceId: 'w1',
    fetchHistory: historyFetcher(sandbox),
    signal: new AbortController().signal,
    sinceMs: now - 5 * 24 * HOUR,
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await sandbox?.stop();
});

describe('recordings queue against the sandbox', () => {
  it('marks recordings long expired without asking for them', async () => {
    const local = await openTempDb();
    try {
      const now = Date.now();
      await runHistorySync({
        db: local.db,
        workspaceId: 'w1',
        fetchHistory: historyFetcher(sandbox),
        signal: new AbortController().signal,
        sinceMs: now - 5 * 24 * HOUR,
      });
      let requests = 0;
      const counting: typeof fetch = (input, init) => {
        requests++;
        return fetch(input, init);
      };
      const r = await saveRecordings({
        db: local.db,
        dataDir: local.dir,
        workspaceId: 'w1',
        signal: new AbortController().signal,
        serviceOrigin: new URL(sandbox.baseUrl).origin,
        fetch: counting,
      });
      const counts = await local.db.call('recordings.counts', { workspaceId: 'w1' });
      expect(r.expired).toBeGreaterThan(0);
      expect(counts.expired).toBe(r.expired);
      // Only the live ones were requested.
      expect(requests).toBe(r.saved);
      expect(counts.pending).toBe(0);
    } finally {
      await local.close();
    }
  }, 60_000);

  it('queues pending recordings soonest expiry first', async () => {
    const jobs = await t.db.call('recordings.next', {
      workspaceId: 'w1',
      limit: 50,
      nowMs: Date.now(),
      skip: [],
    });
    expect(jobs.length).toBeGreaterThan(10);
    const expiries = jobs.map((j) => j.expiresMs ?? 0);
    expect(expiries).toEqual([...expiries].sort((a, b) => a - b));
  });

  it('saves live recordings (size, sha256), marks expired ones from the 410 once, and resumes cut downloads', async () => {
    const before = await t.db.call('recordings.counts', { workspaceId: 'w1' });
    expect(before.pending).toBeGreaterThan(0);
    // Three downloads of live recordings are cut half-way (full Content-Length announced, connection
    // closed). Expired ones come first in the queue and take one fault hit each with their 410.
    const queued = await t.db.call('recordings.next', {
      workspaceId: 'w1',
      limit: 1000,
      nowMs: Date.now(),
      skip: [],
    });
    const expiredFirst = queued.filter((j) => (j.expiresMs ?? 0) < Date.now()).length;
    await sandbox.control('POST', '/faults', {
      path: 'recordings/*',
      kind: 'truncate',
      max_count: expiredFirst + 3,
    });
    try {
      const r = await saveRecordings({
        db: t.db,
        dataDir: t.dir,
        workspaceId: 'w1',
        signal: new AbortController().signal,
        serviceOrigin: new URL(sandbox.baseUrl).origin,
        baseDelayMs: 10,
        // Ask for every one (no local expiry), so the 410 path is exercised.
        expiredGraceMs: 30 * 24 * HOUR,
      });
      const after = await t.db.call('recordings.counts', { workspaceId: 'w1' });
      expect(after.pending).toBe(0);
      expect(after.failed).toBe(0);
      expect(r.failed).toBe(0);
      expect(r.saved).toBe(after.saved);
      expect(r.expired).toBe(after.expired);
      expect(after.saved).toBeGreaterThan(0);
      expect(after.expired).toBeGreaterThan(0);
      expect(after.saved + after.expired).toBe(before.pending);
      expect(r.retried).toBeGreaterThanOrEqual(3);
      expect(r.resumed).toBeGreaterThanOrEqual(1);

      const { rows } = await t.db.call('calls.list', {
        workspaceId: 'w1',
        filter: { recording: ['saved', 'expired'] },
        offset: 0,
        limit: 500,
      });
      let checked = 0;
      for (const row of rows) {
        const call = await t.db.call('calls.get', { callId: row.id });
        if (!call) throw new Error(`call ${row.id} missing`);
        if (call.recording === 'saved') {
          const bytes = readFileSync(call.rec_path!);
          expect(bytes.length).toBe(call.rec_bytes);
          expect(createHash('sha256').update(bytes).digest('hex')).toBe(call.rec_sha256);
          expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
          checked++;
        } else {
          expect(call.rec_attempts).toBe(1);
          expect(call.rec_error).toMatch(/expired/);
        }
      }
      expect(checked).toBe(after.saved);

      // Nothing is left to do: a second run downloads nothing and never retries an expired one.
      expect(await t.db.call('recordings.expireOverdue', { workspaceId: 'w1', beforeMs: Date.now() })).toBe(
        0,
      );
      const again = await saveRecordings({
        db: t.db,
        dataDir: t.dir,
        workspaceId: 'w1',
        signal: new AbortController().signal,
        serviceOrigin: new URL(sandbox.baseUrl).origin,
      });
      expect(again).toEqual({ saved: 0, expired: 0, failed: 0, retried: 0, resumed: 0 });
    } finally {
      await sandbox.control('DELETE', '/faults');
    }
  }, 90_000);
});
