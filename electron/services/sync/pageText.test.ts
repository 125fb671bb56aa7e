// Integration: history pages stored from their text (the API client's listCallHistoryPage; the DB
// worker reads, checks and stores the records, calls.storePages), from the real sandbox over HTTP
// into real SQLite files, against a reference made without the sync: the same calls fetched by
// plain HTTP in three pages, each record checked (readCallRecords), made into a row (callColumns)
// and written by the store's own functions (upsertCalls, quarantineRecords) into another file. The
// sync (windows, pages in flight, batches, the worker's reading) must store the same calls,
// recordings, quarantine and chart aggregates, with the fixed reasons below; a pass killed mid-way
// resumes to the same result.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCallRecords } from '../../../shared/service/history.ts';
import type { RejectedRecord } from '../../../shared/service/history.ts';
import { createApiClient } from '../api/client.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { quarantineRecords } from '../calls/quarantine.queries.ts';
import { upsertCalls } from '../calls/store/upsertCalls.ts';
import { closeDatabase, openDatabase } from '../db/openDatabase.ts';
import { callColumns, columnsBatch } from './callRow.ts';
import type { FetchHistory } from './historySync.ts';
import { runHistorySync } from './historySync.ts';
import { checkSearchIndex, historyFetcher, openTempDb, startSyncSandbox } from './testing.ts';
import type { TempDb } from './testing.ts';

const SEEDED = 3_000;
const DAY = 86_400_000;
/** Small pages and windows: many pages, joined into batches by the store chain. */
const policy = { pageSize: 100, targetWindowCalls: 500 };
let sandbox: SandboxProcess;
let fromText: FetchHistory;
const since = () => Date.now() - 31 * DAY;

/** The calls given OVERRIDES, in order. */
const overridden: string[] = [];

/**
 * What each refused override is quarantined as (call id by its index in OVERRIDES): field and
 * reason fixed here, so a change in how records are checked shows as a failure, not as a change
 * on both sides of a comparison.
 */
const REFUSED: Array<[index: number, field: string, reason: string]> = [
  [0, 'created_at', 'created_at: "2025-02-30T10:00:00Z" day 30 does not exist in 2025-02'],
  [1, 'call_cost', 'call_cost: must not be negative'],
  [2, 'agent.id', 'agent.id: Invalid input: expected string, received number'],
  [3, 'status', 'status: Invalid input: expected string, received null'],
  [4, 'id', 'id: Too small: expected string to have >=1 characters'],
  [5, 'id', 'id: Too big: expected string to have <=200 characters'],
  [6, 'transcript', 'transcript: Invalid input'],
];

/** Records the sandbox serves malformed (quarantined) or at an edge (stored as the schema reads them). */
const OVERRIDES: Array<Record<string, unknown>> = [
  { created_at: '2025-02-30T10:00:00Z' },
  { call_cost: -1 },
  { agent: { id: 7 } },
  { status: null },
  { id: '' },
  { id: 'x'.repeat(201) },
  { transcript: [{ bot: 'Hello there' }, 'not a turn'] },
  { call_duration: 1e308 },
  { extra_field: 'kept out of raw', agent: { id: 'a-1', agent_name: 'X', unknown: 1 } },
  { call_attempt_time: '2026-11-01 10:00:00.123456+05:30', voicemail_detected: true },
];

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  await sandbox.control('POST', '/seed-calls', { count: SEEDED });
  const api = createApiClient({
    baseUrl: sandbox.baseUrl,
    apiKey: async () => sandbox.apiKey,
    maxRetries: 0,
  });
  const page = await api.listCallHistory({
    start_date: new Date(since()).toISOString(),
    end_date: new Date(Date.now() + DAY).toISOString(),
    limit: 1000,
  });
  for (const [i, fields] of OVERRIDES.entries()) {
    const callId = page.calls[i * 97]!.id;
    overridden.push(callId);
    await sandbox.control('POST', '/history-overrides', { call_id: callId, fields });
  }
  fromText = historyFetcher(sandbox);
}, 120_000);
afterAll(async () => {
  await sandbox?.stop();
});

/** What a sync stored, in an order that does not depend on how pages were batched. */
function stored(t: Pick<TempDb, 'dir'>) {
  const db = new Database(join(t.dir, 'campaign-desk.sqlite'), { readonly: true });
  try {
    const all = (sql: string) => db.prepare(sql).raw().all();
    return {
      calls:
        all(`SELECT id, workspace_id, bulk_list_id, to_number, name, status, sub_status, terminal, created_at,
        created_ms, attempt_ms, call_duration, call_cost, voicemail, agent_id, agent_name, transcript_raw,
        transcript_text, number_text, raw FROM calls ORDER BY id`),
      recordings: all(
        `SELECT c.id, r.state, r.url, r.expires_ms FROM recordings r JOIN calls c ON c.seq = r.seq ORDER BY c.id`,
      ),
      quarantine: all(
        `SELECT record_key, call_id, field, reason, raw FROM call_quarantine ORDER BY record_key`,
      ),
      pairs: all(`SELECT * FROM call_agg_pairs ORDER BY 1, 2, 3, 4, 5`),
      slots: all(`SELECT * FROM call_agg_slots ORDER BY 1, 2, 3`),
      values: all(`SELECT * FROM call_agg_values ORDER BY 1, 2, 3, 4`),
      numbers: all(`SELECT * FROM call_agg_numbers ORDER BY 1, 2, 3, 4`),
    };
  } finally {
    db.close();
  }
}

