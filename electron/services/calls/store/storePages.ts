// History pages stored from their text (the sync's hot path, `calls.storePages`): the records are
// read here, in the DB worker, as the API client reads a page's records (`listCallHistory`)
// (`readCallRecords`: the hand-written check, the schema for a refused one, so a quarantined record
// keeps its field and reason), made into rows (sync/callRow.ts) and written by `upsertCalls`; then,
// as the sync's store chain did with records read on the main thread, the workspace's quarantined
// calls now stored valid are released and the refused ones quarantined. The main thread only
// fetches: copying the rows to this thread cost more than reading the page's text twice.
import type { RejectedRecord } from '../../../../shared/service/history.ts';
import { readCallRecords } from '../../../../shared/service/history.ts';
import type { Db } from '../../db/define.ts';
import { callColumns, columnsBatch } from '../../sync/callRow.ts';
import type { CallColumns } from '../../sync/callRow.ts';
import { quarantineRecords, releaseQuarantined } from '../quarantine.queries.ts';
import { upsertCalls } from './upsertCalls.ts';
import type { UpsertResult } from './upsertCalls.ts';

export interface StorePagesArgs {
  workspaceId: string;
  /** Set when the pages came from a per-campaign query (links the calls to the campaign). */
  bulkListId: string | null;
  /** The pages' JSON text as received (their envelopes checked by the API client), in paging order. */
  pages: string[];
  nowIso: string;
  /** The workspace holds quarantined records: the stored calls' ids release theirs. */
  held: boolean;
}

export interface StorePagesResult extends UpsertResult {
  /** Each refused record's key (`callId ?? raw`), for the pass's count of distinct refusals. */
  rejectedKeys: string[];
  /** The workspace still holds quarantined records. */
  held: boolean;
}

export function storeHistoryPages(db: Db, a: StorePagesArgs): StorePagesResult {
  const rows: CallColumns[] = [];
  const rejected: RejectedRecord[] = [];
  for (const text of a.pages) {
    const { calls } = JSON.parse(text) as { calls: unknown[] };
    const read = readCallRecords(calls);
    for (const r of read.records) rows.push(callColumns(r));
    for (const r of read.rejected) rejected.push(r);
  }
  let result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
  let held = a.held;
  if (rows.length > 0) {
    const batch = columnsBatch(rows);
    result = upsertCalls(db, {
      workspaceId: a.workspaceId,
      bulkListId: a.bulkListId,
      rows: batch,
      nowIso: a.nowIso,
    });
    if (held) held = releaseQuarantined(db, { workspaceId: a.workspaceId, callIds: batch.id }).total > 0;
  }
  if (rejected.length > 0) {
    quarantineRecords(db, { workspaceId: a.workspaceId, records: rejected, nowIso: a.nowIso });
    held = true;
  }
  return { ...result, rejectedKeys: rejected.map((r) => r.callId ?? r.raw), held };
}
