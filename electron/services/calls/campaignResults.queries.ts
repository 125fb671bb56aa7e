// A launched campaign's results per contact row: each uploaded row of its contact list with its
// latest call in the campaign and that call's outcome (or "refused", "not called"), counted by
// outcome and paged; the rows of chosen outcomes make a follow-up list (contacts/followUpList).
import { outcomeSql } from '../../../shared/domain/callOutcome.ts';
import type { OutcomeCounts } from '../../../shared/ipc/channels/calls.ts';
import { CAMPAIGN_OUTCOMES } from '../../../shared/ipc/channels/calls.ts';
import type { Db } from '../db/define.ts';
import { prepared, query, read } from '../db/define.ts';
import { cellsJson } from '../db/storedCells.ts';
import { writeFollowUpList } from '../contacts/followUpList.queries.ts';

/**
 * A row's outcome: "refused" when the service refused it at upload (contact_refusals), else its
 * latest call's (the outcome table), "not_called" without one.
 */
const OUTCOME_SQL = `(CASE WHEN lc.status IS NULL AND EXISTS (SELECT 1 FROM contact_refusals r
    WHERE r.list_id = @list AND r.row = rows.row AND r.bulk_list_id = @bulk) THEN 'refused'
  ELSE ${outcomeSql('lc.status', 'lc.sub_status', 'lc.voicemail')} END)`;

/** The list's uploaded rows (valid, not excluded) with their latest call in this campaign. */
const resultsCte = `WITH rows AS (
  SELECT k.row, k.cells, k.e164,
    (SELECT c.id FROM calls c WHERE c.bulk_list_id = @bulk AND c.workspace_id = @ws AND k.e164 IS NOT NULL
       AND c.to_number = '+' || k.e164 ORDER BY c.created_ms DESC, c.id DESC LIMIT 1) AS call_id,
    (SELECT count(*) FROM calls c WHERE c.bulk_list_id = @bulk AND c.workspace_id = @ws AND k.e164 IS NOT NULL
       AND c.to_number = '+' || k.e164) AS calls
  FROM contacts k WHERE k.list_id = @list AND k.bucket = 0 AND k.excluded = 0),
results AS (
  SELECT rows.row, rows.cells, rows.e164, rows.calls, lc.id AS call_id, lc.status, lc.sub_status,
    lc.created_at, lc.attempt_ms, lc.call_duration, ${OUTCOME_SQL} AS outcome
  FROM rows LEFT JOIN calls lc ON lc.id = rows.call_id)`;

export function campaignList(db: Db, a: { workspaceId: string; bulkListId: string }) {
  return (
    prepared<[string, string], { listId: number; listName: string }>(
      db,
      `SELECT cl.list_id AS listId, l.name AS listName FROM campaign_lists cl JOIN contact_lists l ON l.id = cl.list_id
       WHERE cl.workspace_id = ? AND cl.bulk_list_id = ?`,
    ).get(a.workspaceId, a.bulkListId) ?? null
  );
}

function campaignResults(
  db: Db,
  a: { workspaceId: string; bulkListId: string; outcomes?: string[]; offset: number; limit: number },
) {
  const list = campaignList(db, a);
  if (!list) return null;
  const p = { bulk: a.bulkListId, ws: a.workspaceId, list: list.listId };
  const counts = Object.fromEntries(CAMPAIGN_OUTCOMES.map((o) => [o, 0])) as OutcomeCounts;
  for (const r of prepared<[typeof p], { outcome: keyof OutcomeCounts; n: number }>(
    db,
    `${resultsCte} SELECT outcome, count(*) AS n FROM results GROUP BY outcome`,
  ).all(p))
    counts[r.outcome] = r.n;
  const outcomes = a.outcomes?.length ? a.outcomes : [...CAMPAIGN_OUTCOMES];
  const pick = { ...p, outcomes: JSON.stringify(outcomes) };
  const where = `outcome IN (SELECT value FROM json_each(@outcomes))`;
  const total = outcomes.reduce((s, o) => s + (counts[o as keyof OutcomeCounts] ?? 0), 0);
  const rows = prepared<
    [typeof pick & { limit: number; offset: number }],
    {
      row: number;
      cells: string;
      e164: number | null;
      calls: number;
      call_id: string | null;
      status: string | null;
      sub_status: string | null;
      created_at: string | null;
      attempt_ms: number | null;
      call_duration: number | null;
      outcome: (typeof CAMPAIGN_OUTCOMES)[number];
    }
  >(db, `${resultsCte} SELECT * FROM results WHERE ${where} ORDER BY row LIMIT @limit OFFSET @offset`).all({
    ...pick,
    limit: a.limit,
    offset: a.offset,
  });
  return {
    ...list,
    counts,
    total,
    offset: a.offset,
    rows: rows.map((r) => ({
      row: r.row,
      cells: cellsJson(r.cells),
      phone: r.e164 === null ? null : `+${r.e164}`,
      outcome: r.outcome,
      callId: r.call_id,
      status: r.status,
      subStatus: r.sub_status,
      calledAt: r.attempt_ms === null ? null : new Date(r.attempt_ms).toISOString(),
      queuedAt: r.created_at,
      callDuration: r.call_duration,
      calls: r.calls,
    })),
  };
}

/** Spreadsheet rows of the chosen outcomes (a follow-up list copies them). */
export function outcomeRows(
  db: Db,
  a: { workspaceId: string; bulkListId: string; outcomes: string[] },
): number[] | null {
  const list = campaignList(db, a);
  if (!list) return null;
  return prepared<[object], number>(
    db,
    `${resultsCte} SELECT row FROM results WHERE outcome IN (SELECT value FROM json_each(@outcomes)) ORDER BY row`,
  )
    .pluck()
    .all({ bulk: a.bulkListId, ws: a.workspaceId, list: list.listId, outcomes: JSON.stringify(a.outcomes) });
}

/** A follow-up contact list of the launched list's rows with the chosen outcomes (contacts writes it). */
function followUpList(
  db: Db,
  a: { workspaceId: string; bulkListId: string; outcomes: string[]; name: string; now: string },
) {
  const source = campaignList(db, a);
  if (!source) return null;
  const rows = outcomeRows(db, a) ?? [];
  return writeFollowUpList(db, { sourceListId: source.listId, rows, name: a.name, now: a.now });
}

export const campaignResultsQueries = {
  'calls.campaignResults': read(campaignResults),
  'calls.outcomeRows': query(outcomeRows),
  'calls.followUpList': query(followUpList),
};
