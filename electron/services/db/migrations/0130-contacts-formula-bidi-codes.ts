import type { Migration } from './migration.ts';
import { ISSUE_BITS as ISSUE_BITS_35 } from './0035-contacts-issue-codes.ts';

/**
 * Issue bits stored in contacts.issues from version 130: those of 0035 plus two codes of issue 22.
 * The engine's flags for them (256, 512) differ: rowState.ts maps engine flags to stored bits.
 * Spelled out here, frozen (the test checks the mapping).
 */
export const ISSUE_BITS = {
  ...ISSUE_BITS_35,
  /** A warning: a cell would run as a formula in a spreadsheet. */
  formula_cell: 512,
  /** The phone holds bidi controls: invalid for calling. */
  phone_bidi_control: 1024,
} as const;

const NEW_CODES = ['formula_cell', 'phone_bidi_control'] as const;

/** contacts and contact_undo_rows as in 0035, but `issues` may now use bits up to 1024. */
const rowColumns = `
  list_id INTEGER NOT NULL,
  row INTEGER NOT NULL CHECK (row > 0),
  pos INTEGER NOT NULL CHECK (pos >= 0),
  cells TEXT NOT NULL,
  phone_raw TEXT NOT NULL,
  e164 INTEGER CHECK (e164 IS NULL OR e164 > 0),
  bucket INTEGER NOT NULL CHECK (bucket IN (0, 1, 2)),
  issues INTEGER NOT NULL CHECK (issues BETWEEN 0 AND 2047),
  reasons TEXT NOT NULL,
  duplicate_of INTEGER NOT NULL DEFAULT 0,
  excluded INTEGER NOT NULL DEFAULT 0 CHECK (excluded IN (0, 1)),
  edited INTEGER NOT NULL DEFAULT 0 CHECK (edited IN (0, 1)),
  tail TEXT,
  country TEXT`;

const issueIndexes = Object.entries(ISSUE_BITS)
  .map(
    ([code, bit]) =>
      `CREATE INDEX contacts_issue_${code} ON contacts (list_id, row) WHERE issues & ${bit} != 0;`,
  )
  .join('\n');

/** Each list's stored counts (contact_lists.counts) gets a 0 for the new codes: no stored row has them. */
const zeroCounts = NEW_CODES.map((code) => `'$.issues.${code}', 0`).join(', ');

/**
 * New issue codes (formula_cell, phone_bidi_control): as in 0035, SQLite cannot change a CHECK
 * constraint in place, so both row tables are rebuilt with the wider range and the indexes of
 * contacts made again (contacts_pos stays gone: 0110), with one partial index per new code. Rows stored before keep their bits:
 * they were checked by the rules of their import (re-import, or a recheck of the row, to apply the
 * new ones); the upload's defusing and the visible bidi controls apply to every row whatever its bits.
 */
export const migration: Migration = {
  version: 130,
  name: 'contacts-formula-bidi-codes',
  up(db) {
    db.exec(`
      CREATE TABLE contacts_v130 (${rowColumns},
        PRIMARY KEY (list_id, row),
        FOREIGN KEY (list_id) REFERENCES contact_lists (id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      INSERT INTO contacts_v130 SELECT * FROM contacts;
      DROP TABLE contacts;
      ALTER TABLE contacts_v130 RENAME TO contacts;
      CREATE INDEX contacts_invalid ON contacts (list_id, row) WHERE bucket = 1;
      CREATE INDEX contacts_duplicate ON contacts (list_id, row) WHERE bucket = 2;
      CREATE INDEX contacts_excluded ON contacts (list_id, row) WHERE excluded = 1;
      CREATE INDEX contacts_edited ON contacts (list_id, row) WHERE edited = 1;
      ${issueIndexes}

      CREATE TABLE contact_undo_rows_v130 (${rowColumns},
        PRIMARY KEY (list_id, row),
        FOREIGN KEY (list_id) REFERENCES contact_lists (id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      INSERT INTO contact_undo_rows_v130 SELECT * FROM contact_undo_rows;
      DROP TABLE contact_undo_rows;
      ALTER TABLE contact_undo_rows_v130 RENAME TO contact_undo_rows;

      UPDATE contact_lists SET counts = json_set(counts, ${zeroCounts})
        WHERE json_valid(counts) AND json_type(counts, '$.issues') = 'object';
    `);
  },
};
