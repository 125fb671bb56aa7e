// A follow-up list: a new contact list made of chosen rows of another (a launched campaign's rows
// of the chosen outcomes: calls/campaignResults.queries.ts picks them and registers
// `calls.followUpList`), written by the contacts' own helpers so it is like any imported list.
import type { Db } from '../db/define.ts';
import { prepared, writeTransaction } from '../db/define.ts';
import { markListPositions } from './positionMarks.ts';
import { recount } from './recount.ts';
import { rebuildNumbers } from './rowStore.ts';
import { getList } from './storedList.ts';
import type { StoredList } from './storedList.ts';

/**
 * A follow-up contact list in one transaction: the source list's settings (columns, mapping,
 * engine setup) and its chosen spreadsheet rows, keeping their row numbers and cells; positions
 * renumbered, numbers and counts rebuilt as after an import.
 */
export function writeFollowUpList(
  db: Db,
  a: { sourceListId: number; rows: number[]; name: string; now: string },
): { list: StoredList; rows: number } {
  const { rows } = a;
  return writeTransaction(db, () => {
    const id = Number(
      prepared(
        db,
        `INSERT INTO contact_lists (name, file_name, file_bytes, status, encoding, delimiter, phone_column, country,
           detected, mapping, headers, setup, counts, report, created_at, updated_at)
         SELECT ?, file_name, file_bytes, 'ready', encoding, delimiter, phone_column, country, detected, mapping,
           headers, setup, counts, NULL, ?, ? FROM contact_lists WHERE id = ?`,
      ).run(a.name, a.now, a.now, a.sourceListId).lastInsertRowid,
    );
    const columns = prepared<[], { name: string }>(db, `SELECT name FROM pragma_table_info('contacts')`)
      .all()
      .map((c) => c.name);
    const picked = columns.map((c) =>
      c === 'list_id' ? '@id' : c === 'pos' ? '(row_number() OVER (ORDER BY row)) - 1' : c,
    );
    prepared(
      db,
      `INSERT INTO contacts (${columns.join(', ')})
       SELECT ${picked.join(', ')} FROM contacts
       WHERE list_id = @source AND row IN (SELECT value FROM json_each(@rows)) ORDER BY row`,
    ).run({ id, source: a.sourceListId, rows: JSON.stringify(rows) });
    markListPositions(db, id);
    rebuildNumbers(db, id);
    prepared(db, `UPDATE contact_lists SET counts = ? WHERE id = ?`).run(JSON.stringify(recount(db, id)), id);
    return { list: getList(db, id) as StoredList, rows: rows.length };
  });
}
