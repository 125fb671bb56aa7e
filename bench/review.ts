// npm run bench:review — the Calls table's review filters over a seeded history of 100,000 calls
// (four campaigns) with 2,000 review marks, in a fresh SQLite file: a first page (50 rows, newest
// first, with its total) per filter, and one campaign's QA report rows; median and longest of 7
// runs after one warm-up, beside the same page with no review filter.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CallFilter } from '../shared/ipc/channels/calls.ts';
import { CHART_CAMPAIGNS, seedChartHistory } from '../electron/services/calls/chartHistory.ts';
import { openDatabase } from '../electron/services/db/openDatabase.ts';
import { callReviewQueries, setMark } from '../electron/services/review/callReviews.queries.ts';
import { listCalls } from '../electron/services/calls/search/search.queries.ts';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '100000' }, marks: { type: 'string', default: '2000' } },
});
const calls = Number(values.calls);
const marks = Number(values.marks);
const RUNS = 7;

const dir = mkdtempSync(join(tmpdir(), 'bench-review-'));
const db = openDatabase(join(dir, 'campaign-desk.sqlite'));
try {
  const t0 = performance.now();
  seedChartHistory(db, calls);
  // Every (calls / marks)-th call reviewed; one in four of those flagged, one in three with a note.
  const step = Math.max(1, Math.floor(calls / marks));
  for (let i = 0, n = 0; i < calls && n < marks; i += step, n++)
    setMark(db, {
      workspaceId: 'w1',
      callId: `chart-${i}`,
      by: 'bench',
      now: '2026-12-01T00:00:00.000Z',
      reviewed: true,
      ...(n % 4 === 0 ? { flagReasonId: 1 + (n % 6) } : {}),
      ...(n % 3 === 0 ? { note: `note ${n}` } : {}),
    });
  console.log(
    `seeded ${calls.toLocaleString('en-US')} calls and ${marks.toLocaleString('en-US')} marks in ${Math.round(performance.now() - t0)} ms`,
  );

  const time = (fn: () => unknown) => {
    fn();
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
  const page = (filter: CallFilter) => () =>
    listCalls(db, { workspaceId: 'w1', filter, offset: 0, limit: 50 });
  const cases: Array<[string, () => unknown]> = [
    ['page, no filter', page({})],
    ['page, reviewed', page({ review: 'reviewed' })],
    ['page, not reviewed', page({ review: 'unreviewed' })],
    ['page, flagged', page({ review: 'flagged' })],
    ['page, flag reason', page({ flagReasons: [1] })],
    [`page, campaign ${one}`, page({ bulkListId: one })],
    [`page, campaign ${one} not reviewed (the queue)`, page({ bulkListId: one, review: 'unreviewed' })],
    ['page, status completed + not reviewed', page({ statuses: ['completed'], review: 'unreviewed' })],
    [
      `QA report rows (campaign ${one})`,
      () => {
        const it = callReviewQueries['reviews.report'].open(db, { workspaceId: 'w1', bulkListId: one });
        let rows = 0;
        for (let r = it.next(); !r.done; r = it.next()) rows += r.value.length;
        return rows;
      },
    ],
  ];
  for (const [name, fn] of cases) {
    const r = time(fn);
    console.log(`${name}: median ${r.median.toFixed(1)} ms, longest ${r.max.toFixed(1)} ms`);
  }
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
