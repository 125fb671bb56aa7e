// Reads of the Calls screen and the CLI: a page of the list (with search snippets), the export in
// keyset batches, and the filter's facets. Reads answer from SQLite only.
import type { CallFilter, CallSort, CallSummary } from '../../../../shared/ipc/channels/calls.ts';
import type { CallOutcome } from '../../../../shared/domain/callOutcome.ts';
import type { Db } from '../../db/define.ts';
import { prepared, read, readStream } from '../../db/define.ts';
import { CALL_OUTCOME, SUMMARY_COLUMNS, toSummary } from '../store/callsTable.ts';
import type { SummaryRow } from '../store/callsTable.ts';
import { fromClause, whereOf } from './filter.ts';
import { afterKeys, sortKeys, sortSql } from './order.ts';
import { listKeys, soleWorkspace } from './plan.ts';
import type { ListArgs } from './plan.ts';
import { hasAggregates } from '../stats/callStatsAggregated.ts';
import { hasRankCounts } from './rankCounts.ts';
import { callSnippet } from './snippet.ts';

export function listCalls(db: Db, a: ListArgs): { total: number; offset: number; rows: CallSummary[] } {
  const w = whereOf(a.workspaceId, a.filter);
  // The window's keys first (the sorter holds only them), then its rows and snippets: never a
  // snippet or a recording state for every match.
  const { total, seqs } = listKeys(db, a, w);
  if (seqs.length === 0) return { total, offset: a.offset, rows: [] };
  const keys = JSON.stringify(seqs);
  const bySeq = new Map(
    prepared<[string], SummaryRow & { seq: number; transcript_text: string; number_text: string }>(
      db,
      `SELECT c.seq, ${SUMMARY_COLUMNS}, c.transcript_text, c.number_text FROM calls c
       WHERE c.seq IN (SELECT value FROM json_each(?))`,
    )
      .all(keys)
      .map((r) => [r.seq, r]),
  );
  // Snippets of the window's rows only, from their indexed text (snippet.ts says why not FTS5's).
  const search = w.fts === null ? null : (a.filter.search ?? null);
  const rows = seqs.flatMap((seq) => {
    const r = bySeq.get(seq);
    if (!r) return [];
    const summary = toSummary(r);
    if (search !== null) summary.snippet = callSnippet([r.transcript_text, r.name, r.number_text], search);
    return [summary];
  });
  return { total, offset: a.offset, rows };
}

/** Rows of the export in the list's order. */
export interface ExportRow {
  id: string;
  bulk_list_id: string | null;
  to_number: string | null;
  name: string | null;
  status: string;
  sub_status: string | null;
  created_at: string;
  /** When the call was dialled (epoch ms), null when never. */
  attempt_ms: number | null;
  outcome: CallOutcome;
  call_duration: number | null;
  call_cost: number | null;
  agent_id: string | null;
  voicemail: number | null;
  recording: string;
  recording_path: string | null;
  /** The created_at sort key (keyset paging); not a CSV column. */
  created_ms: number;
}

const EXPORT_BATCH = 5000;

/**
 * The export in batches of `batch` rows, each its own read (other queries run between them, and a
 * sync may store calls meanwhile). Keyset pages: each batch starts after the previous one's last
 * row in the sort order (which ends in the unique call id), so a call stored, changed or leaving
 * the filter between batches never shifts the others: each call there for the whole export
 * appears once (an offset counted the newcomers again and skipped past rows that had left).
 */
