import type { Migration } from './migration.ts';

/**
 * One campaign, one launch. `draft_id` ties a launch to the builder draft it came from (its
 * settings, kept in campaign_drafts): at most one launch per draft (a unique index, so no code path
 * can put a second outbox entry for the same campaign). A refused launch is sent again in the same
 * row. `terminated_at` is when the operator terminated the campaign's remaining calls.
 */
export const migration: Migration = {
  version: 133,
  name: 'campaign-launch-once',
  up(db) {
    db.exec(`
      ALTER TABLE campaign_launches ADD COLUMN draft_id TEXT;
      ALTER TABLE campaign_launches ADD COLUMN terminated_at TEXT;
      CREATE UNIQUE INDEX campaign_launches_one_per_draft ON campaign_launches (draft_id)
        WHERE draft_id IS NOT NULL;
    `);
  },
};
