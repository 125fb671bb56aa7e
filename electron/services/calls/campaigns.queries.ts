// The workspace's campaigns as the calls know them: the Calls screen's campaign list (named by
// the launch made here or the service's listing), the live counters of launches under way, and
// the campaigns terminated (from here, or seen in their cancelled calls).
import type { Db } from '../db/define.ts';
import { prepared, query, read } from '../db/define.ts';
import { CALL_OUTCOME } from './store/callsTable.ts';

function campaigns(db: Db, a: { workspaceId: string }) {
  return prepared<
    [{ ws: string }],
    {
      bulkListId: string;
      workspaceId: string;
      listId: number | null;
      listName: string | null;
      campaignName: string | null;
      startedAt: string | null;
      calls: number;
      firstCallAt: string | null;
      lastCallAt: string | null;
    }
  >(
    db,
    // The operator's name for the campaign: the launch made here, else the service's listing (cached).
    `WITH ids AS (
       SELECT bulk_list_id FROM campaign_lists WHERE workspace_id = @ws
       UNION SELECT DISTINCT bulk_list_id FROM calls WHERE workspace_id = @ws AND bulk_list_id IS NOT NULL)
     SELECT ids.bulk_list_id AS bulkListId, @ws AS workspaceId, cl.list_id AS listId, l.name AS listName,
       coalesce(
         (SELECT la.name FROM campaign_launches la WHERE la.workspace_id = @ws
            AND (la.bulk_list_id = ids.bulk_list_id OR la.service_list_id = ids.bulk_list_id)
            ORDER BY la.created_at DESC LIMIT 1),
         (SELECT json_extract(j.value, '$.name') FROM campaign_cache cc, json_each(cc.body) j
            WHERE cc.workspace_id = @ws AND cc.kind = 'listing' AND json_valid(cc.body)
              AND (json_extract(j.value, '$.bulk_list_id') = ids.bulk_list_id OR json_extract(j.value, '$.id') = ids.bulk_list_id)
            LIMIT 1)) AS campaignName,
       coalesce(
         (SELECT la.created_at FROM campaign_launches la WHERE la.workspace_id = @ws
            AND (la.bulk_list_id = ids.bulk_list_id OR la.service_list_id = ids.bulk_list_id)
            ORDER BY la.created_at DESC LIMIT 1),
         (SELECT json_extract(j.value, '$.created_at') FROM campaign_cache cc, json_each(cc.body) j
            WHERE cc.workspace_id = @ws AND cc.kind = 'listing' AND json_valid(cc.body)
              AND (json_extract(j.value, '$.bulk_list_id') = ids.bulk_list_id OR json_extract(j.value, '$.id') = ids.bulk_list_id)
            LIMIT 1)) AS startedAt,
       (SELECT count(*) FROM calls c WHERE c.workspace_id = @ws AND c.bulk_list_id = ids.bulk_list_id) AS calls,
       (SELECT min(created_at) FROM calls c WHERE c.workspace_id = @ws AND c.bulk_list_id = ids.bulk_list_id) AS firstCallAt,
       (SELECT max(created_at) FROM calls c WHERE c.workspace_id = @ws AND c.bulk_list_id = ids.bulk_list_id) AS lastCallAt
     FROM ids LEFT JOIN campaign_lists cl ON cl.workspace_id = @ws AND cl.bulk_list_id = ids.bulk_list_id
       LEFT JOIN contact_lists l ON l.id = cl.list_id
     ORDER BY lastCallAt DESC NULLS LAST`,
  ).all({ ws: a.workspaceId });
}

/**
 * Campaigns (service ids) that were terminated: terminated from this computer, or with a call the
 * terminate cancelled before it was dialled (so a termination made elsewhere is seen too).
 */
const terminatedCampaigns = (db: Db, a: { workspaceId: string }): string[] =>
  prepared<[string, string], string>(
    db,
    `SELECT campaign_id FROM campaign_terminations WHERE workspace_id = ?
     UNION SELECT DISTINCT bulk_list_id FROM calls WHERE workspace_id = ? AND bulk_list_id IS NOT NULL
       AND status = 'cancelled' AND sub_status = 'USER_TERMINATED'`,
  )
    .pluck()
    .all(a.workspaceId, a.workspaceId);

const recordTermination = (db: Db, a: { workspaceId: string; campaignId: string; at: string }): void => {
  prepared(
    db,
    `INSERT INTO campaign_terminations (workspace_id, campaign_id, terminated_at) VALUES (?, ?, ?)
     ON CONFLICT DO UPDATE SET terminated_at = excluded.terminated_at`,
  ).run(a.workspaceId, a.campaignId, a.at);
};

/** A campaign launched from here with its calls' figures so far (the live counters). */
export interface LiveCampaignRow {
  bulkListId: string;
  name: string;
  launchedAt: string;
  /** Rows the launch sent (contacts). */
  contacts: number;
  calls: number;
  dialled: number;
  answered: number;
  completed: number;
  /** Calls not final yet (queued, waiting to retry, on a call). */
  open: number;
  credits: number;
  firstCreatedMs: number | null;
  firstAttemptMs: number | null;
  lastAttemptMs: number | null;
}

/** Launches of the workspace that started, newest first, with their stored calls' figures. */
const liveCampaigns = (db: Db, a: { workspaceId: string; limit: number }): LiveCampaignRow[] =>
  prepared<[{ ws: string; limit: number }], LiveCampaignRow>(
    db,
    `WITH launched AS (
       SELECT service_id, name, created_at,
         -- Its calls: the rows the service accepted, else the rows sent less those it refused or will drop.
         coalesce(arrived, valid - coalesce(service_invalid, predicted_refused, 0)) AS valid
       FROM campaign_launches
       WHERE workspace_id = @ws AND state = 'started' AND service_id IS NOT NULL
       ORDER BY created_at DESC LIMIT @limit)
     SELECT l.service_id AS bulkListId, l.name, l.created_at AS launchedAt, l.valid AS contacts,
       count(c.seq) AS calls, count(c.attempt_ms) AS dialled,
       coalesce(sum(${CALL_OUTCOME} IN ('completed', 'voicemail')), 0) AS answered,
       coalesce(sum(${CALL_OUTCOME} = 'completed'), 0) AS completed,
       coalesce(sum(c.terminal = 0), 0) AS open, coalesce(sum(c.call_cost), 0) AS credits,
       min(c.created_ms) AS firstCreatedMs, min(c.attempt_ms) AS firstAttemptMs, max(c.attempt_ms) AS lastAttemptMs
     FROM launched l LEFT JOIN calls c ON c.workspace_id = @ws AND c.bulk_list_id = l.service_id
     GROUP BY l.service_id ORDER BY l.created_at DESC`,
  ).all({ ws: a.workspaceId, limit: a.limit });

export const callCampaignsQueries = {
  'calls.liveCampaigns': read(liveCampaigns),
  'calls.terminatedCampaigns': read(terminatedCampaigns),
  'calls.recordTermination': query(recordTermination),
  'calls.campaigns': read(campaigns),
};
