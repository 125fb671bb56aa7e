import { afterEach, describe, expect, it } from 'vitest';
import { callColumns } from '../../sync/callRow.ts';
import { foldCallAggregates } from '../callAggregates.ts';
import { migrate } from '../migrate.ts';
import { upsertCalls } from '../../calls/store/upsertCalls.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('migration 0200 call aggregates', () => {
  it('counts the calls already stored; the sync counts the ones it stores and a delete is taken back', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 150);
    const insert = db.prepare(
      `INSERT INTO calls (id, workspace_id, bulk_list_id, to_number, status, sub_status, terminal, created_at, created_ms,
         attempt_ms, call_duration, call_cost, voicemail, raw, first_seen_at, updated_at)
       VALUES (?, 'w1', ?, ?, ?, ?, 1, 'n', 1, ?, ?, ?, ?, '{}', 'n', 'n')`,
    );
    insert.run('a', 'bl-1', '+919812345678', 'completed', null, 1_800_000, 30, 1.25, 0);
    insert.run('b', 'bl-1', '+919812345678', 'failed', 'USER_DID_NOT_JOIN', 1_900_000, 0, 0.5, null);
    insert.run('c', null, '+919812345679', 'registered', 'QUEUED', null, null, null, null);
    expect(migrate(db, migrations, 200)).toBe(200);
    const pairs = () =>
      db
        .prepare(
          `SELECT bulk_key, status, sub_key, vm_key, n, dialled, cost_n, cost_micro FROM call_agg_pairs ORDER BY 1, 2`,
        )
        .raw()
        .all();
    expect(pairs()).toEqual([
      ['', 'registered', 'sQUEUED', -1, 1, 0, 0, 0],
      ['bl-1', 'completed', 'n', 0, 1, 1, 1, 1_250_000],
      ['bl-1', 'failed', 'sUSER_DID_NOT_JOIN', -1, 1, 1, 1, 500_000],
    ]);
    // Two calls of one number in bl-1: one number, dialled, answered and completed once.
    expect(
      db
        .prepare(
          `SELECT scope, bulk_key, to_number, calls, dialled, answered, completed FROM call_agg_numbers ORDER BY 1, 2, 3`,
        )
        .raw()
        .all(),
    ).toEqual([
      ['campaign', '', '+919812345679', 1, 0, 0, 0],
      ['campaign', 'bl-1', '+919812345678', 2, 2, 1, 1],
      ['workspace', '', '+919812345678', 2, 2, 1, 1],
      ['workspace', '', '+919812345679', 1, 0, 0, 0],
    ]);
    expect(
      db.prepare(`SELECT q, n, answered, completed, cost_micro FROM call_agg_slots`).raw().all(),
    ).toEqual([[2, 2, 1, 1, 1_750_000]]);
    // Calls stored since (the sync's page) are counted as they are stored.
    upsertCalls(db, {
      workspaceId: 'w1',
      bulkListId: 'bl-1',
      rows: [
        callColumns({
          id: 'd',
          to_number: '+919812345670',
          status: 'completed',
          sub_status: 'VOICEMAIL_DETECTED',
          created_at: '1970-01-01T00:00:00.000Z',
          call_attempt_time: new Date(1_800_001).toISOString(),
          call_duration: 5,
          call_cost: 0.1,
        }),
      ],
      nowIso: 'n',
    });
    expect(db.prepare(`SELECT n, answered, completed FROM call_agg_slots WHERE q = 2`).raw().get()).toEqual([
      3, 2, 1,
    ]);
    // A call deleted (nothing in the app does) is taken back by its trigger, through the log.
    db.prepare(`DELETE FROM calls WHERE id = 'a'`).run();
    db.transaction(() => foldCallAggregates(db))();
    expect(db.prepare(`SELECT n, answered, completed FROM call_agg_slots WHERE q = 2`).raw().get()).toEqual([
      2, 1, 0,
    ]);
  });
});
