import type { Migration } from './migration.ts';

/**
 * Recordings keyed by the call's rowid (`calls.seq`) instead of its id (issue 10's sync speed).
 * Keyed by the random call id, each stored call with a recording paid for a second b-tree (the id's
 * unique index), a foreign-key probe through the calls' id index, and an id at the end of the
 * queue index: about 9 µs of the ~45 µs a call costs the DB worker. Now a recording row is appended
 * under its call's seq (rows arrive in seq order), its key is the call's own rowid, and readers that
 * need the id join `calls` by rowid. Same columns and rules otherwise; the cascade stays.
 */
export const migration: Migration = {
  version: 90,
  name: 'recordings-by-call-seq',
  up(db) {
    db.exec(`
      CREATE TABLE recordings_0090 (
        seq INTEGER PRIMARY KEY REFERENCES calls (seq) ON DELETE CASCADE,
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
      INSERT INTO recordings_0090 (seq, workspace_id, state, url, path, bytes, sha256, expires_ms, attempts,
          next_try_ms, error, saved_at)
        SELECT c.seq, r.workspace_id, r.state, r.url, r.path, r.bytes, r.sha256, r.expires_ms, r.attempts,
          r.next_try_ms, r.error, r.saved_at
        FROM recordings r JOIN calls c ON c.id = r.call_id ORDER BY c.seq;
      DROP TABLE recordings;
      ALTER TABLE recordings_0090 RENAME TO recordings;
      CREATE INDEX recordings_queue ON recordings (expires_ms) WHERE state = 'pending';
      CREATE INDEX recordings_ws_state ON recordings (workspace_id, state);
    `);
  },
};
