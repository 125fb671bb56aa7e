// The charts' status counts and result, whatever the counts are read from (every call, or the
// aggregates): status pairs tallied into outcome, status and sub-status counts.
import { CALL_OUTCOMES, outcomeOf } from '../../../../shared/domain/callOutcome.ts';
import type { CallOutcome } from '../../../../shared/domain/callOutcome.ts';
import type { CallStats } from '../../../../shared/ipc/channels/calls.ts';

/** What the status pairs decide; the rest of the charts comes from elsewhere. */
export type ChartsBesidesCounts = Omit<
  CallStats,
  'total' | 'dialled' | 'byStatus' | 'bySubStatus' | 'outcomes'
>;

const byCount = <K extends string>(m: Map<string, number>, key: K) =>
  [...m.entries()]
    .sort((x, y) => y[1] - x[1])
    .map(([value, count]) => ({ [key]: value, count }) as Record<K, string> & { count: number });

/**
 * Status pairs (status × sub-status × voicemail, with their calls and dialled calls) added up:
 * `add` answers the pair's outcome (the outcome table), `result` the charts with these counts.
 */
export function statusTally() {
  const outcomeCount = new Map<CallOutcome, number>();
  const statusCount = new Map<string, number>();
  const subCount = new Map<string, number>();
  let total = 0;
  let dialled = 0;
  return {
    add(status: string, sub: string | null, vm: boolean | null, n: number, dialledN: number): CallOutcome {
      const o = outcomeOf(status, sub, vm);
      outcomeCount.set(o, (outcomeCount.get(o) ?? 0) + n);
      statusCount.set(status, (statusCount.get(status) ?? 0) + n);
      subCount.set(sub ?? '(none)', (subCount.get(sub ?? '(none)') ?? 0) + n);
      total += n;
      dialled += dialledN;
      return o;
    },
    result(rest: ChartsBesidesCounts): CallStats {
      return {
        total,
        dialled,
        byStatus: byCount(statusCount, 'status'),
        bySubStatus: byCount(subCount, 'subStatus'),
        outcomes: CALL_OUTCOMES.filter((o) => (outcomeCount.get(o) ?? 0) > 0).map((o) => ({
          outcome: o,
          count: outcomeCount.get(o)!,
        })),
        ...rest,
      };
    },
  };
}
