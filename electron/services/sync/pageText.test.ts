// Integration: history pages stored from their text (the API client's listCallHistoryPage; the DB
// worker reads, checks and stores the records, calls.storePages) against the same pages read on the
// main thread (listCallHistoryRecords, the records path), both from the real sandbox over HTTP into
// real SQLite files. Malformed records are quarantined with the same field, reason and raw JSON,
// the same calls and chart aggregates are stored, and a pass killed mid-way resumes to the same result.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../api/client.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
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
let fromRecords: FetchHistory;
const since = () => Date.now() - 31 * DAY;

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
  const page = await api.listCallHistoryRecords({
    start_date: new Date(since()).toISOString(),
    end_date: new Date(Date.now() + DAY).toISOString(),
    limit: 1000,
  });
  for (const [i, fields] of OVERRIDES.entries())
    await sandbox.control('POST', '/history-overrides', { call_id: page.records[i * 97]!.id, fields });
  fromText = historyFetcher(sandbox);
  fromRecords = (q, opts) => api.listCallHistoryRecords(q, opts);
}, 120_000);
afterAll(async () => {
  await sandbox?.stop();
});

/** What a sync stored, in an order that does not depend on how pages were batched. */
function stored(t: TempDb) {
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
  it('store and quarantine exactly what the records read on the main thread store, with the same reasons', async () => {
    const a = await syncAll(fromText);
    const b = await syncAll(fromRecords);
    try {
      expect(a.r.skipped).toBe(7);
      expect(a.r.inserted).toBe(SEEDED - 7);
      expect([a.r.received, a.r.skipped, a.r.inserted, a.r.updated]).toEqual([
        b.r.received,
        b.r.skipped,
        b.r.inserted,
        b.r.updated,
      ]);
      const mine = stored(a.t);
      expect(mine.quarantine).toHaveLength(7);
      expect(mine.quarantine.map((q) => (q as unknown[])[3])).toContain('call_cost: must not be negative');
      expect(mine).toEqual(stored(b.t));
      checkSearchIndex(a.t);
    } finally {
      await a.t.close();
      await b.t.close();
    }
  }, 120_000);

  it('resumes a pass killed mid-way to the same calls, quarantine and aggregates as one whole pass', async () => {
    const t = await openTempDb();
    const whole = await syncAll(fromRecords);
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
      checkSearchIndex(t);
    } finally {
      await t.close();
      await whole.t.close();
    }
  }, 120_000);
});
