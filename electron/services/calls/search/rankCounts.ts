// Where a far window of the Calls table starts, from the rank counts (db/callRanks.ts): the counts
// of each stretch of the order are added up to the one holding the window's first call, and only
// that stretch is walked on its index (an hour, a day of one value, an interval between two
// integers, two first letters), where a walk from the top passed every call before the window.
import type { CallFilter, CallSortKey } from '../../../../shared/ipc/channels/calls.ts';
import { DAY_MS, HOUR_MS } from '../../db/callRanks.ts';
import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';
import { hasAggregates } from '../stats/callStatsAggregated.ts';

const present = new WeakMap<Db, true>();
/** The rank counts exist in this file (migration 0245; asked until they do) and hold every call. */
export function hasRankCounts(db: Db): boolean {
  if (!present.has(db)) {
    if (
      db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'call_agg_ranks'`).get() ===
      undefined
    )
      return false;
    present.set(db, true);
  }
  return hasAggregates(db);
}

interface Group {
  kind: string;
  v: number | string;
  t: number;
  n: number;
}

/**
 * The kind's counts (and its nulls', last) in the order of the list sorted `dir` by it: by value,
 * then newest day first (the order of a value's calls); the hours of all calls in `dir`.
 */
function groupsOf(db: Db, workspaceId: string, kind: string, dir: 'asc' | 'desc'): Group[] {
  const d = dir === 'asc' ? 'ASC' : 'DESC';
  return prepared<[string, string, string, string], Group>(
    db,
    `SELECT kind, v, t, n FROM call_agg_ranks WHERE workspace_id = ? AND kind IN (?, ?) AND n != 0
     ORDER BY kind = ? DESC, v ${d}, t ${kind === 'created' ? d : 'DESC'}`,
  ).all(workspaceId, kind, `${kind}:null`, kind);
}

/** The group holding the `offset`th call and how many calls come before it; null past the end. */
function locate(groups: Group[], offset: number): { at: number; before: number } | null {
  let before = 0;
  for (let at = 0; at < groups.length; at++) {
    const n = groups[at]!.n;
    if (offset < before + n) return { at, before };
    before += n;
  }
  return null;
}

/**
 * A window of the default order (created_ms, then the id, both one direction) from the hour its
 * first call is in: the calls before it in the list are skipped from that hour's edge.
 */
export function pageByHour(
  db: Db,
  a: { workspaceId: string; offset: number; limit: number; dir: 'asc' | 'desc'; orderSql: string },
): number[] {
  const groups = groupsOf(db, a.workspaceId, 'created', a.dir);
  const found = locate(groups, a.offset);
  if (found === null) return [];
  const t = groups[found.at]!.t;
  const [edge, bound] = a.dir === 'desc' ? ['<', (t + 1) * HOUR_MS] : ['>=', t * HOUR_MS];
  return prepared<unknown[], number>(
    db,
    `SELECT c.seq FROM calls c WHERE c.workspace_id = ? AND c.created_ms ${edge} ?
     ORDER BY ${a.orderSql} LIMIT ? OFFSET ?`,
  )
    .pluck()
    .all(a.workspaceId, bound, a.limit, a.offset - found.before);
}

/** Each sort column's kind of rank counts. */
const KIND: Record<Exclude<CallSortKey, 'created_at'>, string> = {
  attempted_at: 'attempt',
  call_duration: 'duration',
  call_cost: 'cost',
  name: 'name',
  status: 'status',
};

/**
 * Where a window sorted by another column starts: its first call's value (null: the calls without
 * one) and how many calls of that value come before it in the list (ties are newest first). When
 * the value's calls are counted by day, `newer` says how many of them are in later days than the
 * one the start is in (from `upper`, the end of that day, on): a long tie is skipped to that day.
 * `valueAt(range, params, skip)` finds the value at `skip` among the calls of a stretch (SQL over
 * `col`) and how many calls of that value come before it there.
 */
export interface RankedStart {
  v: unknown;
  skip: number;
  newer?: { upper: number; count: number };
}

export function rankedStart(
  db: Db,
  a: {
    workspaceId: string;
    by: Exclude<CallSortKey, 'created_at'>;
    dir: 'asc' | 'desc';
    offset: number;
    col: string;
  },
  valueAt: (range: string, params: unknown[], skip: number) => { v: unknown; skip: number } | null,
): RankedStart | null {
  const kind = KIND[a.by];
  const groups = groupsOf(db, a.workspaceId, kind, a.dir);
  const found = locate(groups, a.offset);
  if (found === null) return null;
  const g = groups[found.at]!;
  let local = a.offset - found.before;
  if (g.t !== -1) {
    // One value (or the nulls) counted by day: its calls in the groups before this one are newer.
    let count = 0;
    for (let i = found.at - 1; i >= 0 && groups[i]!.kind === g.kind && groups[i]!.v === g.v; i--)
      count += groups[i]!.n;
    return {
      v: g.kind === kind ? g.v : null,
      skip: count + local,
      newer: { upper: (g.t + 1) * DAY_MS, count },
    };
  }
  // A stretch of values: the value is found on the index within it.
  const { col } = a;
  let range: string;
  let params: unknown[];
  if (kind === 'attempt') [range, params] = [`${col} >= ? AND ${col} < ?`, [g.v, Number(g.v) + HOUR_MS]];
  else if (kind === 'name') {
    // Up to the next first letters in A–Z order (SQL's order: the neighbour, whichever way it runs),
    // then the same within them by the first ten letters (a thousand calls' names may share two).
    const next = groups[a.dir === 'asc' ? found.at + 1 : found.at - 1];
    const upper = next && next.kind === kind ? (next.v as string) : null;
    const fine = prepared<unknown[], Group>(
      db,
      `SELECT kind, v, t, n FROM call_agg_ranks WHERE workspace_id = ? AND kind = 'name10' AND n != 0
       AND v >= ?${upper === null ? '' : ' AND v < ?'} ORDER BY v ${a.dir === 'asc' ? 'ASC' : 'DESC'}`,
    ).all(a.workspaceId, g.v, ...(upper === null ? [] : [upper]));
    const within = locate(fine, local);
    if (within === null) return null;
    const f = fine[within.at]!;
    const fineNext = fine[a.dir === 'asc' ? within.at + 1 : within.at - 1]?.v ?? upper;
    local -= within.before;
    [range, params] =
      fineNext === null ? [`${col} >= ?`, [f.v]] : [`${col} >= ? AND ${col} < ?`, [f.v, fineNext]];
  } else [range, params] = [`${col} > ? AND ${col} < ?`, [Number(g.v) - 0.5, Number(g.v) + 0.5]];
  return valueAt(range, params, local);
}

/** The calls of one agent and nothing else filtered, from the rank counts (null: count them). */
export function agentTotal(db: Db, workspaceId: string, filter: CallFilter): number | null {
  const keys = Object.entries(filter).flatMap(([key, value]) => (value === undefined ? [] : [key]));
  if (keys.length !== 1 || filter.agentId === undefined || !hasRankCounts(db)) return null;
  return (
    prepared<[string, string], number>(
      db,
      `SELECT coalesce(sum(n), 0) FROM call_agg_ranks WHERE workspace_id = ? AND kind = 'agent' AND v = ?`,
    )
      .pluck()
      .get(workspaceId, filter.agentId) ?? 0
  );
}
