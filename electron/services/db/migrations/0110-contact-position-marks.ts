import type { Migration } from './migration.ts';

/** Every MARK_EVERY-th position of a list is marked (frozen here; contacts.ts pages by it). */
export const MARK_EVERY = 256;

/**
 * The unique index on (list, position) goes; a mark every 256th position replaces it. That index
 * had an entry for every row: written by every import and deleted with every list (a 1M-row list's
 * rows deleted in 3.7 s without it against 5.5 s with it). Positions are dense and never change
 * after an import, so the grid's "all rows from offset N" starts at the nearest mark and skips at
 * most 255 rows in row order (the same order); the list's row count is the last mark plus the rows
 * after it.
 */
export const migration: Migration = {
  version: 110,
  name: 'contact-position-marks',
  up(db) {
    db.exec(`
      CREATE TABLE contact_marks (
        list_id INTEGER NOT NULL REFERENCES contact_lists (id) ON DELETE CASCADE,
        pos INTEGER NOT NULL CHECK (pos >= 0 AND pos % ${MARK_EVERY} = 0),
        row INTEGER NOT NULL,
        PRIMARY KEY (list_id, pos)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO contact_marks (list_id, pos, row)
        SELECT list_id, pos, row FROM contacts WHERE pos % ${MARK_EVERY} = 0 ORDER BY list_id, pos;
      DROP INDEX contacts_pos;
    `);
  },
};
