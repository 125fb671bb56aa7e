import type { Migration } from './migration.ts';

/** The flag reasons a fresh installation starts with (editable in the app). */
export const DEFAULT_REVIEW_REASONS = [
  'Wrong information',
  'Rude',
  'Compliance',
  'Audio problem',
  'Opt-out request',
  'Other',
] as const;

/**
 * QA review (issue 24). `review_reasons`: the flag reasons of this installation, in list order; a
 * removed one keeps its row (`removed_at`) so marks flagged with it stay readable. `call_reviews`:
 * one row per workspace and call id, deliberately without a foreign key to `calls`: a sync rewrites
 * or moves call rows, and the marks must outlive that (they are never sent to the service). A row
 * with nothing left in it is deleted, so a row means "something was marked".
 */
export const migration: Migration = {
  version: 160,
  name: 'call-reviews',
  up(db) {
    db.exec(`
      CREATE TABLE review_reasons (
        id INTEGER PRIMARY KEY,
        label TEXT NOT NULL,
        position INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        removed_at TEXT
      ) STRICT;
      CREATE UNIQUE INDEX review_reasons_label ON review_reasons (label COLLATE NOCASE) WHERE removed_at IS NULL;
      CREATE TABLE call_reviews (
        workspace_id TEXT NOT NULL,
        call_id TEXT NOT NULL,
        reviewed_at TEXT,
        reviewed_by TEXT,
        flag_reason_id INTEGER REFERENCES review_reasons (id),
        flagged_at TEXT,
        flagged_by TEXT,
        note TEXT,
        noted_at TEXT,
        noted_by TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (workspace_id, call_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX call_reviews_reviewed ON call_reviews (workspace_id, call_id) WHERE reviewed_at IS NOT NULL;
      CREATE INDEX call_reviews_flag ON call_reviews (workspace_id, flag_reason_id, call_id)
        WHERE flag_reason_id IS NOT NULL;
    `);
    const now = new Date().toISOString();
    const insert = db.prepare(`INSERT INTO review_reasons (label, position, created_at) VALUES (?, ?, ?)`);
    DEFAULT_REVIEW_REASONS.forEach((label, i) => insert.run(label, i, now));
  },
};
