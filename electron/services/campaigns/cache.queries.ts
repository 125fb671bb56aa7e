// The cached numbers and campaign listing of a workspace (the service's answers, kept for offline).
import { prepared, query } from '../db/define.ts';

export const campaignCacheQueries = {
  'campaigns.cache': query(
    (db, a: { workspaceId: string; kind: 'numbers' | 'listing' }) =>
      prepared<[string, string], { body: string; synced_at: string | null; last_error: string | null }>(
        db,
        `SELECT body, synced_at, last_error FROM campaign_cache WHERE workspace_id = ? AND kind = ?`,
      ).get(a.workspaceId, a.kind) ?? null,
  ),
  'campaigns.setCache': query(
    (
      db,
      a: {
        workspaceId: string;
        kind: 'numbers' | 'listing';
        body?: string;
        syncedAt?: string;
        error?: string | null;
      },
    ) => {
      prepared(
        db,
        `INSERT INTO campaign_cache (workspace_id, kind, body, synced_at, last_error)
         VALUES (@workspaceId, @kind, coalesce(@body, '[]'), @syncedAt, @error)
         ON CONFLICT (workspace_id, kind) DO UPDATE SET body = coalesce(@body, campaign_cache.body),
           synced_at = coalesce(@syncedAt, campaign_cache.synced_at), last_error = @error`,
      ).run({ body: null, syncedAt: null, error: null, ...a });
    },
  ),
};
