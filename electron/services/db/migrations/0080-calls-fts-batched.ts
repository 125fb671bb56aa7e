import type { Migration } from './migration.ts';

/**
 * Calls search indexed per stored page instead of per row (issue 10's sync speed).
 * The row triggers of 0050 cost about 50 µs a call; `calls.upsert` now feeds `calls_fts` itself,
 * in the same transaction as the page's rows (one INSERT … SELECT for the page, a 'delete' of the
 * old text before a changed call is rewritten), so a stored call is never left unindexed. Deleting
 * a call keeps its trigger (rare; nothing in the sync deletes).
 * The index loses its prefix indexes (prefix = '2 3' wrote every token three times, about 6 µs a
 * call): a prefix search merges the few terms that start with it instead, a few ms more at most on
 * 100,000 calls. It is rebuilt from the calls table once.
 * `calls.transcript_json` goes: nothing read it (a call's turns are parsed from `raw`), and it made
 * every call with a transcript about 350 bytes bigger.
 * `recordings` becomes a rowid table (same columns and rules): as WITHOUT ROWID keyed by the random
 * call id, and with `recordings_ws_state` ending in that id, every stored batch rewrote most pages
 * of both b-trees; now rows and that index grow at their end, and only the call-id key is random.
 */
export const migration: Migration = {
  version: 80,
  name: 'calls-fts-batched',
  up(db) {
    db.exec(`
      DROP TRIGGER calls_fts_insert;
      DROP TRIGGER calls_fts_update;

      ALTER TABLE calls DROP COLUMN transcript_json;

      DROP TABLE calls_fts;
      CREATE VIRTUAL TABLE calls_fts USING fts5 (
        transcript_text, name, number_text,
        content = 'calls', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2'
      );
      INSERT INTO calls_fts (calls_fts) VALUES ('rebuild');

      CREATE TABLE recordings_0080 (
        call_id TEXT PRIMARY KEY REFERENCES calls (id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'saved', 'expired', 'failed', 'none')),
        url TEXT,
        path TEXT,
        bytes INTEGER,
        sha256 TEXT,
        expires_ms INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_try_ms INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        saved_at TEXT
      );
      INSERT INTO recordings_0080 (call_id, workspace_id, state, url, path, bytes, sha256, expires_ms, attempts,
          next_try_ms, error, saved_at)
        SELECT call_id, workspace_id, state, url, path, bytes, sha256, expires_ms, attempts, next_try_ms, error, saved_at
        FROM recordings ORDER BY expires_ms;
      DROP TABLE recordings;
      ALTER TABLE recordings_0080 RENAME TO recordings;
      CREATE INDEX recordings_queue ON recordings (expires_ms, call_id) WHERE state = 'pending';
      CREATE INDEX recordings_ws_state ON recordings (workspace_id, state);
    `);
  },
};
