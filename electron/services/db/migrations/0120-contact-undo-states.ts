import type { Migration } from './migration.ts';

/**
 * The undo of a bulk change that moves only a row's state (apply a country to all: its number
 * columns; exclude / include: its exclusion) keeps only that state, not the row's cells: the
 * cells and the raw phone are the row's own. Its snapshot in contact_undo_rows copied whole rows:
 * on the bulk bench's 1M-row list 5.6 µs a row against 1.3 µs for these columns, and the undo
 * swapped whole rows back. A list's undo is in one of the two tables, never both (BulkJob.snapshot
 * says which).
 */
export const migration: Migration = {
  version: 120,
  name: 'contact-undo-states',
  up(db) {
    db.exec(`
      CREATE TABLE contact_undo_states (
        list_id INTEGER NOT NULL REFERENCES contact_lists (id) ON DELETE CASCADE,
        row INTEGER NOT NULL,
        e164 INTEGER,
        bucket INTEGER NOT NULL,
        issues INTEGER NOT NULL,
        reasons TEXT NOT NULL,
        duplicate_of INTEGER NOT NULL,
        excluded INTEGER NOT NULL,
        PRIMARY KEY (list_id, row)
      ) STRICT, WITHOUT ROWID;
    `);
  },
};
