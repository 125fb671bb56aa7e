// A follow-up list: a new contact list made from a launched campaign's results (the rows of the
// chosen outcomes), written by the contacts' own helpers so it is like any imported list.
import type { Db } from '../db/define.ts';
import { prepared, query, writeTransaction } from '../db/define.ts';
import { getList, markListPositions, rebuildNumbers, recount } from '../db/queries/contacts.ts';
import type { StoredList } from '../db/queries/contacts.ts';
import { campaignList, outcomeRows } from '../calls/campaignResults.queries.ts';

/**
 * A follow-up contact list in one transaction: the launched list's settings (columns, mapping,
 * engine setup) and the rows of the chosen outcomes, keeping their spreadsheet row numbers and
 * cells; positions renumbered, numbers and counts rebuilt as after an import.
 */
function followUpList(
  db: Db,
  a: { workspaceId: string; bulkListId: string; outcomes: string[]; name: string; now: string },
): { list: StoredList; rows: number } | null {
  const source = campaignList(db, a);
  if (!source) return null;
  const rows = outcomeRows(db, a) ?? [];
  return writeTransaction(db, () => {
    const id = Number(
      prepared(
        db,
        `INSERT INTO contact_lists (name, file_name, file_bytes, status, encoding, delimiter, phone_column, country,
           detected, mapping, headers, setup, counts, report, created_at, updated_at)
         SELECT ?, file_name, file_bytes, 'ready', encoding, delimiter, phone_column, country, detected, mapping,
           headers, setup, counts, NULL, ?, ? FROM contact_lists WHERE id = ?`,
      ).run(a.name, a.now, a.now, source.listId).lastInsertRowid,
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
    ).run({ id, source: source.listId, rows: JSON.stringify(rows) });
    markListPositions(db, id);
    rebuildNumbers(db, id);
    prepared(db, `UPDATE contact_lists SET counts = ? WHERE id = ?`).run(JSON.stringify(recount(db, id)), id);
    return { list: getList(db, id) as StoredList, rows: rows.length };
  });
}

export const followUpListQueries = {
  'calls.followUpList': query(followUpList),
};
