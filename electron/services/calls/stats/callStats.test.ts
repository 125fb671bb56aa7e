import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeOf } from '../../../../shared/domain/callOutcome.ts';
import { CHART_CAMPAIGNS, seedChartHistory } from '../chartHistory.ts';
import { openDatabase } from '../../db/openDatabase.ts';
import { tempDirs } from '../../db/testing.ts';
import { stats } from './callStats.queries.ts';

const dirs = tempDirs();
const CALLS = 100_000;
const FALLBACK = 'Europe/London';
let db: ReturnType<typeof openDatabase>;

beforeAll(() => {
  db = openDatabase(join(dirs.make(), 'c.sqlite'));
  seedChartHistory(db, CALLS);
}, 300_000);
afterAll(() => {
  db.close();
  dirs.cleanup();
});

interface Stored {
  bulk_list_id: string;
  to_number: string;
  status: string;
  sub_status: string | null;
  voicemail: number | null;
  attempt_ms: number | null;
}

/** Weekday (0 = Monday) and hour of an instant in a timezone, read from Intl directly. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function weekdayHour(ms: number, zone: string): [number, number] {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'short',
      hour: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, f);
  }
  const parts = f.formatToParts(new Date(ms));
  const day = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(
    parts.find((p) => p.type === 'weekday')!.value,
  );
  return [day, Number(parts.find((p) => p.type === 'hour')!.value)];
}

/** The heatmap and funnel recounted call by call from the stored rows (no SQL aggregation). */
function recount(rows: Stored[]) {
  const zoneOf = new Map(CHART_CAMPAIGNS.map((c) => [c.bulkListId, c.zone ?? FALLBACK]));
  const cells = new Map<string, { dialled: number; answered: number }>();
  const numbers = new Set<string>();
  const dialled = new Set<string>();
  const answered = new Set<string>();
  const completed = new Set<string>();
  for (const r of rows) {
    numbers.add(r.to_number);
    if (r.attempt_ms === null) continue;
    const o = outcomeOf(r.status, r.sub_status, r.voicemail === null ? null : r.voicemail === 1);
    const isAnswered = o === 'completed' || o === 'voicemail';
    dialled.add(r.to_number);
    if (isAnswered) answered.add(r.to_number);
    if (o === 'completed') completed.add(r.to_number);
    const [day, hour] = weekdayHour(r.attempt_ms, zoneOf.get(r.bulk_list_id)!);
    const key = `${day}-${hour}`;
    const c = cells.get(key) ?? { dialled: 0, answered: 0 };
    c.dialled++;
    if (isAnswered) c.answered++;
    cells.set(key, c);
  }
  return {
    funnel: {
      contacts: numbers.size,
      dialled: dialled.size,
      answered: answered.size,
      completed: completed.size,
    },
    cells: Object.fromEntries([...cells.entries()].sort()),
  };
}

const asCells = (s: ReturnType<typeof stats>) =>
  Object.fromEntries(
    s.heatmap.cells
      .map((c) => [`${c.weekday}-${c.hour}`, { dialled: c.dialled, answered: c.answered }] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  );

describe('charts over a seeded history of 100,000 calls in several timezones (real SQLite)', () => {
  const all = () =>
    db
      .prepare<[], Stored>(
        `SELECT bulk_list_id, to_number, status, sub_status, voicemail, attempt_ms FROM calls`,
      )
      .all();

  it('gives the heatmap (each call in its campaign timezone) and the funnel as an independent recount, overall', () => {
    const rows = all();
    expect(rows).toHaveLength(CALLS);
    const s = stats(db, { workspaceId: 'w1', filter: {}, timeZone: FALLBACK });
    const expected = recount(rows);
    expect(s.funnel).toEqual(expected.funnel);
    expect(asCells(s)).toEqual(expected.cells);
    expect(s.heatmap.timeZone).toBe(FALLBACK);
    expect(s.heatmap.campaignZones).toEqual(['America/New_York', 'Asia/Kathmandu', 'Asia/Kolkata']);
    // Never-dialled calls are left out of time, duration and rates.
    const dialled = rows.filter((r) => r.attempt_ms !== null).length;
    expect(s.dialled).toBe(dialled);
    expect(s.overTime.points.reduce((n, p) => n + p.calls, 0)).toBe(dialled);
    expect(s.outcomes.reduce((n, o) => n + o.count, 0)).toBe(CALLS);
  }, 120_000);

  it('gives each campaign its own heatmap and funnel as the recount of its calls', () => {
    const rows = all();
    for (const c of CHART_CAMPAIGNS) {
      const s = stats(db, { workspaceId: 'w1', filter: { bulkListId: c.bulkListId }, timeZone: FALLBACK });
      const expected = recount(rows.filter((r) => r.bulk_list_id === c.bulkListId));
      expect(s.funnel, c.bulkListId).toEqual(expected.funnel);
      expect(asCells(s), c.bulkListId).toEqual(expected.cells);
      expect(s.heatmap.campaignZones).toEqual(c.zone ? [c.zone] : []);
    }
  }, 120_000);
});
