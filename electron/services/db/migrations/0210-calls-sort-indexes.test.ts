import { afterEach, describe, expect, it } from 'vitest';
import type { CallSort } from '../../../../shared/ipc/channels/calls.ts';
import { sortSql } from '../../calls/search/order.ts';
import { migrate } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** The plan of the Calls table's page query (calls/search/plan.ts) for a list of one workspace. */
const planOf = (db: ReturnType<typeof freshDatabase>, sort: CallSort) =>
  db
    .prepare(
      `EXPLAIN QUERY PLAN SELECT c.seq FROM calls c WHERE c.workspace_id = ? ORDER BY ${sortSql(sort)} LIMIT ? OFFSET ?`,
    )
    .all('w1', 50, 0)
    .map((r) => (r as { detail: string }).detail)
    .join('; ');

describe('migration 0210 calls sort indexes', () => {
  it('reads a first page in each column’s first-click order from an index, never sorting the calls', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 200);
    expect(migrate(db, migrations, 210)).toBe(210);
    // Newest first and oldest first: the index in exactly the list's order.
    for (const dir of ['asc', 'desc'] as const)
      expect(planOf(db, { by: 'created_at', dir })).toBe(
        'SEARCH c USING COVERING INDEX calls_ws_created (workspace_id=?)',
      );
    // Each other column in its index's direction; only calls of one value and millisecond are
    // put in id order (the id is not in these indexes). The other direction: valueWalk.ts.
    const stored: Array<[CallSort, string]> = [
      [{ by: 'attempted_at', dir: 'desc' }, 'calls_sort_attempt'],
      [{ by: 'call_duration', dir: 'desc' }, 'calls_sort_duration'],
      [{ by: 'call_cost', dir: 'desc' }, 'calls_sort_cost'],
      [{ by: 'name', dir: 'asc' }, 'calls_sort_name'],
      [{ by: 'status', dir: 'asc' }, 'calls_ws_status'],
    ];
    for (const [sort, index] of stored)
      expect({ sort, plan: planOf(db, sort) }).toEqual({
        sort,
        plan: `SEARCH c USING INDEX ${index} (workspace_id=?); USE TEMP B-TREE FOR LAST TERM OF ORDER BY`,
      });
    const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index'`).pluck().all();
    expect(names).not.toContain('calls_ws_attempt');
    db.close();
  });

  it('measures the new indexes when the file’s indexes were measured, so SQLite keeps using the right ones', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 200);
    const insert = db.prepare(
      `INSERT INTO calls (id, workspace_id, status, terminal, created_at, created_ms, raw, first_seen_at, updated_at)
       VALUES (?, 'w1', ?, 1, 'n', ?, '{}', 'n', 'n')`,
    );
    for (let i = 0; i < 300; i++) insert.run(`c${i}`, i % 3 ? 'completed' : 'failed', i);
    db.exec('ANALYZE');
    migrate(db, migrations, 210);
    const measured = db.prepare(`SELECT idx FROM sqlite_stat1 WHERE tbl = 'calls'`).pluck().all();
    for (const index of [
      'calls_ws_created',
      'calls_sort_attempt',
      'calls_sort_duration',
      'calls_sort_cost',
      'calls_sort_name',
    ])
      expect(measured).toContain(index);
    // The status facet's count reads its covering index, not every call's row.
    const plan = db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT status, count(*) FROM calls WHERE workspace_id = 'w1' GROUP BY status`,
      )
      .all()
      .map((r) => (r as { detail: string }).detail)
      .join('; ');
    expect(plan).toContain('COVERING INDEX calls_ws_status');
    db.close();
  });
});
