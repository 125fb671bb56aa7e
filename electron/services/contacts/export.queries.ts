// The rows of an upload or rejects file, read a keyset page at a time (exportFile.ts writes them).
import type { Db } from '../db/define.ts';
import { prepared, readStream } from '../db/define.ts';
import { suppressedSql } from '../suppression/suppressedSql.ts';
import { UPLOAD_ROWS_SQL } from './filters.ts';

export interface ExportRow {
  row: number;
  cells: string;
  e164: number | null;
  reasons: string;
  tail: string | null;
}

const EXPORT_COLUMNS = 'row, cells, e164, reasons, tail';

/** The rows of one export file in file order, excluded (and, in the upload, suppressed) rows left out, a keyset page per step. */
function* exportRows(
  db: Db,
  /** `workspaceId`: whose do-not-call list holds rows back from the upload (absent = the active one's). */
  a: { listId: number; kind: 'upload' | 'rejects'; batch: number; workspaceId?: string },
): Iterator<ExportRow[], void, undefined> {
  const sql =
    a.kind === 'upload'
      ? `SELECT ${EXPORT_COLUMNS} FROM contacts
         WHERE list_id = ? AND row > ? AND ${UPLOAD_ROWS_SQL}
           AND NOT ${suppressedSql(a.workspaceId ?? null)} ORDER BY row LIMIT ?`
      : `SELECT ${EXPORT_COLUMNS} FROM contacts
         WHERE list_id = ? AND row > ? AND bucket != 0 AND excluded = 0 ORDER BY row LIMIT ?`;
  let from = 0;
  for (;;) {
    const rows = prepared<[number, number, number], ExportRow>(db, sql).all(a.listId, from, a.batch);
    const last = rows.at(-1);
    if (!last) return;
    from = last.row;
    yield rows;
  }
}

export const contactExportQueries = {
  'contacts.exportRows': readStream(exportRows),
};
