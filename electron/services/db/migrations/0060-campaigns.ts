import type { Migration } from './migration.ts';

/**
 * Campaigns. `campaign_launches` is the launch outbox: one row per launch with the request it
 * makes (settings JSON), the flow, its state and the next step, and the service's ids once known
 * (`bulk_list_id` for the large flow, `service_list_id` for the standard flow; `service_id` is
 * whichever applies) next to the contact list it came from (`list_id`, null for a CLI file), so
 * results can be joined to contact lists. `launch_key` (workspace, file content hash, name) makes a
 * re-run of the CLI resume rather than start again. `campaign_launch_steps` is the timeline: a
 * `sent` row written before each request and a row after its answer. `campaign_drafts` keeps the
 * builder's drafts; `campaign_cache` the workspace's numbers and campaign listing for offline use.
 */
export const migration: Migration = {
  version: 60,
  name: 'campaigns',
  up(db) {
    db.exec(`
      CREATE TABLE campaign_launches (
        id TEXT PRIMARY KEY NOT NULL,
        workspace_id TEXT NOT NULL,
        launch_key TEXT UNIQUE,
        list_id INTEGER,
        name TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        flow TEXT NOT NULL CHECK (flow IN ('large', 'standard')),
        state TEXT NOT NULL CHECK (state IN ('queued', 'pending', 'waiting', 'started', 'failed', 'needs-decision')),
        step TEXT NOT NULL,
        settings TEXT NOT NULL,
        upload_file TEXT NOT NULL,
        bulk_list_id TEXT,
        service_list_id TEXT,
        service_id TEXT GENERATED ALWAYS AS (coalesce(bulk_list_id, service_list_id)) VIRTUAL,
        valid INTEGER NOT NULL DEFAULT 0,
        invalid INTEGER NOT NULL DEFAULT 0,
        service_invalid INTEGER,
        rejects_url TEXT,
        message TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX campaign_launches_by_workspace ON campaign_launches (workspace_id, created_at);
      CREATE INDEX campaign_launches_by_service_id ON campaign_launches (workspace_id, bulk_list_id, service_list_id);

      CREATE TABLE campaign_launch_steps (
        launch_id TEXT NOT NULL REFERENCES campaign_launches (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        step TEXT NOT NULL,
        outcome TEXT NOT NULL,
        at TEXT NOT NULL,
        message TEXT,
        http_status INTEGER,
        PRIMARY KEY (launch_id, seq)
      ) STRICT;

      CREATE TABLE campaign_drafts (
        id TEXT PRIMARY KEY NOT NULL,
        workspace_id TEXT NOT NULL,
        settings TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX campaign_drafts_by_workspace ON campaign_drafts (workspace_id, updated_at);

      CREATE TABLE campaign_cache (
        workspace_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('numbers', 'listing')),
        body TEXT NOT NULL,
        synced_at TEXT,
        last_error TEXT,
        PRIMARY KEY (workspace_id, kind)
      ) STRICT;
    `);
  },
};
