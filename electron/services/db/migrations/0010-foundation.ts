import type { Migration } from './migration.ts';

/**
 * Workspaces (never their secrets: those live in the OS keychain or in memory), app settings
 * (active workspace, window state …) as JSON values, and a bounded log of connection tests.
 */
export const migration: Migration = {
  version: 10,
  name: 'foundation',
  up(db) {
    db.exec(`
      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        base_url TEXT NOT NULL,
        is_sandbox INTEGER NOT NULL DEFAULT 0 CHECK (is_sandbox IN (0, 1)),
        secret_storage TEXT NOT NULL CHECK (secret_storage IN ('keychain', 'session')),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX workspaces_name ON workspaces (name COLLATE NOCASE);
      CREATE UNIQUE INDEX workspaces_single_sandbox ON workspaces (is_sandbox) WHERE is_sandbox = 1;

      CREATE TABLE app_settings (
        key TEXT PRIMARY KEY NOT NULL,
        value TEXT NOT NULL CHECK (json_valid(value)),
        updated_at TEXT NOT NULL
      ) STRICT;

      CREATE TABLE connection_tests (
        id INTEGER PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        base_url TEXT NOT NULL,
        tested_at TEXT NOT NULL,
        ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
        message TEXT NOT NULL,
        credits REAL,
        service_workspace_name TEXT
      ) STRICT;
      CREATE INDEX connection_tests_by_workspace ON connection_tests (workspace_id, id DESC);
    `);
  },
};
