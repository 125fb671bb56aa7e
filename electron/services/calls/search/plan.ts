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
import { dataVersion } from './dataVersion.ts';
import { fromClause, whereOf } from './filter.ts';
import type { FromClause, Where } from './filter.ts';
import { lazySearch } from './lazyQuery.ts';
import { countMatches, seqBytes } from './matchCount.ts';
import { pageByMatchWalk } from './matchWalk.ts';
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
 * The filtered calls' seqs, one byte each (checked per match by a count in SQL, and here), kept per
 * connection until the database changes (dataVersion): a search with a status filter walked the
 * ~86,000 completed or failed calls' keys to count its matches among them for every search (~17 ms
 * of a 37.5 ms p95); typing a search under a filter now walks them once.
 */
interface Filtered extends SeqSet {
  /** Null past MAX_BYTE_SEQ (then only `has`, from a bitset). */
  bytes: Buffer | null;
}
const filteredCache = new WeakMap<Db, { key: string; version: string; seqs: Filtered }>();
function filteredSeqs(db: Db, w: Where): Filtered {
  const version = dataVersion(db);
  const key = `${w.sql}\n${JSON.stringify(w.params)}`;
  const hit = filteredCache.get(db);
  if (hit && hit.key === key && hit.version === version) return hit.seqs;
  const all = prepared<unknown[], number>(db, `SELECT c.seq FROM calls c WHERE ${w.sql}`)
    .pluck()
    .all(...w.params);
  const bytes = all.some((s) => s > MAX_BYTE_SEQ) ? null : seqBytes(all);
  const seqs = bytes ? { bytes, has: (seq: number) => bytes[seq] === 1 } : { bytes, ...seqSet(all) };
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
    ? {
        by: 'created_at' as const,
        dir: a.sort?.dir === 'asc' ? ('desc' as const) : ('asc' as const),
      }
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

/** The list's window of a FROM clause in its order, and its count. */
function readersOf(db: Db, a: ListArgs) {
  return {
    byDate: (a.sort?.by ?? 'created_at') === 'created_at',
    page: (from: FromClause) =>
      prepared<unknown[], number>(db, `SELECT c.seq ${from.sql} ORDER BY ${sortSql(a.sort)} LIMIT ? OFFSET ?`)
        .pluck()
        .all(...from.params, a.limit, a.offset),
    count: (from: FromClause) =>
      prepared<unknown[], number>(db, `SELECT count(*) ${from.sql}`)
        .pluck()
        .get(...from.params) ?? 0,
  };
}

export function listKeys(db: Db, a: ListArgs, w: Where): { total: number; seqs: number[] } {
  const { byDate, page, count } = readersOf(db, a);
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
  const exact = w.workspaceOnly && onlyWorkspace(db, a.workspaceId);
  const search = lazySearch(db, a.filter.search ?? '', w.fts);
  const range = prepared<[], { min: number | null; max: number | null }>(
    db,
    `SELECT (SELECT min(seq) FROM calls) AS min, (SELECT max(seq) FROM calls) AS max`,
  ).get() ?? { min: null, max: null };
  if (search.none || range.max === null) return { total: 0, seqs: [] };
  // Not lazy (a prefix of many terms, or not ASCII): every match is listed, as FTS5 merges them anyway.
  if (!search.lazy || range.max > MAX_BYTE_SEQ)
    return keysOfMatches(db, a, w, exact, allMatches(db, search.fts));
  // The number of all calls matching: needed as the total (exact), or to tell few from many
  // unless one term alone has more than a few.
  const n =
    search.docs ??
    (exact || search.atLeast === null || search.atLeast <= FEW_MATCHES
      ? countMatches(db, search.fts, null)
      : null);
  if (n !== null && n <= FEW_MATCHES) return keysOfMatches(db, a, w, exact, allMatches(db, search.fts));
  // Many: counted in SQL (against the other filters' calls when there are any), and the page
  // found by walking the calls by date, asking the search index about them (matchWalk.ts).
  const among = exact ? null : filteredSeqs(db, w).bytes;
  if (among === null && !exact) return keysOfMatches(db, a, w, exact, allMatches(db, search.fts));
  const total = among === null ? (n ?? 0) : countMatches(db, search.fts, among);
  const walked = byDate
    ? pageByMatchWalk(db, a, search.fts, w.workspaceOnly ? null : among, {
        min: range.min ?? 0,
        max: range.max,
      })
    : null;
  if (walked) return { total, seqs: walked };
  return {
    total,
    seqs: keysOfMatches(db, a, w, exact, allMatches(db, search.fts), total).seqs,
  };
}

/** Seqs past this are not kept one byte each (a sparse table): such a search lists its matches. */
const MAX_BYTE_SEQ = 2 ** 26;

const allMatches = (db: Db, fts: string): number[] =>
  prepared<[string], number>(db, `SELECT rowid FROM calls_fts WHERE calls_fts MATCH ?`).pluck().all(fts);

/**
 * Total and page from the search's matches listed (`known`: their total, when counted already):
 * few are looked up by key; many are walked by date against a bitset of them, or sorted in SQL.
 */
function keysOfMatches(
  db: Db,
  a: ListArgs,
  w: Where,
  exact: boolean,
  matches: number[],
  known?: number,
): { total: number; seqs: number[] } {
  const { byDate, page, count } = readersOf(db, a);
  if (matches.length <= FEW_MATCHES) {
    // Few: each match's row is looked up by its key (CROSS JOIN keeps the matches outside: left
    // to itself SQLite walks the filter's index past every call, ~13 ms for a word with no match
    // on 100,000 calls), then filtered and sorted.
    const byKey = {
      sql: `FROM json_each(?) j CROSS JOIN calls c ON c.seq = j.value WHERE ${w.sql}`,
      params: [JSON.stringify(matches), ...w.params],
    };
    return {
      total: known ?? (exact ? matches.length : count(byKey)),
      seqs: page(byKey),
    };
  }
  const wanted = seqSet(matches);
  if (!w.workspaceOnly && byDate) {
    // Another filter: the matches counted against its calls (filteredSeqs), and the page walked
    // on the workspace's date index (entries only), keeping calls in both.
    const filtered = filteredSeqs(db, w);
    let total = 0;
    if (known === undefined) for (const seq of matches) if (filtered.has(seq)) total++;
    const both = { has: (seq: number) => wanted.has(seq) && filtered.has(seq) };
    const walked = searchPageByWalk(db, a, whereOf(a.workspaceId, {}), both);
    if (walked) return { total: known ?? total, seqs: walked };
    return {
      total: known ?? total,
      seqs: page({
        sql: `FROM calls c WHERE +c.seq IN (SELECT value FROM json_each(?)) AND ${w.sql}`,
        params: [JSON.stringify(matches), ...w.params],
      }),
    };
  }
  const total = known ?? (exact ? matches.length : countAmong(db, w, wanted));
  // A page from sorting the matches in SQL, when the walk would be long (a deep offset, another
  // order): `+` has the matches checked against a walk of a covering index, so a common word's
  // fat rows (raw JSON, transcript) are never read to sort them.
  const sorted = () =>
    page({
      sql: `FROM calls c WHERE ${byDate ? '+' : ''}c.seq IN (SELECT value FROM json_each(?)) AND ${w.sql}`,
      params: [JSON.stringify(matches), ...w.params],
    });
  return {
    total,
    seqs: (byDate ? searchPageByWalk(db, a, w, wanted) : null) ?? sorted(),
  };
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
