// Far windows of the Calls table found from the rank counts (rankCounts.ts, db/callRanks.ts) on a
// real SQLite file: after a sync and a re-sync that changes statuses, agents, durations, costs and
// names, the counts equal a recount from the calls, and every window, in every order and both
// directions, from the first to past the end, holds exactly the calls SQLite's own ORDER BY gives
// there (more calls than a window, ties of value and of time across hours and days, nulls last,
// names in any case); the agents' list counts as the calls do.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CALL_SORT_KEYS } from '../../../../shared/ipc/channels/calls.ts';
import type { CallSort } from '../../../../shared/ipc/channels/calls.ts';
import type { CallRecord } from '../../../../shared/service/history.ts';
import { recountAggregates } from '../../db/callAggregates.ts';
import type { Db } from '../../db/define.ts';
import { openDatabase } from '../../db/openDatabase.ts';
import { tempDirs } from '../../db/testing.ts';
import { callColumns } from '../../sync/callRow.ts';
import { upsertCalls } from '../store/upsertCalls.ts';
import { whereOf } from './filter.ts';
import { sortSql } from './order.ts';
import { agentTotal, hasRankCounts, pageByHour } from './rankCounts.ts';
import { callSearchQueries } from './search.queries.ts';
import { pageByValueWalk } from './valueWalk.ts';

const dirs = tempDirs('desk-rank-counts-');
afterEach(() => dirs.cleanup());

const NAMES = [
  'Asha',
  'asha',
  'ASHA',
  'Asif',
  'A',
  'a',
  '',
  'Ravi',
  'Zoe',
  'zed',
  'ælfred',
  null,
  'Vikram Iyer',
  'VIKRAM IVY',
  'Vikram Patel',
];
const STATUSES = ['completed', 'failed', 'registered', 'error'] as const;
const AGENTS = ['a1', 'a2', 'a3', null];
const CALLS = 900;
const START = Date.UTC(2026, 10, 1, 22, 30);

/** Call `i` of a workspace, `v` its version (a re-sync changes its status, agent, values, name). */
function call(ws: string, i: number, v: number): CallRecord {
  const k = i + v * 7;
  const status = STATUSES[(k * 7) % STATUSES.length]!;
  const name = NAMES[(k * 5) % NAMES.length];
  const agent = AGENTS[k % AGENTS.length];
  const at = (m: number) => new Date(START + m * 60_000).toISOString();
  return {
    id: `${ws}-call-${String((i * 7919) % 10007).padStart(5, '0')}`,
    status,
    // Three calls a minute (ties of time, ordered by id), 13 minutes apart: across hours and days.
    created_at: at((i % 300) * 13),
    ...(name === null ? {} : { name }),
    ...(agent === null ? {} : { agent: { id: agent, agent_name: `Agent ${agent}` } }),
    ...(status === 'registered' ? {} : { call_attempt_time: at(((i * 3) % 400) * 11) }),
    // Whole values (0 s, 1 credit: long ties), fractions, nulls.
    ...(k % 7 === 0 ? {} : { call_duration: k % 5 === 0 ? 0 : (k % 40) + (k % 3) * 0.25 }),
    ...(k % 11 === 0 ? {} : { call_cost: k % 4 === 0 ? 0.5 : k % 3 }),
  } as CallRecord;
}

function store(db: Db, ws: string, calls: CallRecord[]) {
  upsertCalls(db, {
    workspaceId: ws,
    bulkListId: null,
    rows: calls.map(callColumns),
    nowIso: '2026-12-01T00:00:00.000Z',
  });
}

/** 900 calls in w1 (and 40 in w2), then a re-sync changing every third one of w1. */
function seeded() {
  const db = openDatabase(join(dirs.make(), 'campaign-desk.sqlite'));
  store(
    db,
    'w1',
    Array.from({ length: CALLS }, (_, i) => call('w1', i, 0)),
  );
  store(
    db,
    'w2',
    Array.from({ length: 40 }, (_, i) => call('w2', i, 0)),
  );
  store(
    db,
    'w1',
    Array.from({ length: CALLS / 3 }, (_, i) => call('w1', i * 3, 1)),
  );
  return db;
}

const ranks = (db: Db) =>
  db
    .prepare(`SELECT workspace_id, kind, v, t, n FROM call_agg_ranks WHERE n != 0 ORDER BY 1, 2, 3, 4`)
    .raw()
    .all();

/** w1's calls in the list's order, as SQL's own ORDER BY gives them. */
const listOrder = (db: Db, sort: CallSort) =>
  db
    .prepare(`SELECT c.seq FROM calls c WHERE c.workspace_id = 'w1' ORDER BY ${sortSql(sort)}`)
    .pluck()
    .all() as number[];

const OFFSETS = [0, 3, 49, 50, 299, 300, 451, 700, 850, 899, 900, 950] as const;

