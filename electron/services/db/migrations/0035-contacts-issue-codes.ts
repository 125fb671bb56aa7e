import type { Migration } from './migration.ts';
import { ISSUE_BITS as ISSUE_BITS_20 } from './0020-contacts.ts';

/**
 * Issue bits stored in contacts.issues from version 35: those of 0020 (the engine's first six flags
 * and `duplicate` = 64) plus two codes added by issue 11. The engine's flags for them (64, 128) differ:
 * rowState.ts maps engine flags to stored bits. Spelled out here, frozen (the test checks the mapping).
 */
export const ISSUE_BITS = {
  ...ISSUE_BITS_20,
  /** A warning: valid only as a fixed line. */
  phone_landline: 128,
  /** A quote that never closed; the line was read with it as a character. */
  quote_unbalanced: 256,
} as const;

/** contacts and contact_undo_rows as in 0020, but `issues` may now use bits up to 256. */
const rowColumns = `
  list_id INTEGER NOT NULL,
  row INTEGER NOT NULL CHECK (row > 0),
  pos INTEGER NOT NULL CHECK (pos >= 0),
  cells TEXT NOT NULL,
  phone_raw TEXT NOT NULL,
  e164 INTEGER CHECK (e164 IS NULL OR e164 > 0),
  bucket INTEGER NOT NULL CHECK (bucket IN (0, 1, 2)),
  issues INTEGER NOT NULL CHECK (issues BETWEEN 0 AND 511),
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

/**
 * New issue codes (phone_landline, quote_unbalanced): SQLite cannot change a CHECK constraint in
 * place, so both row tables are rebuilt (copy, drop, rename) with the wider range, and the indexes
 * of contacts are made again, with one partial index per new code.
 */
export const migration: Migration = {
  version: 35,
  name: 'contacts-issue-codes',
  up(db) {
    db.exec(`
      CREATE TABLE contacts_v30 (${rowColumns},
        PRIMARY KEY (list_id, row),
        FOREIGN KEY (list_id) REFERENCES contact_lists (id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      INSERT INTO contacts_v30 SELECT * FROM contacts;
      DROP TABLE contacts;
      ALTER TABLE contacts_v30 RENAME TO contacts;
      CREATE UNIQUE INDEX contacts_pos ON contacts (list_id, pos);
      CREATE INDEX contacts_invalid ON contacts (list_id, row) WHERE bucket = 1;
      CREATE INDEX contacts_duplicate ON contacts (list_id, row) WHERE bucket = 2;
      CREATE INDEX contacts_excluded ON contacts (list_id, row) WHERE excluded = 1;
      CREATE INDEX contacts_edited ON contacts (list_id, row) WHERE edited = 1;
      ${issueIndexes}

      CREATE TABLE contact_undo_rows_v30 (${rowColumns},
        PRIMARY KEY (list_id, row),
        FOREIGN KEY (list_id) REFERENCES contact_lists (id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      INSERT INTO contact_undo_rows_v30 SELECT * FROM contact_undo_rows;
      DROP TABLE contact_undo_rows;
      ALTER TABLE contact_undo_rows_v30 RENAME TO contact_undo_rows;
    `);
  },
};
