// Storing history pages: upsert by id (the record as received kept in `raw`), the search index and
// the charts' aggregates fed in the same transaction.
import { columnsBatch, rowAt } from '../../sync/callRow.ts';
import type { CallColumns, CallColumnsBatch } from '../../sync/callRow.ts';
import { foldCallAggregates, logNewShares, logOldShare } from '../../db/callAggregates.ts';
import type { Db } from '../../db/define.ts';
import { prepared, writeTransaction } from '../../db/define.ts';
import { callValues, INSERT_CALL_SQL, storedCallRow, UPDATE_CALL_SQL } from './callsTable.ts';
import type { StoredCallRow } from './callsTable.ts';

export interface UpsertArgs {
  workspaceId: string;
  /** Set when the page came from a per-campaign query (links the calls to the campaign). */
  bulkListId: string | null;
  /**
   * The page's records as columns (made by the caller, so the DB worker only writes): rows, or one
   * array per column (the sync's batches: cheaper to send to the worker, callRow.ts `columnsBatch`).
   */
  rows: CallColumns[] | CallColumnsBatch;
  nowIso: string;
}
export interface UpsertResult {
  inserted: number;
  updated: number;
  unchanged: number;
}

/**
 * The batch's rows, one per id (their indexes): the last occurrence of a repeated id (the state
 * fetched last: pages are joined in the order they were read, and overlapping windows or a window
 * read again while a call progressed carry it twice), at its first position. Two rows of one id in
 * one transaction would unindex search text the batch has not indexed yet (indexing runs once, at
 * its end), which FTS5 refuses as a damaged index.
 */
function lastPerId(ids: readonly string[]): number[] {
  const byId = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) byId.set(ids[i]!, i); // a repeated key keeps its place, takes the new index
  return [...byId.values()];
}

/**
 * One page in one transaction: new ids inserted, changed ones updated, the rest untouched; the
 * search index (migration 0080) is fed in the same transaction: the old text of a changed call
 * removed before it is rewritten, then every written row indexed with one INSERT … SELECT.
 * A repeated id is stored once, as its last occurrence (`lastPerId`); the counts are per call.
 * A call stored under another workspace (that workspace removed and the same account added again,
 * under a new id) moves, with its recording row and its review mark, to the workspace that synced it, and counts as
 * updated: call ids are unique per calling service, and the one syncing it now owns it.
 */
export function upsertCalls(db: Db, a: UpsertArgs): UpsertResult {
  const existing = prepared<
    [string],
    { seq: number; raw: string; bulk_list_id: string | null; workspace_id: string }
  >(db, `SELECT seq, raw, bulk_list_id, workspace_id FROM calls WHERE id = ?`);
  const insert = prepared<[Array<string | number | null>]>(db, INSERT_CALL_SQL);
  const update = prepared<[StoredCallRow]>(db, UPDATE_CALL_SQL);
  const unindex = prepared(
    db,
    `INSERT INTO calls_fts (calls_fts, rowid, transcript_text, name, number_text)
     SELECT 'delete', seq, transcript_text, name, number_text FROM calls WHERE seq = ?`,
  );
  const index = prepared(
    db,
    `INSERT INTO calls_fts (rowid, transcript_text, name, number_text)
     SELECT seq, transcript_text, name, number_text FROM calls WHERE seq IN (SELECT value FROM json_each(?))`,
  );
  const relink = prepared(
    db,
    `UPDATE calls SET workspace_id = ?, bulk_list_id = coalesce(?, bulk_list_id), updated_at = ? WHERE id = ?`,
  );
  const moveRecording = prepared(db, `UPDATE recordings SET workspace_id = ? WHERE seq = ?`);
  const moveReview = prepared(
    db,
    `UPDATE OR IGNORE call_reviews SET workspace_id = ? WHERE workspace_id = ? AND call_id = ?`,
  );
  const recording = prepared(
    db,
    `INSERT INTO recordings (seq, workspace_id, state, url, expires_ms) VALUES (?, ?, 'pending', ?, ?)
     ON CONFLICT (seq) DO UPDATE SET url = excluded.url, expires_ms = excluded.expires_ms
       WHERE recordings.state = 'pending'`,
  );
  const result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
  writeTransaction(db, () => {
    const written: number[] = [];
    const relinked: number[] = [];
    const rows = Array.isArray(a.rows) ? columnsBatch(a.rows) : a.rows;
    for (const i of lastPerId(rows.id)) {
      const id = rows.id[i]!;
      // A new id is inserted at once (no lookup first); a known one is compared with what is stored.
      const added = insert.run(callValues(rows, i, a.workspaceId, a.bulkListId, a.nowIso));
      const before = added.changes === 1 ? undefined : existing.get(id);
      const seq = before ? before.seq : Number(added.lastInsertRowid);
      const moved = before !== undefined && before.workspace_id !== a.workspaceId;
      if (!before) {
        written.push(seq);
        result.inserted++;
      } else if (before.raw !== rows.raw[i]) {
        logOldShare(db, before.seq);
        unindex.run(before.seq);
        update.run(storedCallRow(rowAt(rows, i), a.workspaceId, a.bulkListId, a.nowIso));
        written.push(before.seq);
        result.updated++;
      } else if (moved || (a.bulkListId !== null && before.bulk_list_id !== a.bulkListId)) {
        logOldShare(db, before.seq);
        relink.run(a.workspaceId, a.bulkListId, a.nowIso, id);
        relinked.push(before.seq);
        result.updated++;
      } else {
        result.unchanged++;
        continue;
      }
      if (moved) {
        moveRecording.run(a.workspaceId, seq);
        moveReview.run(a.workspaceId, before.workspace_id, id); // QA marks follow the call
      }
      const url = rows.recordingUrl[i];
      if (url) recording.run(seq, a.workspaceId, url, rows.recordingExpiresMs[i]);
    }
    if (written.length > 0) index.run(JSON.stringify(written));
    // The charts' aggregates take the page's changes in the same transaction (callAggregates.ts).
    logNewShares(db, written.concat(relinked));
    foldCallAggregates(db);
  });
  return result;
}
