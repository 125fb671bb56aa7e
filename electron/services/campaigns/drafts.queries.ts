// The campaign builder's drafts (a launched draft is a campaign) and its test call's row.
import { prepared, query } from '../db/define.ts';
import { cellsJson } from '../db/storedCells.ts';

export const campaignDraftQueries = {
  /** One contact row's cells (the test call's variables), or null. */
  'campaigns.rowCells': query((db, a: { listId: number; row: number }) => {
    const cells = prepared<[number, number], string>(
      db,
      `SELECT cells FROM contacts WHERE list_id = ? AND row = ?`,
    )
      .pluck()
      .get(a.listId, a.row);
    return cells === undefined ? null : cellsJson(cells);
  }),

  'campaigns.drafts': query((db, a: { workspaceId: string }) =>
    prepared<[string], { id: string; workspace_id: string; settings: string; updated_at: string }>(
      db,
      // A launched draft is a campaign (it is in the campaigns list, not here).
      `SELECT id, workspace_id, settings, updated_at FROM campaign_drafts d WHERE workspace_id = ?
       AND NOT EXISTS (SELECT 1 FROM campaign_launches l WHERE l.draft_id = d.id)
       ORDER BY updated_at DESC`,
    ).all(a.workspaceId),
  ),
  /** Saves a draft; false when the id is another workspace's draft (left untouched). */
  'campaigns.saveDraft': query(
    (db, a: { id: string; workspaceId: string; settings: string; at: string }) =>
      prepared(
        db,
        `INSERT INTO campaign_drafts (id, workspace_id, settings, updated_at) VALUES (@id, @workspaceId, @settings, @at)
         ON CONFLICT (id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
         WHERE campaign_drafts.workspace_id = excluded.workspace_id`,
      ).run(a).changes > 0,
  ),
  /** One draft by id (launched or not), or null. */
  'campaigns.draft': query(
    (db, a: { id: string }) =>
      prepared<[string], { id: string; workspace_id: string; settings: string; updated_at: string }>(
        db,
        `SELECT id, workspace_id, settings, updated_at FROM campaign_drafts WHERE id = ?`,
      ).get(a.id) ?? null,
  ),
  'campaigns.deleteDraft': query(
    (db, a: { id: string; workspaceId: string }) =>
      prepared(db, `DELETE FROM campaign_drafts WHERE id = ? AND workspace_id = ?`).run(a.id, a.workspaceId)
        .changes > 0,
  ),
};
