import type { Migration } from './migration.ts';

/**
 * The do-not-call list (issue 27). `suppressions` holds one entry per number and list: a
 * workspace's own (`workspace_id` = its id) or the list shared by every workspace (`''`). The
 * number is the E.164 digits as an integer, as `contacts.e164` stores it, so the check of a contact
 * list is one probe of the primary key per row (WITHOUT ROWID, number first). `reason` is the
 * earliest reason given; `sources` (JSON array of {kind, ref, at}) keeps every source merged in.
 * `suppression_history` keeps every change of an entry (added, merged, removed, restored) for the
 * page's history and the undo of a removal. `suppression_offers` are numbers the results proposed
 * (a DND_SKIPPED call, an opt-out phrase in a transcript), waiting for the operator: never added
 * by themselves.
 */
export const migration: Migration = {
  version: 170,
  name: 'suppression',
  up(db) {
    db.exec(`
      CREATE TABLE suppressions (
        e164 INTEGER NOT NULL CHECK (e164 > 0),
        workspace_id TEXT NOT NULL,
        reason TEXT NOT NULL CHECK (reason IN ('opted_out', 'dnd_registry', 'wrong_number', 'complaint', 'manual', 'imported')),
        sources TEXT NOT NULL CHECK (json_valid(sources)),
        note TEXT NOT NULL DEFAULT '',
        added_by TEXT NOT NULL,
        added_at TEXT NOT NULL,
        expires_at TEXT,
        PRIMARY KEY (e164, workspace_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX suppressions_ws_added ON suppressions (workspace_id, added_at DESC, e164);

      CREATE TABLE suppression_history (
        id INTEGER PRIMARY KEY,
        e164 INTEGER NOT NULL,
        workspace_id TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('added', 'merged', 'removed', 'restored', 'offered', 'dismissed')),
        reason TEXT NOT NULL,
        source TEXT CHECK (source IS NULL OR json_valid(source)),
        entry TEXT CHECK (entry IS NULL OR json_valid(entry)),
        actor TEXT NOT NULL,
        at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX suppression_history_number ON suppression_history (e164, workspace_id, id);

      CREATE TABLE suppression_offers (
        id INTEGER PRIMARY KEY,
        workspace_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('dnd_skipped', 'opt_out_phrase')),
        call_id TEXT NOT NULL,
        e164 INTEGER NOT NULL CHECK (e164 > 0),
        phrase TEXT,
        excerpt TEXT,
        state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'accepted', 'dismissed')),
        created_at TEXT NOT NULL,
        UNIQUE (workspace_id, kind, call_id)
      ) STRICT;
      CREATE INDEX suppression_offers_open ON suppression_offers (workspace_id, kind, id) WHERE state = 'open';
    `);
  },
};
