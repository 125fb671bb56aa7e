// The charts' shared parts, whatever they are read from (every call, or the aggregates of
// db/callAggregates.ts): the histogram's bin width, campaign timezones, and the dialled calls' groups
// per quarter hour placed in time (UTC hours or days) and in the weekday × hour heatmap of each
// group's campaign timezone.
import type { CallStats } from '../../../../shared/ipc/channels/calls.ts';
import { zoneOffsetMinutes } from '../../../../shared/domain/dates.ts';
import { QUARTER_MS } from '../../db/callAggregates.ts';
import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';

/** A round bin width giving about `bins` bins up to `max`. */
export function binWidth(max: number, bins = 20): number {
  if (!(max > 0)) return 1;
  const raw = max / bins;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * pow >= raw) ?? 10;
  return step * pow;
}

/**
 * A zone's offset (ms) at an instant. Intl is the slow part (~20 µs a question: asked per UTC hour,
 * 60 days of three zones took ~70 ms), so it is asked at the start of each UTC day and of the
 * next: when both agree the whole day has that offset (no zone changes its offset twice within a
 * day), else each hour of that day is asked (offsets change on UTC hour boundaries in every zone
 * this app meets, within a quarter hour in any).
 */
function zoneOffsets() {
  const DAY = 86_400_000;
  const HOUR = 3_600_000;
  const byZone = new Map<string, { at: Map<number, number>; days: Map<number, number | null> }>();
  return (zone: string, ms: number): number => {
    let z = byZone.get(zone);
    if (!z) byZone.set(zone, (z = { at: new Map(), days: new Map() }));
    const { at, days } = z;
    const ask = (instant: number): number => {
      let offset = at.get(instant);
      if (offset === undefined) at.set(instant, (offset = zoneOffsetMinutes(instant, zone) * 60_000));
      return offset;
    };
    const day = Math.floor(ms / DAY);
    let whole = days.get(day);
    if (whole === undefined) {
      const start = ask(day * DAY);
      whole = start === ask((day + 1) * DAY) ? start : null;
      days.set(day, whole);
    }
    return whole ?? ask(Math.floor(ms / HOUR) * HOUR);
  };
}

/** Quarter hours (the aggregates' slots, callAggregates.ts): each lies in one local hour in every zone. */
export { QUARTER_MS };

/** The IANA zone, or null when this runtime does not know it. */
const knownZone = (zone: string | null | undefined): string | null => {
  if (!zone) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return null;
  }
};

/**
 * Campaign timezones from the local launch records (`call_time.timezone` of the request sent), by
 * the id calls are linked with.
 */
export const campaignZonesCte = `zones AS (
  SELECT service_id AS bulk_list_id, max(json_extract(settings, '$.callConfig.call_time.timezone')) AS zone
  FROM campaign_launches WHERE workspace_id = @ws AND service_id IS NOT NULL GROUP BY service_id)`;

/**
 * Dialled calls of one campaign timezone (null: none known) in one quarter hour of their attempt
 * (attempt_ms / QUARTER_MS, SQL's integer division): [zone, quarter, calls, answered, completed,
 * cost], as a raw SQL row (tens of thousands of them: no object per row).
 */
export type AttemptGroup = readonly [
  zone: string | null,
  q: number,
  n: number,
  answered: number,
  completed: number,
  cost: number,
];

/**
 * The time series (UTC hours, or days past three days) and the weekday × hour heatmap, each group
 * in its campaign's timezone (a quarter hour lies in one local hour in every zone), `timeZone`
 * (else UTC) for groups without one. Groups may repeat a (zone, quarter): they add up.
 */
export function placeAttemptGroups(
  groups: readonly AttemptGroup[],
  timeZone: string | undefined,
): Pick<CallStats, 'overTime' | 'heatmap'> {
  const fallbackZone = knownZone(timeZone) ?? 'UTC';
  const offsetAt = zoneOffsets();
  let minQ = Infinity;
  let maxQ = -Infinity;
  for (const g of groups) {
    if (g[1] < minQ) minQ = g[1];
    if (g[1] > maxQ) maxQ = g[1];
  }
  const span = groups.length === 0 ? 0 : (maxQ - minQ) * QUARTER_MS;
  const bucket = span <= 3 * 86_400_000 ? 'hour' : 'day';
  const per = bucket === 'hour' ? 4 : 96;
  // Tens of thousands of groups: sums in flat arrays (bucket − first bucket; weekday × 24 + hour).
  const first = groups.length === 0 ? 0 : Math.floor(minQ / per);
  const buckets = groups.length === 0 ? 0 : Math.floor(maxQ / per) - first + 1;
  const calls = new Float64Array(buckets);
  const answered = new Float64Array(buckets);
  const completed = new Float64Array(buckets);
  const cost = new Float64Array(buckets);
  const dialledAt = new Float64Array(7 * 24);
  const answeredAt = new Float64Array(7 * 24);
  const zones = new Set<string>();
  const zoneOf = new Map<string | null, string>();
  for (const [groupZone, q, n, groupAnswered, groupCompleted, groupCost] of groups) {
    const b = Math.floor(q / per) - first;
    calls[b]! += n;
    answered[b]! += groupAnswered;
    completed[b]! += groupCompleted;
    cost[b]! += groupCost;
    let zone = zoneOf.get(groupZone);
    if (zone === undefined) {
      zone = knownZone(groupZone) ?? fallbackZone;
      zoneOf.set(groupZone, zone);
      if (zone !== fallbackZone) zones.add(zone);
    }
    const local = q * QUARTER_MS + offsetAt(zone, q * QUARTER_MS);
    const weekday = (Math.floor(local / 86_400_000) + 3) % 7; // 1 Jan 1970 was a Thursday: Monday = 0
    const key = weekday * 24 + (Math.floor(local / 3_600_000) % 24);
    dialledAt[key]! += n;
    answeredAt[key]! += groupAnswered;
  }
  // Every group holds at least one call: a bucket or cell with none had no group.
  const points: CallStats['overTime']['points'] = [];
  for (let b = 0; b < buckets; b++)
    if (calls[b]! > 0)
      points.push({
        at: new Date((first + b) * per * QUARTER_MS).toISOString(),
        calls: calls[b]!,
        answered: answered[b]!,
        completed: completed[b]!,
        cost: cost[b]!,
      });
  const cells: CallStats['heatmap']['cells'] = [];
  for (let k = 0; k < 7 * 24; k++)
    if (dialledAt[k]! > 0)
      cells.push({
        weekday: Math.floor(k / 24),
        hour: k % 24,
        dialled: dialledAt[k]!,
        answered: answeredAt[k]!,
      });
  return {
    overTime: { bucket, points },
    heatmap: { timeZone: fallbackZone, campaignZones: [...zones].sort(), cells },
  };
}

/**
 * The funnel's contacts of a campaign launched from a list here: the list's uploaded rows (valid,
 * not excluded); null when no list of this computer was launched as it.
 */
export const launchedListRows = (db: Db, workspaceId: string, bulkListId: string): number | null =>
  prepared<[string, string], number | null>(
    db,
    `SELECT count(*) FROM campaign_lists cl JOIN contacts k ON k.list_id = cl.list_id AND k.bucket = 0
       AND k.excluded = 0 WHERE cl.workspace_id = ? AND cl.bulk_list_id = ?`,
  )
    .pluck()
    .get(workspaceId, bulkListId) ?? null;