/**
 * The reference, made without the sync: every call of the range fetched by plain HTTP (three pages
 * of 1,000), read by readCallRecords, made into rows by callColumns and written by the store's own
 * functions (upsertCalls, then quarantineRecords) on a connection of its own, into a file of its own.
 */
async function reference(): Promise<{ dir: string; close(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'desk-sync-ref-'));
  const db = openDatabase(join(dir, 'campaign-desk.sqlite'));
  try {
    const nowIso = new Date().toISOString();
    const rejected: RejectedRecord[] = [];
    for (let offset = 0; offset < SEEDED; offset += 1000) {
      const url = new URL(`${sandbox.baseUrl}/calling/history`);
      url.searchParams.set('start_date', new Date(since()).toISOString());
      url.searchParams.set('end_date', new Date(Date.now() + DAY).toISOString());
      url.searchParams.set('limit', '1000');
      url.searchParams.set('offset', String(offset));
      const res = await fetch(url, { headers: { 'X-API-KEY': sandbox.apiKey } });
      expect(res.status).toBe(200);
      const { calls } = (await res.json()) as { calls: unknown[] };
      expect(calls).toHaveLength(1000);
      const read = readCallRecords(calls);
      rejected.push(...read.rejected);
      upsertCalls(db, {
        workspaceId: 'w1',
        bulkListId: null,
        rows: columnsBatch(read.records.map(callColumns)),
        nowIso,
      });
    }
    quarantineRecords(db, { workspaceId: 'w1', records: rejected, nowIso });
  } finally {
    closeDatabase(db);
  }
  return { dir, close: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One pass of workspace w1 into `t` (from the range's start, or resumed from the saved pass). */
const pass = (t: TempDb, fetchHistory: FetchHistory, resume = false) =>
  runHistorySync({
    db: t.db,
    workspaceId: 'w1',
    fetchHistory,
    signal: new AbortController().signal,
    ...(resume ? {} : { sinceMs: since() }),
    policy,
  });

async function syncAll(fetchHistory: FetchHistory) {
  const t = await openTempDb();
  return { t, r: await pass(t, fetchHistory) };
}

describe('history pages stored from their text by the DB worker', () => {
  it('store and quarantine exactly what the same records read and upserted without the sync store, with the fixed reasons', async () => {
    const a = await syncAll(fromText);
    const b = await reference();
    try {
      expect([a.r.skipped, a.r.inserted, a.r.updated]).toEqual([7, SEEDED - 7, 0]);
      // Every record received (a call on a window's edge may be received by both windows).
      expect(a.r.received).toBeGreaterThanOrEqual(SEEDED);
      const mine = stored(a.t);
      expect(mine.calls).toHaveLength(SEEDED - 7);
      expect(mine.quarantine).toHaveLength(7);
      // Each refused override's field and reason; its raw JSON is the record as served (its id).
      const rawId = (q: unknown[]) => (JSON.parse(String(q[4])) as { id?: unknown }).id;
      for (const [index, field, reason] of REFUSED) {
        const id = (OVERRIDES[index]!.id as string | undefined) ?? overridden[index]!;
        const row = mine.quarantine.map((q) => q as unknown[]).find((q) => rawId(q) === id);
        expect(row, `override ${index}`).toBeDefined();
        expect(row![1], `override ${index}: call id`).toBe(index === 4 || index === 5 ? null : id);
        expect(row![2], `override ${index}: field`).toBe(field);
        expect(row![3], `override ${index}: reason`).toBe(reason);
      }
      const byCall = new Map(mine.quarantine.map((q) => [(q as unknown[])[1], q]));
      // Edge values stored as the schema reads them, never quarantined.
      for (const index of [7, 8, 9]) {
        expect(byCall.has(overridden[index]!), `override ${index}`).toBe(false);
        expect(
          mine.calls.some((c) => (c as unknown[])[0] === overridden[index]),
          `override ${index}`,
        ).toBe(true);
      }
      expect(mine).toEqual(stored(b));
      checkSearchIndex(a.t);
      checkSearchIndex(b);
    } finally {
      await a.t.close();
      b.close();
    }
  }, 120_000);

  it('resumes a pass killed mid-way to the same calls, quarantine and aggregates as one whole pass', async () => {
    const t = await openTempDb();
    const whole = await syncAll(fromText);
    try {
      let pages = 0;
      const crashing: FetchHistory = async (q, opts) => {
        if (++pages === 17) throw new Error('process killed');
        return fromText(q, opts);
      };
      await expect(pass(t, crashing)).rejects.toThrow(/process killed/);
      const mid = await t.db.call('calls.syncState', { workspaceId: 'w1' });
      expect(mid.pass).not.toBeNull();
      expect(mid.calls).toBeGreaterThan(0);
      expect(mid.calls).toBeLessThan(SEEDED - 7);
      const r = await pass(t, fromText, true);
      expect(r.resumed).toBe(true);
      const state = await t.db.call('calls.syncState', { workspaceId: 'w1' });
      expect(state.calls).toBe(SEEDED - 7);
      expect(state.pass).toBeNull();
      expect(stored(t)).toEqual(stored(whole.t));
      expect(stored(t).quarantine).toHaveLength(7);
      checkSearchIndex(t);
    } finally {
      await t.close();
      await whole.t.close();
    }
  }, 120_000);
});
