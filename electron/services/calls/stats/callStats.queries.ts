// The Calls screen's charts counted in SQL: from the aggregates for all calls or one campaign
// (callStatsAggregated.ts), from the calls themselves under any other filter.
import type { CallFilter, CallStats } from '../../../../shared/ipc/channels/calls.ts';
import type { Db } from '../../db/define.ts';
import { prepared, read } from '../../db/define.ts';
import { QUARTER_MS } from '../../db/callAggregates.ts';
import { fromClause, whereOf } from '../search/filter.ts';
import { CALL_OUTCOME } from '../store/callsTable.ts';
import { aggregatedAttemptGroups, aggregatedStats } from './callStatsAggregated.ts';
import { binWidth, campaignZonesCte, launchedListRows, placeAttemptGroups } from './chartGroups.ts';
import type { AttemptGroup } from './chartGroups.ts';
import { statusTally } from './statsResult.ts';

/**
 * Chart data of the filtered calls, all aggregated in SQL: never-dialled calls count in the status
 * and outcome totals only (no time, duration or rate). One pass groups the dialled calls by
 * campaign timezone, quarter hour of their attempt and outcome; the time series and the weekday ×
 * hour heatmap (in each call's campaign timezone) are read from those groups.
 */
export function stats(db: Db, a: { workspaceId: string; filter: CallFilter; timeZone?: string }): CallStats {
  // All calls or one campaign's: from the aggregates (callAggregates.ts); other filters count calls.
  return aggregatedStats(db, a) ?? statsFromCalls(db, a);
}

/** `stats` counted from the calls themselves (any filter; the aggregates' reference in tests). */
export function statsFromCalls(
  db: Db,
  a: { workspaceId: string; filter: CallFilter; timeZone?: string },
): CallStats {
  const w = whereOf(a.workspaceId, a.filter);
  const from = fromClause(w);
  const all = <R>(sql: string, ...extra: unknown[]) =>
    prepared<unknown[], R>(db, sql).all(...extra, ...from.params);
  const answered = ANSWERED;
  const filtered = filteredCte(from);

  // One pass for the outcome, status and sub-status counts: grouped by what decides the outcome,
  // which the outcome table (the same one the SQL is made from) gives each group.
  const pairs = all<{ status: string; sub: string | null; vm: number | null; n: number; dialled: number }>(
    `SELECT c.status AS status, c.sub_status AS sub, c.voicemail AS vm, count(*) AS n, count(c.attempt_ms) AS dialled
     ${from.sql} GROUP BY c.status, c.sub_status, c.voicemail`,
  );
  const tally = statusTally();
  for (const p of pairs) tally.add(p.status, p.sub, p.vm === null ? null : p.vm === 1, p.n, p.dialled);

  const totals = prepared<
    unknown[],
    {
      cost: number | null;
      avgCost: number | null;
      maxCost: number | null;
      talk: number | null;
      avgTalk: number | null;
      maxTalk: number | null;
      answered: number;
      completed: number;
      vm: number | null;
      numbers: number;
      dialledNumbers: number;
      answeredNumbers: number;
      completedNumbers: number;
    }
  >(
    db,
    `WITH ${filtered} SELECT sum(call_cost) AS cost, avg(call_cost) AS avgCost, max(call_cost) AS maxCost,
       sum(CASE WHEN ${answered} THEN call_duration END) AS talk,
       avg(CASE WHEN ${answered} THEN call_duration END) AS avgTalk,
       max(CASE WHEN ${answered} THEN call_duration END) AS maxTalk,
       coalesce(sum(${answered}), 0) AS answered, coalesce(sum(o = 'completed'), 0) AS completed,
       sum(voicemail) AS vm,
       count(DISTINCT to_number) AS numbers,
       count(DISTINCT CASE WHEN attempt_ms IS NOT NULL THEN to_number END) AS dialledNumbers,
       count(DISTINCT CASE WHEN attempt_ms IS NOT NULL AND ${answered} THEN to_number END) AS answeredNumbers,
       count(DISTINCT CASE WHEN attempt_ms IS NOT NULL AND o = 'completed' THEN to_number END) AS completedNumbers
     FROM f`,
  ).get(...from.params)!;

  const listRows =
    a.filter.bulkListId === undefined ? null : launchedListRows(db, a.workspaceId, a.filter.bulkListId);

  const { overTime, heatmap } = attemptGroupsFromCalls(db, a, from, filtered, answered);
  const width = binWidth(totals.maxTalk ?? 0);
  return tally.result({
    funnel: {
      contacts: Math.max(listRows ?? 0, totals.numbers),
      dialled: totals.dialledNumbers,
      answered: totals.answeredNumbers,
      completed: totals.completedNumbers,
    },
    overTime,
    // The width is bound after the filter's parameters: its "?" comes after those of `f`.
    duration: prepared<unknown[], { bin: number; count: number }>(
      db,
      `WITH ${filtered} SELECT CAST(call_duration / ? AS INTEGER) AS bin, count(*) AS count FROM f
       WHERE attempt_ms IS NOT NULL AND ${answered} AND call_duration IS NOT NULL GROUP BY bin ORDER BY bin`,
    )
      .all(...from.params, width)
      .map((r) => ({ from: r.bin * width, to: (r.bin + 1) * width, count: r.count })),
    cost: {
      total: totals.cost ?? 0,
      average: totals.avgCost,
      max: totals.maxCost,
      perCompleted: totals.completed > 0 ? (totals.cost ?? 0) / totals.completed : null,
    },
    durationSeconds: { total: totals.talk ?? 0, average: totals.avgTalk, answered: totals.answered },
    voicemail: totals.vm ?? 0,
    heatmap,
  });
}