function* exportRows(
  db: Db,
  a: { workspaceId: string | null; filter: CallFilter; sort?: CallSort; batch?: number },
): Iterator<ExportRow[], void> {
  const batch = a.batch ?? EXPORT_BATCH;
  // Every workspace's calls (the CLI) when they are all one workspace's: the same rows in the same
  // order, read along that workspace's indexes (no index orders all workspaces' calls by date: a
  // million calls were scanned and sorted for every batch).
  const w = whereOf(a.workspaceId ?? soleWorkspace(db), a.filter);
  const from = fromClause(w, 'LEFT JOIN recordings r ON r.seq = c.seq');
  const keys = sortKeys(a.sort);
  const select = `SELECT c.id, c.bulk_list_id, c.to_number, c.name, c.status, c.sub_status, c.created_at,
      c.attempt_ms, ${CALL_OUTCOME} AS outcome, c.call_duration,
      c.call_cost, c.agent_id, c.voicemail, coalesce(r.state, 'none') AS recording, r.path AS recording_path,
      c.created_ms
    ${from.sql}`;
  const order = `ORDER BY ${sortSql(a.sort)} LIMIT ?`;
  let last: ExportRow | undefined;
  for (;;) {
    const after = last === undefined ? null : afterKeys(keys, last);
    const rows = prepared<unknown[], ExportRow>(
      db,
      after === null ? `${select} ${order}` : `${select} AND ${after.sql} ${order}`,
    ).all(...from.params, ...(after?.params ?? []), batch);
    last = rows.at(-1);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
  }
}

/**
 * The agents of a workspace's calls with their counts, read from index entries only (migration
 * 0220; reading every call's row took 11 s at a million), each named as its newest named call
 * among its newest 1,000 says (an agent renamed shows its current name).
 */
function agentFacets(db: Db, workspaceId: string) {
  // The counts kept with the rank counts (db/callRanks.ts) when they hold every call: counting a
  // million index entries took ~100 ms.
  const counts = prepared<[string], { id: string; calls: number }>(
    db,
    hasRankCounts(db)
      ? `SELECT v AS id, n AS calls FROM call_agg_ranks WHERE workspace_id = ? AND kind = 'agent' AND n > 0
         ORDER BY calls DESC, id`
      : `SELECT agent_id AS id, count(*) AS calls FROM calls INDEXED BY calls_ws_agent
         WHERE workspace_id = ? AND agent_id IS NOT NULL GROUP BY agent_id ORDER BY calls DESC, id`,
  ).all(workspaceId);
  const nameOf = prepared<[string, string], { name: string }>(
    db,
    `SELECT agent_name AS name FROM (SELECT agent_name FROM calls INDEXED BY calls_ws_agent
       WHERE workspace_id = ? AND agent_id = ? ORDER BY created_ms DESC LIMIT 1000)
     WHERE agent_name IS NOT NULL LIMIT 1`,
  );
  return counts.map((c) => ({ id: c.id, name: nameOf.get(workspaceId, c.id)?.name ?? null, calls: c.calls }));
}

function facets(db: Db, a: { workspaceId: string }) {
  return { agents: agentFacets(db, a.workspaceId), ...statusFacets(db, a.workspaceId) };
}

/**
 * Calls per status and per sub-status: from the chart aggregates' status pairs when they hold
 * every call (a few hundred rows; counting a million calls' index entries took ~100 ms each).
 */
function statusFacets(db: Db, workspaceId: string) {
  type Facet = { value: string; calls: number };
  if (hasAggregates(db))
    return {
      statuses: prepared<[string], Facet>(
        db,
        `SELECT status AS value, sum(n) AS calls FROM call_agg_pairs WHERE workspace_id = ?
         GROUP BY status HAVING sum(n) > 0 ORDER BY calls DESC`,
      ).all(workspaceId),
      subStatuses: prepared<[string], Facet>(
        db,
        `SELECT substr(sub_key, 2) AS value, sum(n) AS calls FROM call_agg_pairs WHERE workspace_id = ? AND sub_key != 'n'
         GROUP BY sub_key HAVING sum(n) > 0 ORDER BY calls DESC`,
      ).all(workspaceId),
    };
  return {
    statuses: prepared<[string], Facet>(
      db,
      `SELECT status AS value, count(*) AS calls FROM calls WHERE workspace_id = ? GROUP BY status ORDER BY calls DESC`,
    ).all(workspaceId),
    subStatuses: prepared<[string], Facet>(
      db,
      `SELECT sub_status AS value, count(*) AS calls FROM calls WHERE workspace_id = ? AND sub_status IS NOT NULL
       GROUP BY sub_status ORDER BY calls DESC`,
    ).all(workspaceId),
  };
}

export const callSearchQueries = {
  'calls.list': read(listCalls),
  'calls.export': readStream(exportRows),
  'calls.facets': read(facets),
};
