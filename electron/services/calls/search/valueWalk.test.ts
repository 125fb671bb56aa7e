// The Calls table sorted against a column's index direction (valueWalk.ts) on a real SQLite file:
// every window, from the first to past the end, holds exactly the calls SQLite's own ORDER BY of
// the list's sort gives there (ties on value and time, nulls last, names in any case).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CALL_SORT_KEYS } from '../../../../shared/ipc/channels/calls.ts';
import type { CallSort } from '../../../../shared/ipc/channels/calls.ts';
import { openDatabase } from '../../db/openDatabase.ts';
import { tempDirs } from '../../db/testing.ts';
import { callColumns } from '../../sync/callRow.ts';
import { upsertCalls } from '../store/upsertCalls.ts';
import { whereOf } from './filter.ts';
import { sortSql } from './order.ts';
import { callSearchQueries } from './search.queries.ts';
import { pageByValueWalk } from './valueWalk.ts';

const dirs = tempDirs('desk-value-walk-');
afterEach(() => dirs.cleanup());

const NAMES = ['Asha', 'asha', 'ASHA', 'Ravi', 'Zoe', 'ælfred', null];
const STATUSES = ['completed', 'failed', 'registered', 'error'] as const;

function seeded() {
  const db = openDatabase(join(dirs.make(), 'campaign-desk.sqlite'));
  let n = 0;
  const at = (i: number) => new Date(Date.UTC(2026, 10, 1) + (i % 97) * 60_000).toISOString();
  for (const ws of ['w1', 'w2']) {
    const rows = Array.from({ length: ws === 'w1' ? 600 : 40 }, (_, i) => {
      n++;
      const status = STATUSES[(i * 7) % STATUSES.length]!;
      const name = NAMES[(i * 5) % NAMES.length];
      return callColumns({
        id: `call-${String((n * 7919) % 10007).padStart(5, '0')}`,
        status,
        created_at: at(i),
        ...(name === null ? {} : { name }),
        ...(status === 'registered' ? {} : { call_attempt_time: at(i * 3) }),
        ...(i % 11 === 0 ? {} : { call_duration: (i * 13) % 9 }),
        ...(i % 13 === 0 ? {} : { call_cost: ((i * 3) % 4) / 2 }),
      });
    });
    upsertCalls(db, { workspaceId: ws, bulkListId: null, rows, nowIso: '2026-12-01T00:00:00.000Z' });
  }
  return db;
}

describe('Calls table sorted against the index direction', () => {
  it('gives every window the calls of the list order, past ties, nulls and case', () => {
    const db = seeded();
    try {
      const w = whereOf('w1', {});
      let walked = 0;
      let farWalked = 0;
      for (const by of CALL_SORT_KEYS)
        for (const dir of ['asc', 'desc'] as const) {
          const sort: CallSort = { by, dir };
          const all = db
            .prepare(`SELECT c.seq FROM calls c WHERE c.workspace_id = 'w1' ORDER BY ${sortSql(sort)}`)
            .pluck()
            .all() as number[];
          expect(all).toHaveLength(600);
          for (const [offset, limit] of [
            [0, 50],
            [37, 50],
            [250, 100],
            [560, 50],
            [599, 5],
            [600, 50],
            [900, 50],
          ] as const) {
            const args = { workspaceId: 'w1', filter: {}, sort, offset, limit };
            const walk = pageByValueWalk(db, args, w);
            // A small "far" makes every window far: found by counting along the index.
            const far = pageByValueWalk(db, args, w, 3);
            const expected = all.slice(offset, offset + limit);
            if (far !== null) {
              farWalked++;
              expect({ by, dir, offset, far }).toEqual({ by, dir, offset, far: expected });
            }
            if (walk === null) continue;
            walked++;
            expect({ by, dir, offset, walk }).toEqual({ by, dir, offset, walk: expected });
          }
        }
      // One direction of each of the five other columns walks its index (the other reads it in order).
      expect(walked).toBe(5 * 7);
      // ... and with every window far, both directions but the index's own first window.
      expect(farWalked).toBe(5 * 7 * 2 - 5);
    } finally {
      db.close();
    }
  });

  it('reads a far window newest first or oldest first from the nearer end, the same calls', () => {
    const db = seeded();
    try {
      for (const dir of ['asc', 'desc'] as const) {
        const sort: CallSort = { by: 'created_at', dir };
        const all = db
          .prepare(`SELECT c.id FROM calls c WHERE c.workspace_id = 'w1' ORDER BY ${sortSql(sort)}`)
          .pluck()
          .all() as string[];
        for (const offset of [0, 299, 300, 301, 450, 575, 599, 600, 700]) {
          const listed = callSearchQueries['calls.list'].run(db, {
            workspaceId: 'w1',
            filter: {},
            sort,
            offset,
            limit: 30,
          });
          expect({ dir, offset, ids: listed.rows.map((r) => r.id) }).toEqual({
            dir,
            offset,
            ids: all.slice(offset, offset + 30),
          });
        }
      }
    } finally {
      db.close();
    }
  });

  it('leaves filtered lists and the index direction to SQL, and calls.list pages the same either way', () => {
    const db = seeded();
    try {
      const sort: CallSort = { by: 'call_duration', dir: 'asc' };
      const args = { workspaceId: 'w1', filter: { statuses: ['completed'] }, sort, offset: 0, limit: 20 };
      expect(pageByValueWalk(db, args, whereOf('w1', args.filter))).toBeNull();
      expect(
        pageByValueWalk(
          db,
          { ...args, filter: {}, sort: { by: 'call_duration', dir: 'desc' } },
          whereOf('w1', {}),
        ),
      ).toBeNull();
      const listed = callSearchQueries['calls.list'].run(db, { ...args, filter: {}, offset: 100 });
      const expected = db
        .prepare(
          `SELECT c.id FROM calls c WHERE c.workspace_id = 'w1' ORDER BY ${sortSql(sort)} LIMIT 20 OFFSET 100`,
        )
        .pluck()
        .all();
      expect(listed.rows.map((r) => r.id)).toEqual(expected);
      expect(listed.total).toBe(600);
    } finally {
      db.close();
    }
  });
});
