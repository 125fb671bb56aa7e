// The calls sync's state per workspace: its watermark, the pass under way (resumed after a
// crash), and what the next pass asks again (calls not final yet, campaigns to query).
import { z } from 'zod';
import type { Db } from '../db/define.ts';
import { prepared, query } from '../db/define.ts';
import { storedJson } from '../db/storedJson.ts';
import { quarantineCount } from './quarantine.queries.ts';
import { recordingCounts } from './recordings.queries.ts';
import { aggregateTotal } from './search/aggregateTotal.ts';

const syncPassSchema = z.object({
  fromMs: z.number(),
  toMs: z.number(),
  /** Everything in [fromMs, cursorMs) is stored. */
  cursorMs: z.number(),
});
export type SyncPass = z.infer<typeof syncPassSchema>;
const syncPassJson = storedJson(syncPassSchema, 'sync pass');

export interface SyncRow {
  watermarkMs: number | null;
  lastSyncedAt: string | null;
  pass: SyncPass | null;
}

function readSync(db: Db, workspaceId: string): SyncRow {
  const row = prepared<
    [string],
    { watermark_ms: number | null; last_synced_at: string | null; pass: string | null }
  >(db, `SELECT watermark_ms, last_synced_at, pass FROM call_sync WHERE workspace_id = ?`).get(workspaceId);
  return {
    watermarkMs: row?.watermark_ms ?? null,
    lastSyncedAt: row?.last_synced_at ?? null,
    pass: row?.pass ? syncPassJson(row.pass) : null,
  };
}

function writeSync(
  db: Db,
  a: { workspaceId: string; pass: SyncPass | null; finished?: { watermarkMs: number; at: string } },
) {
  prepared(
    db,
    `INSERT INTO call_sync (workspace_id, watermark_ms, last_synced_at, pass, updated_at) VALUES (@w, @wm, @at, @pass, @now)
     ON CONFLICT (workspace_id) DO UPDATE SET pass = excluded.pass, updated_at = excluded.updated_at,
       watermark_ms = coalesce(excluded.watermark_ms, call_sync.watermark_ms),
       last_synced_at = coalesce(excluded.last_synced_at, call_sync.last_synced_at)`,
  ).run({
    w: a.workspaceId,
    wm: a.finished?.watermarkMs ?? null,
    at: a.finished?.at ?? null,
    pass: a.pass ? JSON.stringify(a.pass) : null,
    now: new Date().toISOString(),
  });
}

/** created_ms of the workspace's calls not yet terminal, older than `beforeMs`, oldest first. */
const openCallTimes = (db: Db, a: { workspaceId: string; beforeMs: number }): number[] =>
  prepared<[string, number], number>(
    db,
    `SELECT created_ms FROM calls WHERE workspace_id = ? AND terminal = 0 AND created_ms < ? ORDER BY created_ms`,
  )
    .pluck()
    .all(a.workspaceId, a.beforeMs);

/** Bulk list ids to sync per campaign: launched here, or already seen on calls. */
const campaignIds = (db: Db, a: { workspaceId: string }): string[] =>
  prepared<[string, string], string>(
    db,
    `SELECT bulk_list_id FROM campaign_lists WHERE workspace_id = ?
     UNION SELECT DISTINCT bulk_list_id FROM calls WHERE workspace_id = ? AND bulk_list_id IS NOT NULL`,
  )
    .pluck()
    .all(a.workspaceId, a.workspaceId);

/** The workspace's calls: from the chart aggregates when they hold every call (a count walked a million). */
const callCount = (db: Db, workspaceId: string): number =>
  aggregateTotal(db, workspaceId, {}) ??
  prepared<[string], number>(db, `SELECT count(*) FROM calls WHERE workspace_id = ?`)
    .pluck()
    .get(workspaceId) ??
  0;

export const callSyncStateQueries = {
  'calls.syncState': query((db, a: { workspaceId: string }) => ({
    ...readSync(db, a.workspaceId),
    calls: callCount(db, a.workspaceId),
    recordings: recordingCounts(db, a.workspaceId),
    quarantined: quarantineCount(db, a.workspaceId),
  })),
  'calls.saveSync': query(writeSync),
  'calls.openTimes': query(openCallTimes),
  'calls.campaignIds': query(campaignIds),
};
