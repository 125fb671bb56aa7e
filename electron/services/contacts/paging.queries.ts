// The grid's windows of a list: keyset pages of a filter (from the nearest position mark for
// 'all'), a row's place in a filter, a filter's size when the counts do not hold it, and the
// service's refusals of the rows shown.
import type { ContactFilter } from '../../../shared/ipc/channels/contacts.ts';
import type { Db } from '../db/define.ts';
import { prepared, read } from '../db/define.ts';
import { filterSql, indexed } from './filters.ts';
import { nearestMark } from './positionMarks.ts';
import { getRow } from './rowStore.ts';
import type { StoredRow } from './rowState.ts';

export interface PageArgs {
  listId: number;
  filter: ContactFilter;
  /** Keyset anchor: start at this spreadsheet row (0 = the start)… */
  fromRow: number;
  /** …after skipping this many rows of the filter (the distance from the nearest known anchor). */
  skip: number;
  limit: number;
}

function page(db: Db, a: PageArgs): StoredRow[] {
  if (a.filter === 'all') {
    // Positions are dense (0..rows-1), in row order, and never change: start at the nearest mark
    // at or before the offset and skip the rest of the way (fewer than MARK_EVERY rows).
    const mark = nearestMark(db, a.listId, a.skip);
    if (!mark) return [];
    return prepared<[number, number, number, number], StoredRow>(
      db,
      `SELECT * FROM contacts WHERE list_id = ? AND row >= ? ORDER BY row LIMIT ? OFFSET ?`,
    ).all(a.listId, mark.row, a.limit, a.skip - mark.pos);
  }
  const f = filterSql(a.filter);
  let start = a.fromRow;
  if (a.skip > 0) {
    // Walk the (covering) index to the first row of the window, then read just the window.
    const found = prepared<[number, number, number], { row: number }>(
      db,
      `SELECT row FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where} AND row >= ? ORDER BY row LIMIT 1 OFFSET ?`,
    ).get(a.listId, a.fromRow, a.skip);
    if (!found) return [];
    start = found.row;
  }
  return prepared<[number, number, number], StoredRow>(
    db,
    `SELECT * FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where} AND row >= ? ORDER BY row LIMIT ?`,
  ).all(a.listId, start, a.limit);
}

function locate(db: Db, a: { listId: number; filter: ContactFilter; row: number }): number | null {
  const row = getRow(db, a.listId, a.row);
  if (!row) return null;
  if (a.filter === 'all') return row.pos;
  const f = filterSql(a.filter);
  const member = prepared<[number, number], { row: number }>(
    db,
    `SELECT row FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where} AND row = ?`,
  ).get(a.listId, a.row);
  if (!member) return null;
  return prepared<[number, number], { n: number }>(
    db,
    `SELECT count(*) AS n FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where} AND row < ?`,
  ).get(a.listId, a.row)!.n;
}

export const contactPagingQueries = {
  'contacts.page': read(page),
  /** The service's reasons for the rows among `rows` a launch of the list had refused (latest campaign wins). */
  'contacts.refusals': read((db, a: { listId: number; rows: number[] }) =>
    prepared<[number, string], { row: number; reason: string }>(
      db,
      `SELECT r.row, r.reason FROM contact_refusals r
       WHERE r.list_id = ? AND r.row IN (SELECT value FROM json_each(?))
       ORDER BY r.row, (SELECT l.created_at FROM campaign_launches l
         WHERE coalesce(l.bulk_list_id, l.service_list_id) = r.bulk_list_id LIMIT 1)`,
    ).all(a.listId, JSON.stringify(a.rows)),
  ),
  'contacts.locate': read(locate),
  /** Rows of a filter the list's counts do not hold (empty:<column>). */
  'contacts.filterCount': read((db, a: { listId: number; filter: Exclude<ContactFilter, 'all'> }) => {
    const f = filterSql(a.filter);
    return prepared<[number], { n: number }>(
      db,
      `SELECT count(*) AS n FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where}`,
    ).get(a.listId)!.n;
  }),
};
