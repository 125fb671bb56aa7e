// A list's rows in SQLite, one at a time: read, written (contact_numbers kept in step with the
// number), the duplicates of one number decided again, and the number index rebuilt or deleted.
import type { Db } from '../db/define.ts';
import { prepared } from '../db/define.ts';
import { holderOf, ROW_VALUE_COLUMNS, withDuplicateOf } from './rowState.ts';
import type { StoredRow } from './rowState.ts';

export const getRow = (db: Db, listId: number, row: number): StoredRow | null =>
  prepared<[number, number], StoredRow>(db, `SELECT * FROM contacts WHERE list_id = ? AND row = ?`).get(
    listId,
    row,
  ) ?? null;

// Positional parameters: bulk changes write a million rows, and named ones cost more per call.
const UPDATE_ROW = `UPDATE contacts SET ${ROW_VALUE_COLUMNS.map((c) => `${c} = ?`).join(', ')}
  WHERE list_id = ? AND row = ?`;
export const writeRow = (db: Db, r: StoredRow): void =>
  void prepared(db, UPDATE_ROW).run(...ROW_VALUE_COLUMNS.map((c) => r[c]), r.list_id, r.row);

/** Only the exclusion differs (exclude / include): SQLite then maintains one index, not all of them. */
const onlyExclusionMoved = (a: StoredRow, b: StoredRow): boolean =>
  a.excluded !== b.excluded && ROW_VALUE_COLUMNS.every((c) => c === 'excluded' || a[c] === b[c]);

/** Writes `after` over the stored `before`, keeping contact_numbers in step with its number. */
export function saveRow(db: Db, before: StoredRow, after: StoredRow): void {
  if (onlyExclusionMoved(before, after)) {
    prepared(db, `UPDATE contacts SET excluded = ? WHERE list_id = ? AND row = ?`).run(
      after.excluded,
      after.list_id,
      after.row,
    );
    return;
  }
  writeRow(db, after);
  if (before.e164 === after.e164) return;
  if (before.e164 !== null) {
    prepared(db, `DELETE FROM contact_numbers WHERE list_id = ? AND e164 = ? AND row = ?`).run(
      before.list_id,
      before.e164,
      before.row,
    );
  }
  if (after.e164 !== null) {
    prepared(db, `INSERT INTO contact_numbers (list_id, e164, row) VALUES (?, ?, ?)`).run(
      after.list_id,
      after.e164,
      after.row,
    );
  }
}

/** contact_numbers for a whole list again, filled in number order (after an import or a big change). */
export function rebuildNumbers(db: Db, listId: number): void {
  prepared(db, `DELETE FROM contact_numbers WHERE list_id = ?`).run(listId);
  prepared(
    db,
    `INSERT INTO contact_numbers (list_id, e164, row)
     SELECT list_id, e164, row FROM contacts WHERE list_id = ? AND e164 IS NOT NULL ORDER BY e164, row`,
  ).run(listId);
}

/**
 * Builds the list's contact_numbers when an import left it owed (contact_numbers_pending, see
 * migration 0100); answers whether it did. Runs in the caller's transaction.
 */
export function ensureNumbers(db: Db, listId: number): boolean {
  if (prepared(db, `DELETE FROM contact_numbers_pending WHERE list_id = ?`).run(listId).changes === 0)
    return false;
  rebuildNumbers(db, listId);
  return true;
}

/** Rows changed by one action: the state before the first change and the latest state. */
export class RowChanges {
  readonly rows = new Map<number, { before: StoredRow; after: StoredRow }>();
  readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }
  set(before: StoredRow, after: StoredRow): void {
    const seen = this.rows.get(before.row);
    this.rows.set(before.row, { before: seen ? seen.before : before, after });
    saveRow(this.db, seen ? seen.after : before, after);
  }
  /** The latest state of a row this action has touched, else the stored one. */
  current(row: StoredRow): StoredRow {
    return this.rows.get(row.row)?.after ?? row;
  }
}

/**
 * Everyone with this number again: its holder (holderOf: the first otherwise valid row in file
 * order, else the first) wins, the others repeat it.
 * Needed after a number leaves or joins a row.
 */
export function recomputeNumber(db: Db, listId: number, digits: number, changes: RowChanges): void {
  const rows = prepared<[number, number], StoredRow>(
    db,
    `SELECT c.* FROM contact_numbers n JOIN contacts c ON c.list_id = n.list_id AND c.row = n.row
     WHERE n.list_id = ? AND n.e164 = ? ORDER BY n.row`,
  ).all(listId, digits);
  const winner = holderOf(rows.map((r) => changes.current(r)));
  for (const stored of rows) {
    const row = changes.current(stored);
    const next = withDuplicateOf(row, row.row === winner ? 0 : winner);
    if (next !== row) changes.set(stored, next);
  }
}

/** The tables that hold a list's rows by key, and their keys after list_id. */
const LIST_TABLE_KEYS = {
  contacts: ['row'],
  contact_undo_rows: ['row'],
  contact_undo_states: ['row'],
  contact_numbers: ['e164', 'row'],
  contact_marks: ['pos'],
} as const;
export type ListTable = keyof typeof LIST_TABLE_KEYS;

/**
 * Deletes a list's first `limit` entries of `table` in key order (all that are left when fewer
 * remain) and answers how many. The `limit`th key is found first and the delete is a key range:
 * `key IN (SELECT … LIMIT n)` built a temporary table of the keys and took twice as long (1M
 * contact_numbers entries 1.1–1.3 s against 2.0–2.8 s; 1M rows 4.7–5.4 s against 6.1–6.8 s).
 */
export function deleteFirst(db: Db, table: ListTable, listId: number, limit: number): number {
  const keys = LIST_TABLE_KEYS[table].join(', ');
  const last = prepared<[number, number], Record<string, number>>(
    db,
    `SELECT ${keys} FROM ${table} WHERE list_id = ? ORDER BY ${keys} LIMIT 1 OFFSET ?`,
  ).get(listId, limit - 1);
  if (!last) return prepared(db, `DELETE FROM ${table} WHERE list_id = ?`).run(listId).changes;
  const bound = LIST_TABLE_KEYS[table].map((k) => last[k] as number);
  return prepared(
    db,
    `DELETE FROM ${table} WHERE list_id = ? AND (${keys}) <= (${bound.map(() => '?').join(', ')})`,
  ).run(listId, ...bound).changes;
}
