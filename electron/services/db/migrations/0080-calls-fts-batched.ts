import type { Migration } from './migration.ts';

/**
 * Calls search indexed per stored page instead of per row (issue 10's sync speed).
 * The row triggers of 0050 cost about 50 µs a call; `calls.upsert` now feeds `calls_fts` itself,
 * in the same transaction as the page's rows (one INSERT … SELECT for the page, a 'delete' of the
 * old text before a changed call is rewritten), so a stored call is never left unindexed. Deleting
 * a call keeps its trigger (rare; nothing in the sync deletes).
 */
export const migration: Migration = {
  version: 80,
  name: 'calls-fts-batched',
  up(db) {
    db.exec(`
      DROP TRIGGER calls_fts_insert;
      DROP TRIGGER calls_fts_update;
    `);
  },
};
