// contact_marks (migration 0110): every MARK_EVERY-th position of a list and its row, so a page at
// any offset, and a list's row count, start from the nearest mark instead of the list's start.
import type { Db } from '../db/define.ts';
import { prepared } from '../db/define.ts';
import { MARK_EVERY } from '../db/migrations/0110-contact-position-marks.ts';

/** The list's last marked position at or before `pos`, if any. */
export const nearestMark = (db: Db, listId: number, pos: number) =>
  prepared<[number, number], { pos: number; row: number }>(
    db,
    `SELECT pos, row FROM contact_marks WHERE list_id = ? AND pos <= ? ORDER BY pos DESC LIMIT 1`,
  ).get(listId, pos);

/** Rows in a list: its last mark's position plus the rows from that mark on. */
export function rowCount(db: Db, listId: number): number {
  const last = nearestMark(db, listId, Number.MAX_SAFE_INTEGER);
  if (!last) return 0;
  return (
    last.pos +
    prepared<[number, number], { n: number }>(
      db,
      `SELECT count(*) AS n FROM contacts WHERE list_id = ? AND row >= ?`,
    ).get(listId, last.row)!.n
  );
}

/** Marks every MARK_EVERY-th position of a list whose rows are all stored (a list made in one statement). */
export const markListPositions = (db: Db, listId: number): void =>
  void prepared(
    db,
    `INSERT INTO contact_marks (list_id, pos, row) SELECT list_id, pos, row FROM contacts WHERE list_id = ? AND pos % ${MARK_EVERY} = 0`,
  ).run(listId);

/** Marks every MARK_EVERY-th position among rows stored at positions `from`.. (in row order). */
export function markPositions(db: Db, listId: number, from: number, rows: readonly number[]): void {
  const mark = prepared(db, `INSERT INTO contact_marks (list_id, pos, row) VALUES (?, ?, ?)`);
  for (let p = Math.ceil(from / MARK_EVERY) * MARK_EVERY; p < from + rows.length; p += MARK_EVERY)
    mark.run(listId, p, rows[p - from]);
}
