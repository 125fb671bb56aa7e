import type { Migration } from './migration.ts';

/**
 * Lists whose contact_numbers is still owed. An import used to fill contact_numbers (every valid
 * number of the list, in number order) before the list was ready: 1.3–2 s of a 1M-row import, on
 * its critical path, read from the 250 MB of rows just written. The engine already decided every
 * duplicate, so nothing the operator sees needs it until a change re-decides one: the list is now
 * ready first, a row here says the index is owed, and it is built in the background right after
 * (or by the first change that needs it, whichever comes first; see ensureNumbers).
 */
export const migration: Migration = {
  version: 100,
  name: 'contact-numbers-pending',
  up(db) {
    db.exec(`
      CREATE TABLE contact_numbers_pending (
        list_id INTEGER PRIMARY KEY REFERENCES contact_lists (id) ON DELETE CASCADE
      ) STRICT;
    `);
  },
};
