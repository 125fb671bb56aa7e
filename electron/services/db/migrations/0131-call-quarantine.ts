import type { Migration } from './migration.ts';

/**
 * History records that failed their schema (a date that does not exist, a number out of range),
 * kept apart per workspace with the reason and the record as received, so one bad record never
 * fails its page and the operator can see what was skipped. `record_key` is the call id, or a hash
 * of the raw JSON for a record without a readable id. A valid arrival of the same call id removes
 * its row (calls.upsert).
 */
export const migration: Migration = {
  version: 131,
  name: 'call-quarantine',
  up(db) {
    db.exec(`
      CREATE TABLE call_quarantine (
        workspace_id TEXT NOT NULL,
        record_key TEXT NOT NULL,
        call_id TEXT,
        field TEXT NOT NULL,
        reason TEXT NOT NULL,
        raw TEXT NOT NULL,
        first_seen_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        PRIMARY KEY (workspace_id, record_key)
      ) STRICT;
      CREATE INDEX call_quarantine_call ON call_quarantine (call_id) WHERE call_id IS NOT NULL;
      CREATE INDEX call_quarantine_seen ON call_quarantine (workspace_id, last_seen_at);
    `);
  },
};
