import type { Migration } from './migration.ts';

/**
 * Call history synced from the calling service (issue 10).
 * - `calls`: one row per call id (upserted), the record as last received (`raw`), the columns the
 *   Calls table filters and sorts on, the transcript as turns (`transcript_json`) or, when it could
 *   not be read, as received (`transcript_raw`), and `transcript_text` for search.
 * - `calls_fts`: FTS5 over transcript text, name and number (external content, kept by triggers).
 * - `recordings`: one per call with a recording URL: state pending|saved|expired|failed|none.
 * - `call_sync`: per workspace the watermark (history complete up to it) and the pass in flight
 *   (resumable after a crash).
 * - `campaign_lists`: which contact list was launched as which bulk list id (filled at launch).
 */
export const migration: Migration = {
  version: 50,
  name: 'calls',
  up(db) {
    db.exec(`
      CREATE TABLE calls (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        workspace_id TEXT NOT NULL,
        bulk_list_id TEXT,
        to_number TEXT,
        name TEXT,
        status TEXT NOT NULL,
        sub_status TEXT,
        terminal INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        call_duration REAL,
        call_cost REAL,
        voicemail INTEGER,
        agent_id TEXT,
        agent_name TEXT,
        transcript_json TEXT NOT NULL DEFAULT '[]',
        transcript_raw TEXT,
        transcript_text TEXT NOT NULL DEFAULT '',
        number_text TEXT NOT NULL DEFAULT '',
        raw TEXT NOT NULL,
        first_seen_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX calls_ws_created ON calls (workspace_id, created_ms DESC, id);
      CREATE INDEX calls_ws_bulk ON calls (workspace_id, bulk_list_id, created_ms DESC) WHERE bulk_list_id IS NOT NULL;
      CREATE INDEX calls_ws_status ON calls (workspace_id, status, created_ms DESC);
      CREATE INDEX calls_ws_open ON calls (workspace_id, created_ms) WHERE terminal = 0;
      CREATE INDEX calls_bulk_number ON calls (bulk_list_id, to_number, created_ms DESC) WHERE bulk_list_id IS NOT NULL;

      CREATE VIRTUAL TABLE calls_fts USING fts5 (
        transcript_text, name, number_text,
        content = 'calls', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
      );
      CREATE TRIGGER calls_fts_insert AFTER INSERT ON calls BEGIN
        INSERT INTO calls_fts (rowid, transcript_text, name, number_text)
        VALUES (new.seq, new.transcript_text, new.name, new.number_text);
      END;
      CREATE TRIGGER calls_fts_delete AFTER DELETE ON calls BEGIN
        INSERT INTO calls_fts (calls_fts, rowid, transcript_text, name, number_text)
        VALUES ('delete', old.seq, old.transcript_text, old.name, old.number_text);
      END;
      CREATE TRIGGER calls_fts_update AFTER UPDATE OF transcript_text, name, number_text ON calls BEGIN
        INSERT INTO calls_fts (calls_fts, rowid, transcript_text, name, number_text)
        VALUES ('delete', old.seq, old.transcript_text, old.name, old.number_text);
        INSERT INTO calls_fts (rowid, transcript_text, name, number_text)
        VALUES (new.seq, new.transcript_text, new.name, new.number_text);
      END;

      CREATE TABLE recordings (
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
      ) WITHOUT ROWID;
      CREATE INDEX recordings_queue ON recordings (expires_ms, call_id) WHERE state = 'pending';
      CREATE INDEX recordings_ws_state ON recordings (workspace_id, state);

      CREATE TABLE call_sync (
        workspace_id TEXT PRIMARY KEY,
        watermark_ms INTEGER,
        last_synced_at TEXT,
        pass TEXT,
        updated_at TEXT NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE campaign_lists (
        workspace_id TEXT NOT NULL,
        bulk_list_id TEXT NOT NULL,
        list_id INTEGER NOT NULL REFERENCES contact_lists (id) ON DELETE CASCADE,
        launched_at TEXT,
        PRIMARY KEY (workspace_id, bulk_list_id)
      ) WITHOUT ROWID;
      CREATE INDEX campaign_lists_list ON campaign_lists (list_id);
    `);
  },
};
