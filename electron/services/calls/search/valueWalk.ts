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
  /** `limit` calls of one value (`sql`), newest first, from the `skip`th. */
  const rows = (sql: string, p: unknown[], limit: number, skip: number) => {
    // A far start found on the index (value, time) first; only calls from there are read.
    let since = '';
    const sinceP: unknown[] = [];
    if (skip > near) {
      const t = first<number>('c.created_ms', sql, 'c.created_ms DESC', [...p, skip]);
      if (t === undefined) return [];
      skip -= count(`${sql} AND c.created_ms > ?`, ...p, t);
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

  // Where the page starts: the value at `offset` and how many of its calls come before it.
  let skip: number;
  let v = first<unknown>(col, `${col} IS NOT NULL`, `${col} ${order}`, [a.offset]);
  if (v === undefined) {
    v = null;
    skip = a.offset - count(`${col} IS NOT NULL`);
  } else skip = a.offset - count(`${col} ${before} ?`, v);
  const page: number[] = [];
  while (page.length < a.limit) {
    if (v === null) {
      page.push(...rows(`${col} IS NULL`, [], a.limit - page.length, skip));
      break;
    }
    page.push(...rows(`${col} = ?`, [v], a.limit - page.length, skip));
    skip = 0;
    v = first<unknown>(col, `${col} ${after} ?`, `${col} ${order}`, [v, 0]) ?? null;
  }
  return page;
}
