// The Calls screen's filter and search as SQL over `calls c`: the conditions (with the review
// marks' own), the FTS5 query of what the operator typed, and the FROM clause reads build on.
import type { CallFilter } from '../../../../shared/ipc/channels/calls.ts';
import { reviewConditions } from '../../review/callReviews.queries.ts';
import { CALL_OUTCOME } from '../store/callsTable.ts';

/** FTS5 query from what the operator typed: each word quoted, the last one a prefix. */
export function ftsQuery(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}]+/gu);
  if (!words || words.length === 0) return null;
  return words.map((w, i) => `"${w}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

export interface Where {
  sql: string;
  params: unknown[];
  fts: string | null;
  /** No condition but the workspace (and the search, if any). */
  workspaceOnly: boolean;
}

/** The filter as SQL over `calls c` (workspaceId null: every workspace, for the CLI's export). */
export function whereOf(workspaceId: string | null, f: CallFilter): Where {
  const review = reviewConditions(workspaceId, f);
  // `+` when review marks pick the calls: looked up by rowid from the marks, not found by a walk.
  const parts = workspaceId === null ? ['1'] : [review.drives ? '+c.workspace_id = ?' : 'c.workspace_id = ?'];
  const params: unknown[] = workspaceId === null ? [] : [workspaceId];
  const add = (sql: string, ...p: unknown[]) => {
    parts.push(sql);
    params.push(...p);
  };
  if (f.bulkListId !== undefined) add('c.bulk_list_id = ?', f.bulkListId);
  if (f.agentId !== undefined) add('c.agent_id = ?', f.agentId);
  if (f.statuses?.length) add(`c.status IN (${f.statuses.map(() => '?').join(',')})`, ...f.statuses);
  if (f.subStatuses?.length)
    add(`c.sub_status IN (${f.subStatuses.map(() => '?').join(',')})`, ...f.subStatuses);
  if (f.outcomes?.length) add(`${CALL_OUTCOME} IN (${f.outcomes.map(() => '?').join(',')})`, ...f.outcomes);
  if (f.from !== undefined) add('c.created_ms >= ?', Date.parse(f.from));
  if (f.to !== undefined) add('c.created_ms < ?', Date.parse(f.to));
  if (f.voicemail !== undefined) add(f.voicemail ? 'c.voicemail = 1' : 'coalesce(c.voicemail, 0) = 0');
  if (f.minDuration !== undefined) add('c.call_duration >= ?', f.minDuration);
  if (f.maxDuration !== undefined) add('c.call_duration <= ?', f.maxDuration);
  if (f.minCost !== undefined) add('c.call_cost >= ?', f.minCost);
  if (f.maxCost !== undefined) add('c.call_cost <= ?', f.maxCost);
  if (f.recording?.length)
    add(
      `coalesce((SELECT state FROM recordings r WHERE r.seq = c.seq), 'none') IN (${f.recording.map(() => '?').join(',')})`,
      ...f.recording,
    );
  for (const c of review.parts) add(c.sql, ...c.params);
  const fts = f.search === undefined ? null : ftsQuery(f.search);
  return { sql: parts.join(' AND '), params, fts, workspaceOnly: workspaceId !== null && parts.length === 1 };
}

export interface FromClause {
  sql: string;
  params: unknown[];
}

/**
 * The filter and the search as a FROM clause (exports and charts; the Calls table uses plan.ts),
 * `join` (e.g. the recordings) joined to `calls c` before the conditions.
 */
export const fromClause = (w: Where, join = ''): FromClause => {
  const calls = join === '' ? 'FROM calls c' : `FROM calls c ${join}`;
  return w.fts === null
    ? { sql: `${calls} WHERE ${w.sql}`, params: w.params }
    : {
        sql: `${calls} WHERE c.seq IN (SELECT rowid FROM calls_fts WHERE calls_fts MATCH ?) AND ${w.sql}`,
        params: [w.fts, ...w.params],
      };
};
