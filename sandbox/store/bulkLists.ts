import type { Db } from './db.ts';
import type { BulkListEntryRow, BulkListRow } from './types.ts';

export function createBulkListStore(db: Db) {
  const getStmt = db.prepare<[string], BulkListRow>('SELECT * FROM bulk_lists WHERE id = ?');
  const insertRowStmt = db.prepare(
    `INSERT INTO bulk_list_rows (bulk_list_id, row_number, line_number, valid, reason, mobile_number, callee_name, custom_args_values, cells)
     VALUES (@bulk_list_id, @row_number, @line_number, @valid, @reason, @mobile_number, @callee_name, @custom_args_values, @cells)`,
  );
  return {
    /** The list and all its rows, atomically. */
    insert(list: BulkListRow, rows: readonly BulkListEntryRow[]): void {
      const cols = Object.keys(list);
      db.transaction(() => {
        db.prepare(
          `INSERT INTO bulk_lists (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`,
        ).run(list);
        for (const r of rows) insertRowStmt.run(r);
      })();
    },
    get: (id: string): BulkListRow | undefined => getStmt.get(id),
    byInvalidToken: (token: string): BulkListRow | undefined =>
      db.prepare<[string], BulkListRow>('SELECT * FROM bulk_lists WHERE invalid_csv_token = ?').get(token),
    update(id: string, patch: Partial<Omit<BulkListRow, 'id'>>, now: number): void {
      const cols = Object.keys(patch).filter((k) => k !== 'updated_at');
      db.prepare(
        `UPDATE bulk_lists SET ${[...cols.map((c) => `${c} = @${c}`), 'updated_at = @updated_at'].join(', ')} WHERE id = @id`,
      ).run({
        ...patch,
        id,
        updated_at: now,
      });
    },
    list(limit: number, offset: number): { rows: BulkListRow[]; total: number } {
      const rows = db
        .prepare<[number, number], BulkListRow>(
          'SELECT * FROM bulk_lists ORDER BY created_at DESC, id LIMIT ? OFFSET ?',
        )
        .all(limit, offset);
      const total = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM bulk_lists').get()?.n ?? 0;
      return { rows, total };
    },
    validRows: (id: string): BulkListEntryRow[] =>
      db
        .prepare<[string], BulkListEntryRow>(
          'SELECT * FROM bulk_list_rows WHERE bulk_list_id = ? AND valid = 1 ORDER BY row_number',
        )
        .all(id),
    invalidRows: (id: string): BulkListEntryRow[] =>
      db
        .prepare<[string], BulkListEntryRow>(
          'SELECT * FROM bulk_list_rows WHERE bulk_list_id = ? AND valid = 0 ORDER BY row_number',
        )
        .all(id),
  };
}
export type BulkListStore = ReturnType<typeof createBulkListStore>;
