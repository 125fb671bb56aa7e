// How a page of the Calls table is found: its total and its keys (call seqs) in the chosen order,
// for a plain filter or a full-text search; the search's strategy depends on how many calls match
// and on the other filters (see each step). Rows and snippets are read after, for the page only.
import type { CallFilter, CallSort } from '../../../../shared/ipc/channels/calls.ts';
import { unreviewedTwins } from '../../review/callReviews.queries.ts';
import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';
import { aggregateTotal } from './aggregateTotal.ts';
import { seqSet } from './bitset.ts';
import type { SeqSet } from './bitset.ts';
import { fromClause, whereOf } from './filter.ts';
import type { FromClause, Where } from './filter.ts';
import { sortSql } from './order.ts';
import { agentTotal, hasRankCounts, pageByHour } from './rankCounts.ts';
import { pageByValueWalk } from './valueWalk.ts';

export interface ListArgs {
  workspaceId: string;
  filter: CallFilter;
  sort?: CallSort;
  offset: number;
  limit: number;
}

/** No call of another workspace is stored (then a search's matches all belong to this one). */
export const onlyWorkspace = (db: Db, workspaceId: string): boolean =>
  prepared<[string, string], number>(
    db,
    `SELECT 1 FROM calls WHERE workspace_id < ? UNION ALL SELECT 1 FROM calls WHERE workspace_id > ? LIMIT 1`,
  )
    .pluck()
    .get(workspaceId, workspaceId) === undefined;

/**
 * Rows walked at most, newest first, to fill a search's page: index entries alone when only the
 * workspace is filtered; rows read for their columns when other filters apply.
 */
export const SEARCH_WALK_INDEX_ROWS = 20_000;
export const SEARCH_WALK_ROWS = 2_000;

/** A search's matches up to this many are counted and sorted through their rows (looked up by key). */
const FEW_MATCHES = 2000;

/**
 * A page of a search, newest first, by walking the filtered calls in date order and keeping the
 * matches: a common word fills 50 rows within a few hundred, where sorting every match builds a
 * temporary b-tree of all of them. Null when the walk would be long (a rare word, a deep offset):
 * the caller sorts the matches in SQL instead.
 */
function searchPageByWalk(db: Db, a: ListArgs, w: Where, wanted: SeqSet): number[] | null {
  const cap = w.workspaceOnly ? SEARCH_WALK_INDEX_ROWS : SEARCH_WALK_ROWS;
  const walk = prepared<unknown[], number>(
    db,
    `SELECT c.seq FROM calls c WHERE ${w.sql} ORDER BY ${sortSql(a.sort)} LIMIT ?`,
  ).pluck();
  const page: number[] = [];
  let skip = a.offset;
  let walked = 0;
  for (const seq of walk.iterate(...w.params, cap)) {
    walked++;
    if (!wanted.has(seq)) continue;
    if (skip > 0) skip--;
    else if (page.push(seq) === a.limit) return page;
  }
  return walked < cap ? page : null;
}

/**
 * The filtered calls among `wanted`: their keys are walked (a covering index when there is one)
 * and checked against the bitset here; SQLite's own `IN` built a temporary b-tree of the matches
 * first (a 56,000-match word with a status filter: 43–54 ms against 14–28 ms).
 */
function countAmong(db: Db, w: Where, wanted: SeqSet): number {
  let n = 0;
  for (const seq of prepared<unknown[], number>(db, `SELECT c.seq FROM calls c WHERE ${w.sql}`)
    .pluck()
    .all(...w.params))
    if (wanted.has(seq)) n++;
  return n;
}

/**
 * The filtered calls' seqs as a bitset, kept per connection until the database changes (`PRAGMA
 * data_version` says another connection committed, `total_changes()` that this one wrote): a
 * search with a status filter walked the ~86,000 completed or failed calls' keys to count its
 * matches among them for every search (~17 ms of a 37.5 ms p95); typing a search under a filter
 * now walks them once.
 */
const filteredCache = new WeakMap<Db, { key: string; version: string; seqs: SeqSet }>();
function filteredSeqs(db: Db, w: Where): SeqSet {
  const version = `${String(db.pragma('data_version', { simple: true }))}:${String(
    prepared<[], number>(db, `SELECT total_changes()`).pluck().get(),
  )}`;
  const key = `${w.sql}\n${JSON.stringify(w.params)}`;
  const hit = filteredCache.get(db);
  if (hit && hit.key === key && hit.version === version) return hit.seqs;
  const seqs = seqSet(
    prepared<unknown[], number>(db, `SELECT c.seq FROM calls c WHERE ${w.sql}`)
      .pluck()
      .all(...w.params),
  );
  filteredCache.set(db, { key, version, seqs });
  return seqs;
}

/**
 * Total and page keys. A search evaluates its FTS query once (a short prefix such as "the*" merges
 * many terms' lists: the slow part) and both the count and the page use those rowids.
 */
/** From this offset on, a window of all calls by date starts from its hour (fewer calls walked). */
const FAR_BY_HOUR = 2000;

/**
 * A window of the list by date. Past the middle it is read from the other end (the same index walked
 * backwards, then reversed): the walk to a window is as long as its offset, 210 ms at 900,000 of a
 * million calls against 13 ms from the end.
 */
