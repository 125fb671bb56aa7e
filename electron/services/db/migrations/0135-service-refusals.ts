import type { Migration } from './migration.ts';

/**
 * What the calling service refused, and what the app predicted it would:
 * - `agent_mappings.optional`: the variables (JSON array of names) the operator marked optional for
 *   this list and agent; their empty cells do not block a launch.
 * - `campaign_launches.predicted_refused`: rows the app predicted the service would drop (the
 *   confirmation shows it); `arrived`: rows the service said it accepted.
 * - `contact_refusals`: each row of a launched list the service refused, by its spreadsheet row in
 *   the list (mapped from the upload file's row number), with the service's reason. A row refused
 *   by two launches of the list has two entries (one per service list id).
 */
export const migration: Migration = {
  version: 135,
  name: 'service-refusals',
  up(db) {
    db.exec(`
      ALTER TABLE agent_mappings ADD COLUMN optional TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE campaign_launches ADD COLUMN predicted_refused INTEGER;
      ALTER TABLE campaign_launches ADD COLUMN arrived INTEGER;
      CREATE TABLE contact_refusals (
        list_id INTEGER NOT NULL REFERENCES contact_lists (id) ON DELETE CASCADE,
        row INTEGER NOT NULL,
        bulk_list_id TEXT NOT NULL,
        upload_row INTEGER NOT NULL,
        reason TEXT NOT NULL,
        PRIMARY KEY (list_id, row, bulk_list_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX contact_refusals_by_campaign ON contact_refusals (bulk_list_id, list_id, row);
    `);
  },
};
