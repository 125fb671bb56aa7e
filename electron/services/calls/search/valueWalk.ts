// A page of the Calls table sorted by another column than the date (migration 0210: one index per
// column, stored in one direction, without the call id that ends the order), read value by value
// along the index in the asked direction: each value's calls newest first, nulls last. Far windows
// are found by counting index entries (covering) and only the page's calls are read: SQL's own
// ORDER BY sorted every call in the other direction (3.2–6.7 s at a million), and in the index's
// direction read every call before a far window for its id (2–7.7 s at 500,000).
import type { CallSortKey } from '../../../../shared/ipc/channels/calls.ts';
import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';
import type { Where } from './filter.ts';
import type { ListArgs } from './plan.ts';
import { hasRankCounts, rankedStart } from './rankCounts.ts';
import type { RankedStart } from './rankCounts.ts';

/** Each sort column's index, as order.ts sorts it, and the direction it is stored in. */
const INDEXED: Record<Exclude<CallSortKey, 'created_at'>, { sql: string; stored: 'asc' | 'desc' }> = {
  attempted_at: { sql: 'c.attempt_ms', stored: 'desc' },
  call_duration: { sql: 'c.call_duration', stored: 'desc' },
  call_cost: { sql: 'c.call_cost', stored: 'desc' },
  name: { sql: 'c.name COLLATE NOCASE', stored: 'asc' },
  status: { sql: 'c.status', stored: 'asc' },
};

/** Below this offset a window in the index's own direction is SQL's (an index walk from the start). */
const NEAR = 2000;

/** The page's call seqs, or null when the list's own SQL reads it well (or must sort: a filter). */
export function pageByValueWalk(db: Db, a: ListArgs, w: Where, near = NEAR): number[] | null {
  const by = a.sort?.by ?? 'created_at';
  if (by === 'created_at' || !w.workspaceOnly) return null;
  const { sql: col, stored } = INDEXED[by];
  const dir = a.sort?.dir ?? 'desc';
  if (dir === stored && a.offset < near) return null;
  const ws = a.workspaceId;
  const [after, before, order] = dir === 'asc' ? ['>', '<', 'ASC'] : ['<', '>', 'DESC'];
  const first = <T>(select: string, sql: string, orderBy: string, p: unknown[]) =>
    prepared<unknown[], T>(
      db,
      `SELECT ${select} FROM calls c WHERE c.workspace_id = ? AND ${sql} ORDER BY ${orderBy} LIMIT 1 OFFSET ?`,
    )
      .pluck()
      .get(ws, ...p);
  const count = (sql: string, ...p: unknown[]) =>
    prepared<unknown[], number>(db, `SELECT count(*) FROM calls c WHERE c.workspace_id = ? AND ${sql}`)
      .pluck()
      .get(ws, ...p) ?? 0;
  /**
   * `limit` calls of one value (`sql`), newest first, from the `skip`th; `newer`: `count` of them
   * are from `upper` on (the start is in the day before it: only that day is walked to it).
   */
  const rows = (sql: string, p: unknown[], limit: number, skip: number, newer?: RankedStart['newer']) => {
    // A start past the value's first call found on the index (value, time) first; only calls from
    // there are read (an OFFSET read every skipped call's row for its id: 88 ms for 2,000 of them).
    let since = '';
    const sinceP: unknown[] = [];
    if (skip > 0) {
      const [within, withinP] = newer ? [' AND c.created_ms < ?', [newer.upper]] : ['', []];
      const local = skip - (newer?.count ?? 0);
      const t = first<number>('c.created_ms', `${sql}${within}`, 'c.created_ms DESC', [
        ...p,
        ...withinP,
        local,
      ]);
      if (t === undefined) return [];
      skip = local - count(`${sql} AND c.created_ms > ?${within}`, ...p, t, ...withinP);
      since = ' AND c.created_ms <= ?';
      sinceP.push(t);
    }
    return prepared<unknown[], number>(
      db,
      `SELECT c.seq FROM calls c WHERE c.workspace_id = ? AND ${sql}${since}
       ORDER BY c.created_ms DESC, c.id ASC LIMIT ? OFFSET ?`,
    )
      .pluck()
      .all(ws, ...p, ...sinceP, limit, skip);
  };

  // Where the page starts: the value at `offset` and how many of its calls come before it; far
  // down, from the rank counts (only the stretch it is in is walked), else along the index.
  let start: RankedStart | null;
  if (a.offset >= near && hasRankCounts(db)) {
    start = rankedStart(db, { workspaceId: ws, by, dir, offset: a.offset, col }, (range, p, local) => {
      const x = first<unknown>(col, range, `${col} ${order}`, [...p, local]);
      return x === undefined
        ? null
        : { v: x, skip: local - count(`${range} AND ${col} ${before} ?`, ...p, x) };
    });
    if (start === null) return [];
  } else {
    const v = first<unknown>(col, `${col} IS NOT NULL`, `${col} ${order}`, [a.offset]);
    start =
      v === undefined
        ? { v: null, skip: a.offset - count(`${col} IS NOT NULL`) }
        : { v, skip: a.offset - count(`${col} ${before} ?`, v) };
  }
  let { v, skip, newer } = start;
  const page: number[] = [];
  while (page.length < a.limit) {
    if (v === null) {
      page.push(...rows(`${col} IS NULL`, [], a.limit - page.length, skip, newer));
      break;
    }
    page.push(...rows(`${col} = ?`, [v], a.limit - page.length, skip, newer));
    skip = 0;
    newer = undefined;
    v = first<unknown>(col, `${col} ${after} ?`, `${col} ${order}`, [v, 0]) ?? null;
  }
  return page;
}