function pageByDate(db: Db, a: ListArgs, w: Where, from: FromClause, total: number): number[] {
  // Far down all the workspace's calls: from the hour the window starts in (rank counts).
  if (w.workspaceOnly && a.offset >= FAR_BY_HOUR && hasRankCounts(db))
    return pageByHour(db, {
      workspaceId: a.workspaceId,
      offset: a.offset,
      limit: a.limit,
      dir: a.sort?.dir === 'asc' ? 'asc' : 'desc',
      orderSql: sortSql(a.sort),
    });
  const fromEnd = a.offset > total / 2;
  const sort = fromEnd
    ? { by: 'created_at' as const, dir: a.sort?.dir === 'asc' ? ('desc' as const) : ('asc' as const) }
    : a.sort;
  const limit = fromEnd ? Math.min(a.limit, total - a.offset) : a.limit;
  if (limit <= 0) return [];
  const seqs = prepared<unknown[], number>(
    db,
    `SELECT c.seq ${from.sql} ORDER BY ${sortSql(sort)} LIMIT ? OFFSET ?`,
  )
    .pluck()
    .all(...from.params, limit, fromEnd ? total - a.offset - limit : a.offset);
  return fromEnd ? seqs.reverse() : seqs;
}

/** The workspace of every stored call when they all have one (null: none stored, or several). */
export function soleWorkspace(db: Db): string | null {
  const first = prepared<[], string>(db, `SELECT workspace_id FROM calls LIMIT 1`).pluck().get();
  return first !== undefined && onlyWorkspace(db, first) ? first : null;
}

export function listKeys(db: Db, a: ListArgs, w: Where): { total: number; seqs: number[] } {
  const byDate = (a.sort?.by ?? 'created_at') === 'created_at';
  const page = (from: FromClause) =>
    prepared<unknown[], number>(db, `SELECT c.seq ${from.sql} ORDER BY ${sortSql(a.sort)} LIMIT ? OFFSET ?`)
      .pluck()
      .all(...from.params, a.limit, a.offset);
  const count = (from: FromClause) =>
    prepared<unknown[], number>(db, `SELECT count(*) ${from.sql}`)
      .pluck()
      .get(...from.params) ?? 0;
  if (w.fts === null) {
    const from = fromClause(w);
    // "Not reviewed" counted as all minus reviewed: both walks skip the per-call membership test.
    const twins = unreviewedTwins(a.filter);
    const total =
      aggregateTotal(db, a.workspaceId, a.filter) ??
      agentTotal(db, a.workspaceId, a.filter) ??
      (twins
        ? count(fromClause(whereOf(a.workspaceId, twins.all))) -
          count(fromClause(whereOf(a.workspaceId, twins.reviewed)))
        : count(from));
    return {
      total,
      seqs: pageByValueWalk(db, a, w) ?? (byDate ? pageByDate(db, a, w, from, total) : page(from)),
    };
  }
  const matches = prepared<[string], number>(db, `SELECT rowid FROM calls_fts WHERE calls_fts MATCH ?`)
    .pluck()
    .all(w.fts);
  const exact = w.workspaceOnly && onlyWorkspace(db, a.workspaceId);
  if (matches.length <= FEW_MATCHES) {
    // Few: each match's row is looked up by its key (CROSS JOIN keeps the matches outside: left
    // to itself SQLite walks the filter's index past every call, ~13 ms for a word with no match
    // on 100,000 calls), then filtered and sorted.
    const byKey = {
      sql: `FROM json_each(?) j CROSS JOIN calls c ON c.seq = j.value WHERE ${w.sql}`,
      params: [JSON.stringify(matches), ...w.params],
    };
    return { total: exact ? matches.length : count(byKey), seqs: page(byKey) };
  }
  const wanted = seqSet(matches);
  if (!w.workspaceOnly && byDate) {
    // Another filter: the matches counted against its calls (filteredSeqs), and the page walked
    // on the workspace's date index (entries only), keeping calls in both.
    const filtered = filteredSeqs(db, w);
    let total = 0;
    for (const seq of matches) if (filtered.has(seq)) total++;
    const both = { has: (seq: number) => wanted.has(seq) && filtered.has(seq) };
    const walked = searchPageByWalk(db, a, whereOf(a.workspaceId, {}), both);
    if (walked) return { total, seqs: walked };
    return {
      total,
      seqs: page({
        sql: `FROM calls c WHERE +c.seq IN (SELECT value FROM json_each(?)) AND ${w.sql}`,
        params: [JSON.stringify(matches), ...w.params],
      }),
    };
  }
  const total = exact ? matches.length : countAmong(db, w, wanted);
  // A page from sorting the matches in SQL, when the walk would be long (a deep offset, another
  // order): `+` has the matches checked against a walk of a covering index, so a common word's
  // fat rows (raw JSON, transcript) are never read to sort them.
  const sorted = () =>
    page({
      sql: `FROM calls c WHERE ${byDate ? '+' : ''}c.seq IN (SELECT value FROM json_each(?)) AND ${w.sql}`,
      params: [JSON.stringify(matches), ...w.params],
    });
  return { total, seqs: (byDate ? searchPageByWalk(db, a, w, wanted) : null) ?? sorted() };
}
