import type { Migration } from './migration.ts';

/**
 * The agent library, per workspace. `agents` holds each synced agent (its listing row and its
 * agent-by-id answer as received, unknown fields included, plus the columns the library lists and
 * searches) and the local draft agents (a pasted prompt; never on the service). `agent_sync` is
 * the last sync of each workspace. `agent_subscription_drafts` keeps an event-subscriptions edit
 * that could not be saved (offline, refused) until it is saved or discarded. `agent_mappings` is
 * the variable → column mapping chosen for one list and agent (the newest one of an agent seeds
 * the auto-mapping of its next list).
 */
export const migration: Migration = {
  version: 30,
  name: 'agents',
  up(db) {
    db.exec(`
      CREATE TABLE agents (
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
        is_local_draft INTEGER NOT NULL DEFAULT 0 CHECK (is_local_draft IN (0, 1)),
        language TEXT,
        active_version_id TEXT,
        version_count INTEGER NOT NULL DEFAULT 0 CHECK (version_count >= 0),
        variables TEXT NOT NULL DEFAULT '[]',
        list_raw TEXT,
        detail_raw TEXT,
        draft_prompt TEXT,
        list_order INTEGER NOT NULL DEFAULT 0,
        synced_at TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (workspace_id, id),
        CHECK (is_local_draft = 1 OR detail_raw IS NOT NULL),
        CHECK (is_local_draft = 0 OR draft_prompt IS NOT NULL)
      ) STRICT;
      CREATE INDEX agents_by_name ON agents (workspace_id, name COLLATE NOCASE);

      CREATE TABLE agent_sync (
        workspace_id TEXT PRIMARY KEY NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        synced_at TEXT,
        last_error TEXT,
        last_error_at TEXT
      ) STRICT;

      CREATE TABLE agent_subscription_drafts (
        workspace_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        subscriptions TEXT NOT NULL,
        reason TEXT NOT NULL,
        saved_at TEXT NOT NULL,
        PRIMARY KEY (workspace_id, agent_id),
        FOREIGN KEY (workspace_id, agent_id) REFERENCES agents (workspace_id, id) ON DELETE CASCADE
      ) STRICT;

      CREATE TABLE agent_mappings (
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        agent_id TEXT NOT NULL,
        list_id INTEGER NOT NULL REFERENCES contact_lists (id) ON DELETE CASCADE,
        version_id TEXT,
        mapping TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (workspace_id, agent_id, list_id)
      ) STRICT;
      CREATE INDEX agent_mappings_newest ON agent_mappings (workspace_id, agent_id, updated_at);
      CREATE INDEX agent_mappings_list ON agent_mappings (list_id);
    `);
  },
};
