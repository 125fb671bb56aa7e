import type { Migration } from './migration.ts';

/**
 * A launch links its contact list to the service's campaign id: once `campaign_launches` knows the
 * service's id (`bulk_list_id` or `list_id` of a standard save) of a launch made from a contact
 * list, `campaign_lists` gets the row the calls feature joins results on and syncs campaigns by.
 * Triggers keep it in step whichever code path records the id; launches from before are linked too.
 */
const link = (row: 'NEW') => `
  INSERT OR IGNORE INTO campaign_lists (workspace_id, bulk_list_id, list_id, launched_at)
  SELECT ${row}.workspace_id, coalesce(${row}.bulk_list_id, ${row}.service_list_id), ${row}.list_id, ${row}.updated_at
  WHERE ${row}.list_id IS NOT NULL
    AND coalesce(${row}.bulk_list_id, ${row}.service_list_id) IS NOT NULL
    AND EXISTS (SELECT 1 FROM contact_lists WHERE id = ${row}.list_id);`;

export const migration: Migration = {
  version: 70,
  name: 'campaign-list-links',
  up(db) {
    db.exec(`
      CREATE TRIGGER campaign_launch_link_insert AFTER INSERT ON campaign_launches
      BEGIN ${link('NEW')} END;
      CREATE TRIGGER campaign_launch_link_update
      AFTER UPDATE OF bulk_list_id, service_list_id, list_id ON campaign_launches
      BEGIN ${link('NEW')} END;
      INSERT OR IGNORE INTO campaign_lists (workspace_id, bulk_list_id, list_id, launched_at)
      SELECT workspace_id, service_id, list_id, updated_at FROM campaign_launches
      WHERE list_id IS NOT NULL AND service_id IS NOT NULL
        AND list_id IN (SELECT id FROM contact_lists);
    `);
  },
};
