import type { Migration } from './migration.ts';

/**
 * Issue bits stored in contacts.issues: the engine's flags (shared/domain/contacts/issues.ts ISSUE)
 * plus DUPLICATE_BIT. Each code has a partial index so "rows with issue X" is a keyset scan of just
 * those rows (the query must spell the same `issues & N != 0` term for SQLite to use it).
 * Spelled out here on purpose, not imported: a migration is frozen in time (the test checks ISSUE still agrees).
 */
export const ISSUE_BITS = {
  row_ragged: 1,
  phone_missing: 2,
  phone_scientific_notation: 4,
  phone_excel_decimal: 8,
  phone_invalid: 16,
  variable_missing: 32,
  duplicate: 64,
} as const;

const issueIndexes = Object.entries(ISSUE_BITS)
  .map(
    ([code, bit]) =>
      `CREATE INDEX contacts_issue_${code} ON contacts (list_id, row) WHERE issues & ${bit} != 0;`,
  )
  .join('\n');

/** The columns of one stored row (contacts and its undo snapshot have the same shape). */
const rowColumns = `
  list_id INTEGER NOT NULL,
  row INTEGER NOT NULL CHECK (row > 0),
  pos INTEGER NOT NULL CHECK (pos >= 0),
  cells TEXT NOT NULL,
  phone_raw TEXT NOT NULL,
  e164 INTEGER CHECK (e164 IS NULL OR e164 > 0),
  bucket INTEGER NOT NULL CHECK (bucket IN (0, 1, 2)),
  issues INTEGER NOT NULL CHECK (issues BETWEEN 0 AND 127),
  reasons TEXT NOT NULL,
  duplicate_of INTEGER NOT NULL DEFAULT 0,
  excluded INTEGER NOT NULL DEFAULT 0 CHECK (excluded IN (0, 1)),
  edited INTEGER NOT NULL DEFAULT 0 CHECK (edited IN (0, 1)),
  tail TEXT,
  country TEXT`;

/**
 * Contact lists and their rows (millions per list). A row keeps its spreadsheet row, its original
 * cells (JSON array; edited in place, `edited` set), the raw phone and its E.164 digits, the bucket
 * (0 valid, 1 invalid, 2 duplicate), issue bits, the Reasons cell of the rejects file, the row it
 * repeats, the operator's exclusion, the rejects-file tail exactly as the engine wrote it when that
 * differs from re-rendering the cells (so exports match the CLI byte for byte), and a per-row
 * country when one was applied to it alone. One level of undo keeps the rows an action changed.
 * contact_numbers maps each valid number to its rows (who came first decides duplicates).
 */
export const migration: Migration = {
  version: 20,
  name: 'contacts',
  up(db) {
    db.exec(`
      CREATE TABLE contact_lists (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        file_name TEXT NOT NULL,
        file_bytes INTEGER NOT NULL CHECK (file_bytes >= 0),
        status TEXT NOT NULL CHECK (status IN ('importing', 'ready', 'deleting')),
        encoding TEXT NOT NULL,
        delimiter TEXT NOT NULL,
        phone_column TEXT NOT NULL,
        country TEXT NOT NULL,
        detected TEXT NOT NULL CHECK (json_valid(detected)),
        mapping TEXT NOT NULL CHECK (json_valid(mapping)),
        headers TEXT NOT NULL CHECK (json_valid(headers)),
        setup TEXT NOT NULL CHECK (json_valid(setup)),
        counts TEXT NOT NULL CHECK (json_valid(counts)),
        report TEXT CHECK (report IS NULL OR json_valid(report)),
        revision INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE contacts (${rowColumns},
        PRIMARY KEY (list_id, row),
        FOREIGN KEY (list_id) REFERENCES contact_lists (id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
      CREATE UNIQUE INDEX contacts_pos ON contacts (list_id, pos);
      -- Invalid and duplicate rows are few: partial indexes. Valid rows (most of a list) are read
      -- in row order from the table itself, which saves a million-entry index on every import.
      CREATE INDEX contacts_invalid ON contacts (list_id, row) WHERE bucket = 1;
      CREATE INDEX contacts_duplicate ON contacts (list_id, row) WHERE bucket = 2;
      CREATE INDEX contacts_excluded ON contacts (list_id, row) WHERE excluded = 1;
      CREATE INDEX contacts_edited ON contacts (list_id, row) WHERE edited = 1;
      ${issueIndexes}

      -- Which rows have each valid number (duplicates are decided per number). A table rather than
      -- an index on contacts: it is filled in number order once an import is complete, because
      -- a million random index inserts during the import cost more than the rest of it.
      CREATE TABLE contact_numbers (
        list_id INTEGER NOT NULL REFERENCES contact_lists (id) ON DELETE CASCADE,
        e164 INTEGER NOT NULL,
        row INTEGER NOT NULL,
        PRIMARY KEY (list_id, e164, row)
      ) STRICT, WITHOUT ROWID;

      CREATE TABLE contact_undo (
        list_id INTEGER PRIMARY KEY REFERENCES contact_lists (id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        list_state TEXT NOT NULL CHECK (json_valid(list_state)),
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE TABLE contact_undo_rows (${rowColumns},
        PRIMARY KEY (list_id, row),
        FOREIGN KEY (list_id) REFERENCES contact_lists (id) ON DELETE CASCADE
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
