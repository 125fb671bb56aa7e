// The aggregates' log of new shares: a batch of new calls (one run of seqs) read as a range, any
// other list looked up one by one; both log the same shares, on a real SQLite file.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callColumns } from '../sync/callRow.ts';
import { upsertCalls } from '../calls/store/upsertCalls.ts';
import type { CallRecord } from '../../../shared/service/history.ts';
import { consecutiveRun, logNewShares } from './callAggregates.ts';
import type { Db } from './define.ts';
import { openDatabase } from './openDatabase.ts';
import { tempDirs } from './testing.ts';

const dirs = tempDirs('desk-call-aggregates-');
afterEach(() => dirs.cleanup());

describe('consecutiveRun', () => {
  it('finds one ascending run of consecutive seqs', () => {
    expect(consecutiveRun([7])).toEqual({ first: 7, last: 7 });
    expect(consecutiveRun([3, 4, 5, 6])).toEqual({ first: 3, last: 6 });
  });

  it('refuses an empty list, a gap, a repeat and a descending or unordered list', () => {
    expect(consecutiveRun([])).toBeNull();
    expect(consecutiveRun([3, 4, 6])).toBeNull();
    expect(consecutiveRun([3, 4, 4, 5])).toBeNull();
    expect(consecutiveRun([6, 5, 4])).toBeNull();
    expect(consecutiveRun([4, 3, 5])).toBeNull();
  });
});

const call = (i: number): CallRecord =>
  ({
    id: `call-${i}`,
    status: i % 3 === 0 ? 'completed' : 'failed',
    created_at: new Date(Date.UTC(2026, 10, 1) + i * 3_600_000).toISOString(),
    to_number: `+1415555${String(i).padStart(4, '0')}`,
    call_duration: i % 4 === 0 ? null : i * 1.5,
    call_cost: i % 5,
    ...(i % 2 === 0 ? { name: `Name ${i}`, agent: { id: `a${i % 3}`, agent_name: 'Agent' } } : {}),
  }) as CallRecord;

const logged = (db: Db) =>
  db.prepare(`SELECT * FROM call_agg_log ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`).raw().all();

describe('logNewShares', () => {
  it('logs a run of seqs as a range the same shares as the same seqs one by one', () => {
    const db = openDatabase(join(dirs.make(), 'campaign-desk.sqlite'));
    try {
      upsertCalls(db, {
        workspaceId: 'w1',
        bulkListId: null,
        rows: Array.from({ length: 40 }, (_, i) => callColumns(call(i))),
        nowIso: '2026-12-01T00:00:00.000Z',
      });
      const seqs = db.prepare(`SELECT seq FROM calls ORDER BY seq`).pluck().all() as number[];
      const run = seqs.slice(5, 30);
      expect(consecutiveRun(run)).not.toBeNull();
      db.exec('BEGIN');
      logNewShares(db, run);
      const asRange = logged(db);
      db.exec('ROLLBACK; BEGIN');
      // The same seqs, not in order: looked up one by one.
      logNewShares(db, [...run].reverse());
      const oneByOne = logged(db);
      db.exec('ROLLBACK');
      expect(asRange).toHaveLength(25);
      expect(oneByOne).toEqual(asRange);
    } finally {
      db.close();
    }
  });
});