describe('Calls table windows from the rank counts', () => {
  it('keeps the counts equal to a recount after a re-sync changes calls', () => {
    const db = seeded();
    try {
      const kept = ranks(db);
      expect(kept.length).toBeGreaterThan(20);
      db.exec('SAVEPOINT recount');
      recountAggregates(db);
      expect(kept).toEqual(ranks(db));
      db.exec('ROLLBACK TO recount');
      db.exec('RELEASE recount');
    } finally {
      db.close();
    }
  });

  it('gives every far window sorted by another column the calls of the list order', () => {
    const db = seeded();
    try {
      expect(hasRankCounts(db)).toBe(true);
      const w = whereOf('w1', {});
      let ranked = 0;
      for (const by of CALL_SORT_KEYS.filter((k) => k !== 'created_at'))
        for (const dir of ['asc', 'desc'] as const) {
          const sort: CallSort = { by, dir };
          const all = listOrder(db, sort);
          expect(all).toHaveLength(CALLS);
          for (const offset of OFFSETS) {
            // A small "far" (3): every window past the first three found from the counts (the
            // first ones in the index's own direction are SQL's: null).
            const far = pageByValueWalk(db, { workspaceId: 'w1', filter: {}, sort, offset, limit: 50 }, w, 3);
            if (far === null && offset < 3) continue;
            ranked++;
            expect({ by, dir, offset, far }).toEqual({
              by,
              dir,
              offset,
              far: all.slice(offset, offset + 50),
            });
          }
        }
      expect(ranked).toBe(5 * 2 * OFFSETS.length - 5);
    } finally {
      db.close();
    }
  });

  it('gives every far window newest or oldest first the calls of the list order, and calls.list pages them', () => {
    const db = seeded();
    try {
      for (const dir of ['asc', 'desc'] as const) {
        const sort: CallSort = { by: 'created_at', dir };
        const all = listOrder(db, sort);
        for (const offset of OFFSETS) {
          const page = pageByHour(db, { workspaceId: 'w1', offset, limit: 50, dir, orderSql: sortSql(sort) });
          expect({ dir, offset, page }).toEqual({ dir, offset, page: all.slice(offset, offset + 50) });
        }
        const listed = callSearchQueries['calls.list'].run(db, {
          workspaceId: 'w1',
          filter: {},
          sort,
          offset: 451,
          limit: 50,
        });
        expect(listed.total).toBe(CALLS);
        const ids = db.prepare(`SELECT id FROM calls WHERE seq = ?`).pluck();
        expect(listed.rows.map((r) => r.id)).toEqual(all.slice(451, 501).map((seq) => ids.get(seq)));
      }
    } finally {
      db.close();
    }
  });

  it('walks the index instead while the counts wait for a fold, the same windows', () => {
    const db = seeded();
    try {
      // A writer other than the sync's page left a share in the log: the counts are not whole.
      db.prepare(`INSERT INTO call_agg_log (sign, workspace_id, status) VALUES (1, 'w9', 'completed')`).run();
      expect(hasRankCounts(db)).toBe(false);
      const sort: CallSort = { by: 'status', dir: 'desc' };
      const all = listOrder(db, sort);
      for (const offset of [300, 899]) {
        const far = pageByValueWalk(
          db,
          { workspaceId: 'w1', filter: {}, sort, offset, limit: 50 },
          whereOf('w1', {}),
          3,
        );
        expect(far).toEqual(all.slice(offset, offset + 50));
      }
    } finally {
      db.close();
    }
  });

  it('lists the agents with the counts of their calls as they are now', () => {
    const db = seeded();
    try {
      const counted = db
        .prepare(
          `SELECT agent_id AS id, count(*) AS calls FROM calls WHERE workspace_id = 'w1' AND agent_id IS NOT NULL
           GROUP BY agent_id ORDER BY calls DESC, id`,
        )
        .all() as Array<{ id: string; calls: number }>;
      const { agents } = callSearchQueries['calls.facets'].run(db, { workspaceId: 'w1' });
      expect(agents.map(({ id, calls }) => ({ id, calls }))).toEqual(counted);
      expect(agents.reduce((n, a) => n + a.calls, 0)).toBeGreaterThan(600);
      expect(agents.map((a) => a.name)).toEqual(counted.map((c) => `Agent ${c.id}`));
      // An agent's filter totals from them too (and a filter with more in it counts the calls).
      for (const { id, calls } of counted) {
        expect(agentTotal(db, 'w1', { agentId: id })).toBe(calls);
        const list = callSearchQueries['calls.list'].run(db, {
          workspaceId: 'w1',
          filter: { agentId: id },
          offset: 0,
          limit: 5,
        });
        expect(list.total).toBe(calls);
      }
      expect(agentTotal(db, 'w1', { agentId: 'a1', statuses: ['completed'] })).toBeNull();
      expect(agentTotal(db, 'w1', { agentId: 'nobody' })).toBe(0);
    } finally {
      db.close();
    }
  });
});