/** The stats' filter as the common table `f` (each call's outcome `o` computed once). */
const filteredCte = (from: { sql: string }) =>
  `f AS (SELECT c.to_number, c.bulk_list_id, c.attempt_ms, c.call_duration, c.call_cost,
      c.voicemail, ${CALL_OUTCOME} AS o ${from.sql})`;
const ANSWERED = `o IN ('completed', 'voicemail')`;

/**
 * Dialled calls grouped in SQL by (campaign timezone, quarter hour of the attempt): the time
 * series (UTC hours or days) and the weekday × hour heatmap, each group placed in its campaign's
 * timezone (a quarter hour lies in one local hour in every zone).
 */
export function attemptGroups(
  db: Db,
  a: { workspaceId: string; filter: CallFilter; timeZone?: string },
): Pick<CallStats, 'overTime' | 'heatmap'> {
  return aggregatedAttemptGroups(db, a) ?? attemptGroupsFromCalls(db, a);
}

/** `attemptGroups` counted from the calls themselves (any filter). */
export function attemptGroupsFromCalls(
  db: Db,
  a: { workspaceId: string; filter: CallFilter; timeZone?: string },
  from = fromClause(whereOf(a.workspaceId, a.filter)),
  filtered = filteredCte(from),
  answered = ANSWERED,
): Pick<CallStats, 'overTime' | 'heatmap'> {
  const groups = prepared<unknown[], AttemptGroup>(
    db,
    `WITH ${campaignZonesCte}, ${filtered}
     SELECT z.zone AS zone, f.attempt_ms / ${QUARTER_MS} AS q, count(*) AS n, sum(${answered}) AS answered,
       sum(o = 'completed') AS completed, coalesce(sum(call_cost), 0) AS cost
     FROM f LEFT JOIN zones z ON z.bulk_list_id = f.bulk_list_id
     WHERE f.attempt_ms IS NOT NULL GROUP BY z.zone, q`,
  )
    .raw()
    .all({ ws: a.workspaceId }, ...from.params) as unknown as AttemptGroup[];

  return placeAttemptGroups(groups, a.timeZone);
}

export const callStatsQueries = {
  'calls.stats': read(stats),
};
