// History records a sync refused (shared/service/history.ts readCallRecords): kept per workspace
// with the reason and the record as received, listed on the Calls page, removed when the same call
// arrives valid (calls.upsert). Bounded, so a service sending garbage cannot fill the disk.
import { createHash } from 'node:crypto';
import type { RejectedRecord } from '../../../shared/service/history.ts';
import type { Db } from '../db/define.ts';
import { prepared, read, writeTransaction } from '../db/define.ts';

/** Rows kept per workspace at most (the ones seen longest ago go first). */
export const MAX_QUARANTINE_ROWS = 10_000;

export interface QuarantineRow {
  callId: string | null;
  field: string;
  reason: string;
  raw: string;
  firstSeenAt: string;
  lastSeenAt: string;
}

const recordKey = (r: RejectedRecord) =>
  r.callId ?? `h:${createHash('sha256').update(r.raw).digest('hex').slice(0, 32)}`;

/** Stores (or refreshes) a page's refused records; answers how many the workspace now has. */
export function quarantineRecords(
  db: Db,
  a: { workspaceId: string; records: RejectedRecord[]; nowIso: string },
): { total: number } {
  const upsert = prepared(
    db,
    `INSERT INTO call_quarantine (workspace_id, record_key, call_id, field, reason, raw, first_seen_at, last_seen_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, record_key) DO UPDATE SET field = excluded.field, reason = excluded.reason,
       raw = excluded.raw, last_seen_at = excluded.last_seen_at`,
  );
  writeTransaction(db, () => {
    for (const r of a.records)
      upsert.run(a.workspaceId, recordKey(r), r.callId, r.field, r.reason, r.raw, a.nowIso, a.nowIso);
    prepared(
      db,
      `DELETE FROM call_quarantine WHERE workspace_id = ? AND rowid NOT IN (
         SELECT rowid FROM call_quarantine WHERE workspace_id = ? ORDER BY last_seen_at DESC, rowid DESC LIMIT ?)`,
    ).run(a.workspaceId, a.workspaceId, MAX_QUARANTINE_ROWS);
  });
  return { total: quarantineCount(db, a.workspaceId) };
}

export const quarantineCount = (db: Db, workspaceId: string): number =>
  prepared<[string], number>(db, `SELECT count(*) FROM call_quarantine WHERE workspace_id = ?`)
    .pluck()
    .get(workspaceId) ?? 0;

/**
 * Removes the rows of calls now stored valid (the sync calls it after storing a batch, only while
 * the workspace has any). Answers how many left.
 */
export function releaseQuarantined(
  db: Db,
  a: { workspaceId: string; callIds: readonly string[] },
): { released: number; total: number } {
  const remove = prepared(db, `DELETE FROM call_quarantine WHERE workspace_id = ? AND record_key = ?`);
  let released = 0;
  writeTransaction(db, () => {
    for (const id of a.callIds) released += remove.run(a.workspaceId, id).changes;
  });
  return { released, total: quarantineCount(db, a.workspaceId) };
}

/** The newest refused records first (raw included: the list shows it on demand). */
function listQuarantine(
  db: Db,
  a: { workspaceId: string; limit: number },
): { total: number; rows: QuarantineRow[] } {
  const rows = prepared<
    [string, number],
    {
      call_id: string | null;
      field: string;
      reason: string;
      raw: string;
      first_seen_at: string;
      last_seen_at: string;
    }
  >(
    db,
    `SELECT call_id, field, reason, raw, first_seen_at, last_seen_at FROM call_quarantine
     WHERE workspace_id = ? ORDER BY last_seen_at DESC, rowid DESC LIMIT ?`,
  ).all(a.workspaceId, a.limit);
  return {
    total: quarantineCount(db, a.workspaceId),
    rows: rows.map((r) => ({
      callId: r.call_id,
      field: r.field,
      reason: r.reason,
      raw: r.raw,
      firstSeenAt: r.first_seen_at,
      lastSeenAt: r.last_seen_at,
    })),
  };
}

export const callQuarantineQueries = {
  'calls.quarantineList': read(listQuarantine),
};
