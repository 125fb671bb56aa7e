// The charts of all calls or of one campaign, read from the aggregates the triggers of
// callAggregates.ts keep (a few thousand rows, plus one per number for the funnel) instead of
// every call: the same answer as `statsFromCalls` (callStats.ts), which any other filter still uses.
import type { CallOutcome } from '../../../../shared/domain/callOutcome.ts';
import type { CallFilter, CallStats } from '../../../../shared/ipc/channels/calls.ts';
import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';
import { binWidth, campaignZonesCte, launchedListRows, placeAttemptGroups } from './chartGroups.ts';
import type { AttemptGroup } from './chartGroups.ts';
import { statusTally } from './statsResult.ts';

interface Args {
  workspaceId: string;
  filter: CallFilter;
  timeZone?: string;
}

/** What the aggregates can answer: all calls (bulk null) or one campaign's; null for any other filter. */
export function aggregateScope(filter: CallFilter): { bulk: string | null } | null {
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    if (key === 'bulkListId' && typeof value === 'string' && value !== '') continue;
    return null;
  }
  return { bulk: filter.bulkListId ?? null };
}

/**
 * The aggregates exist in this file (migration 0200 applied: asked once per connection) and hold
 * every call (nothing waits in their log: a writer other than the sync's page left it unfolded).
 */
const present = new WeakMap<Db, boolean>();
export function hasAggregates(db: Db): boolean {
  let known = present.get(db);
  if (known === undefined) {
    known =
      db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'call_agg_state'`).get() !==
      undefined;
    present.set(db, known);
  }
  return known && prepared(db, `SELECT 1 FROM call_agg_log LIMIT 1`).get() === undefined;
}

const MICRO = 1_000_000;
const ANSWERED: ReadonlySet<CallOutcome> = new Set(['completed', 'voicemail']);

/** Rows of a table in the scope: the workspace's, and the campaign's when one is chosen. */
const inScope = (bulk: string | null, alias = '') =>
  `${alias}workspace_id = @ws${bulk === null ? '' : ` AND ${alias}bulk_key = @bulk`}`;
const params = (a: Args, bulk: string | null) =>
  bulk === null ? { ws: a.workspaceId } : { ws: a.workspaceId, bulk };

/** `attemptGroups` from the quarter-hour aggregates, or null when they cannot answer this filter. */
export function aggregatedAttemptGroups(db: Db, a: Args): Pick<CallStats, 'overTime' | 'heatmap'> | null {
  const scope = aggregateScope(a.filter);
  if (scope === null || !hasAggregates(db)) return null;
  const groups = prepared<object, AttemptGroup>(
    db,
    `WITH ${campaignZonesCte}
     SELECT z.zone, s.q, s.n, s.answered, s.completed, s.cost_micro / ${MICRO}.0
     FROM call_agg_slots s LEFT JOIN zones z ON z.bulk_list_id = s.bulk_key
     WHERE ${inScope(scope.bulk, 's.')} AND s.n > 0`,
  )
    .raw()
    .all(params(a, scope.bulk)) as unknown as AttemptGroup[];
  return placeAttemptGroups(groups, a.timeZone);
}

/** `stats` from the aggregates, or null when they cannot answer this filter. */
export function aggregatedStats(db: Db, a: Args): CallStats | null {
  const scope = aggregateScope(a.filter);
  if (scope === null || !hasAggregates(db)) return null;
  const p = params(a, scope.bulk);

  // Status pairs: outcome, status and sub-status counts and the totals that follow from them.
  const pairs = prepared<
    object,
    { status: string; sub: string; vm: number; n: number; dialled: number; costN: number; costMicro: number }
  >(
    db,
    `SELECT status, sub_key AS sub, vm_key AS vm, sum(n) AS n, sum(dialled) AS dialled, sum(cost_n) AS costN,
       sum(cost_micro) AS costMicro
     FROM call_agg_pairs WHERE ${inScope(scope.bulk)} GROUP BY status, sub_key, vm_key HAVING sum(n) > 0`,
  ).all(p);
  const tally = statusTally();
  let answered = 0;
  let completed = 0;
  let voicemail = 0;
  let costN = 0;
  let costMicro = 0;
  for (const r of pairs) {
    const vm = r.vm === -1 ? null : r.vm === 1;
    const o = tally.add(r.status, r.sub === 'n' ? null : r.sub.slice(1), vm, r.n, r.dialled);
    if (ANSWERED.has(o)) answered += r.n;
    if (o === 'completed') completed += r.n;
    if (vm === true) voicemail += r.n;
    costN += r.costN;
    costMicro += r.costMicro;
  }

  // Talk time of answered calls (dialled or not) and costs: sums, counts and maxima per kind.
  const values = new Map(
    prepared<object, { kind: string; max: number; total: number; n: number }>(
      db,
      `SELECT kind, max(value) AS max, sum(value * n) AS total, sum(n) AS n
       FROM call_agg_values WHERE ${inScope(scope.bulk)} AND n > 0 GROUP BY kind`,
    )
      .all(p)
      .map((r) => [r.kind, r]),
  );
  const talkParts = [values.get('talk'), values.get('talk_undialled')].filter((v) => v !== undefined);
  const talkN = talkParts.reduce((n, v) => n + v.n, 0);
  const talk = talkParts.reduce((n, v) => n + v.total, 0);
  const maxTalk = talkParts.reduce<number | null>((m, v) => (m === null || v.max > m ? v.max : m), null);
  const width = binWidth(maxTalk ?? 0);
  const duration = prepared<object, { bin: number; count: number }>(
    db,
    `SELECT CAST(value / @width AS INTEGER) AS bin, sum(n) AS count FROM call_agg_values
     WHERE ${inScope(scope.bulk)} AND kind = 'talk' AND n > 0 GROUP BY bin ORDER BY bin`,
  ).all({ ...p, width });

  // The funnel: distinct numbers called, dialled, answered, completed.
  const numbers = prepared<object, { numbers: number; dialled: number; answered: number; completed: number }>(
    db,
    `SELECT count(*) AS numbers, coalesce(sum(dialled > 0), 0) AS dialled, coalesce(sum(answered > 0), 0) AS answered,
       coalesce(sum(completed > 0), 0) AS completed
     FROM call_agg_numbers WHERE workspace_id = @ws AND scope = @scope AND bulk_key = @key AND calls > 0`,
  ).get({
    ws: a.workspaceId,
    scope: scope.bulk === null ? 'workspace' : 'campaign',
    key: scope.bulk ?? '',
  })!;
  const listRows = scope.bulk === null ? null : launchedListRows(db, a.workspaceId, scope.bulk);

  const cost = costMicro / MICRO;
  const { overTime, heatmap } = aggregatedAttemptGroups(db, a)!;
  return tally.result({
    funnel: {
      contacts: Math.max(listRows ?? 0, numbers.numbers),
      dialled: numbers.dialled,
      answered: numbers.answered,
      completed: numbers.completed,
    },
    overTime,
    duration: duration.map((r) => ({ from: r.bin * width, to: (r.bin + 1) * width, count: r.count })),
    cost: {
      total: cost,
      average: costN > 0 ? cost / costN : null,
      max: values.get('cost')?.max ?? null,
      perCompleted: completed > 0 ? cost / completed : null,
    },
    durationSeconds: { total: talk, average: talkN > 0 ? talk / talkN : null, answered },
    voicemail,
    heatmap,
  });
}
