// How many calls a Calls table filter matches, read from the chart aggregates' status pairs
// (call_agg_pairs: per campaign × status × sub-status × voicemail, a few hundred rows) instead of
// counting the calls: at a million calls every page's count walked a million index entries.
import type { CallFilter } from '../../../../shared/ipc/channels/calls.ts';
import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';
import { hasAggregates } from '../stats/callStatsAggregated.ts';
import { whereOf } from './filter.ts';

/** The filters whose every condition is a column the status pairs keep. */
const PAIR_FILTERS: ReadonlySet<string> = new Set([
  'bulkListId',
  'statuses',
  'subStatuses',
  'outcomes',
  'voicemail',
]);

/**
 * The pairs seen as calls (`c`): the same columns under the same names, so the filter's own SQL
 * (whereOf, the outcome table included) picks the same calls' pairs.
 */
const PAIRS_AS_CALLS = `(SELECT workspace_id, nullif(bulk_key, '') AS bulk_list_id, status,
    CASE WHEN sub_key = 'n' THEN NULL ELSE substr(sub_key, 2) END AS sub_status,
    nullif(vm_key, -1) AS voicemail, n
  FROM call_agg_pairs)`;

/** The filter's total from the aggregates, or null when they cannot answer it (count the calls). */
export function aggregateTotal(db: Db, workspaceId: string, filter: CallFilter): number | null {
  for (const [key, value] of Object.entries(filter))
    if (value !== undefined && !PAIR_FILTERS.has(key)) return null;
  if (!hasAggregates(db)) return null;
  const w = whereOf(workspaceId, filter);
  return (
    prepared<unknown[], number>(db, `SELECT coalesce(sum(c.n), 0) FROM ${PAIRS_AS_CALLS} c WHERE ${w.sql}`)
      .pluck()
      .get(...w.params) ?? 0
  );
}
