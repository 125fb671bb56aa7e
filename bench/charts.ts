// npm run bench:charts — the Calls charts over a seeded history of 100,000 calls in four campaigns
// (three campaign timezones, one without a launch here) in a fresh SQLite file: the time of all
// charts' data (calls:stats: funnel, outcomes, over time, durations, cost, heatmap) and of the
// answer-rate heatmap's part alone, overall and for one campaign: median and longest of 7 runs after
// one warm-up, against the goal (≤ 300 ms each).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CHART_CAMPAIGNS, seedChartHistory } from '../electron/services/calls/chartHistory.ts';
import { openDatabase } from '../electron/services/db/openDatabase.ts';
import { attemptGroups, stats } from '../electron/services/calls/stats/callStats.queries.ts';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '100000' } } });
const calls = Number(values.calls);
const GOAL_MS = 300;
const RUNS = 7;

const dir = mkdtempSync(join(tmpdir(), 'bench-charts-'));
const db = openDatabase(join(dir, 'campaign-desk.sqlite'));
try {
  const t0 = performance.now();
  seedChartHistory(db, calls);
  console.log(`seeded ${calls.toLocaleString('en-US')} calls in ${Math.round(performance.now() - t0)} ms`);

  const time = (fn: () => unknown) => {
    fn(); // warm-up (statement cache, pages in memory)
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      fn();
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    return { median: ms[Math.floor(RUNS / 2)]!, max: ms[RUNS - 1]! };
  };
  const one = CHART_CAMPAIGNS[0]!.bulkListId;
  const cases: Array<[string, () => unknown]> = [
    ['charts (all calls)', () => stats(db, { workspaceId: 'w1', filter: {}, timeZone: 'Asia/Kolkata' })],
    [
      'heatmap (all calls)',
      () => attemptGroups(db, { workspaceId: 'w1', filter: {}, timeZone: 'Asia/Kolkata' }),
    ],
    [`charts (campaign ${one})`, () => stats(db, { workspaceId: 'w1', filter: { bulkListId: one } })],
    [
      `heatmap (campaign ${one})`,
      () => attemptGroups(db, { workspaceId: 'w1', filter: { bulkListId: one } }),
    ],
  ];
  for (const [name, fn] of cases) {
    const r = time(fn);
    console.log(
      `${name}: median ${r.median.toFixed(1)} ms, longest ${r.max.toFixed(1)} ms — goal ≤ ${GOAL_MS} ms: ${r.median <= GOAL_MS ? 'met' : 'NOT met'}`,
    );
  }
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
