// A search's page by date without listing its matches: the workspace's calls are walked on the date
// index in chunks (index entries only), and the search index is asked which of each chunk's calls
// match. Calls are stored in time windows, so the newest calls have the highest seqs (or, stored
// newest first, the lowest), and the matches read from that end of the search index soon cover
// them: the newest 50 calls holding "hello" among 630,000 without reading the other 629,000.
import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';
import type { ListArgs } from './plan.ts';
import { sortSql } from './order.ts';

export const matchWalkCaps = {
  /** Index entries walked at most before the caller lists the matches instead. */
  rows: 65_536,
  /** Matches read at most from an end of the table to know which walked calls match. */
  matches: 65_536,
};

/**
 * The page's seqs in the list's date order, or null when the walk gets too long (a rare filter, a
 * deep offset, calls stored out of time order): the caller sorts the matches instead. `keep` is the
 * other filters' calls (one byte per seq) or null for the workspace's calls alone.
 */
export function pageByMatchWalk(
  db: Db,
  a: ListArgs,
  fts: string,
  keep: Uint8Array | null,
  seqRange: { min: number; max: number },
): number[] | null {
  const walk = prepared<[string, number, number], number>(
    db,
    `SELECT c.seq FROM calls c WHERE c.workspace_id = ? ORDER BY ${sortSql(a.sort)} LIMIT ? OFFSET ?`,
  ).pluck();
  const page: number[] = [];
  let skip = a.offset;
  let walked = 0;
  let chunk = Math.max(256, 4 * (a.offset + a.limit));
  const matches = matchesFromAnEnd(db, fts, seqRange);
  for (;;) {
    const seqs = walk.all(a.workspaceId, chunk, walked);
    walked += seqs.length;
    const candidates = keep === null ? seqs : seqs.filter((s) => keep[s] === 1);
    if (candidates.length > 0) {
      let lo = Infinity;
      let hi = -Infinity;
      for (const s of candidates) {
        if (s < lo) lo = s;
        if (s > hi) hi = s;
      }
      if (!matches.cover(lo, hi)) return null;
      for (const seq of candidates) {
        if (!matches.has(seq)) continue;
        if (skip > 0) skip--;
        else if (page.push(seq) === a.limit) return page;
      }
    }
    if (seqs.length < chunk) return page;
    if (walked >= matchWalkCaps.rows) return null;
    chunk = Math.min(chunk * 4, matchWalkCaps.rows - walked);
  }
}

/**
 * The query's matches from one end of the table (by rowid), read in growing batches until they
 * reach past a chunk's seqs: FTS5 reads a term's entries from either end cheaply (the newest 3,000
 * of "hello" in ~1 ms), but a rowid bound makes it read the whole list (15 ms for "hello" ≥ a seq
 * near the end). The end is the one nearer the first chunk (calls stored oldest window first
 * have the newest at the top). Null when more matches than `matchWalkCaps.matches` would be needed.
 */
function matchesFromAnEnd(db: Db, fts: string, range: { min: number; max: number }) {
  let dir: 'DESC' | 'ASC' | null = null;
  let known = new Set<number>();
  let batch = 0;
  let reached = 0;
  let all = false;
  return {
    /** Reads on until every match in [lo, hi] is known; false when that takes too many. */
    cover(lo: number, hi: number): boolean {
      if (dir === null) {
        dir = range.max - lo <= hi - range.min ? 'DESC' : 'ASC';
        reached = dir === 'DESC' ? Infinity : -Infinity;
      }
      const need = dir === 'DESC' ? lo : hi;
      while (!all && (dir === 'DESC' ? reached > need : reached < need)) {
        batch = batch === 0 ? 1024 : batch * 4;
        if (batch > matchWalkCaps.matches) return false;
        const rows = prepared<[string, number], number>(
          db,
          `SELECT rowid FROM calls_fts WHERE calls_fts MATCH ? ORDER BY rowid ${dir} LIMIT ?`,
        )
          .pluck()
          .all(fts, batch);
        known = new Set(rows);
        all = rows.length < batch;
        reached = rows.at(-1) ?? reached;
      }
      return true;
    },
    has: (seq: number) => known.has(seq),
  };
}
