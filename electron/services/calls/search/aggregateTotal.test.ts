// The Calls table's totals and status facets read from the chart aggregates, on a real SQLite file
// seeded with every status × sub-status pair, several campaigns and calls without one: each equals
// counting the calls under the same filter (and the sync state's count of the workspace's calls);
// filters the aggregates do not keep are counted.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallFilter } from '../../../../shared/ipc/channels/calls.ts';
import { CAMPAIGN_OUTCOMES } from '../../../../shared/ipc/channels/calls.ts';
import { openDatabase } from '../../db/openDatabase.ts';
import { tempDirs } from '../../db/testing.ts';
import { CHART_CAMPAIGNS, seedChartHistory } from '../chartHistory.ts';
import { callColumns } from '../../sync/callRow.ts';
import { upsertCalls } from '../store/upsertCalls.ts';
import { callSyncStateQueries } from '../syncState.queries.ts';
import { aggregateTotal } from './aggregateTotal.ts';
import { fromClause, whereOf } from './filter.ts';
import { callSearchQueries } from './search.queries.ts';

const dirs = tempDirs('desk-aggregate-total-');
afterEach(() => dirs.cleanup());

function seeded() {
  const db = openDatabase(join(dirs.make(), 'campaign-desk.sqlite'));
  seedChartHistory(db, 3000);
  // Calls of no campaign, and of another workspace (never in w1's totals).
  const rows = [0, 1, 2].map((i) =>
    callColumns({
      id: `loose-${i}`,
      to_number: `+91900001000${i}`,
      status: 'completed',
      created_at: '2026-11-20T10:00:00.000Z',
      voicemail_detected: i === 1,
    }),
  );
  upsertCalls(db, { workspaceId: 'w1', bulkListId: null, rows, nowIso: '2026-12-01T00:00:00.000Z' });
  upsertCalls(db, {
    workspaceId: 'w2',
    bulkListId: 'bl-kolkata',
    rows: [callColumns({ id: 'other-ws', status: 'failed', created_at: '2026-11-20T10:00:00.000Z' })],
    nowIso: '2026-12-01T00:00:00.000Z',
  });
  return db;
}

const counted = (db: ReturnType<typeof openDatabase>, filter: CallFilter) => {
  const from = fromClause(whereOf('w1', filter));
  return db
    .prepare(`SELECT count(*) ${from.sql}`)
    .pluck()
    .get(...from.params) as number;
};

describe('Calls table totals from the aggregates', () => {
  it('equal counting the calls for every filter the status pairs keep', () => {
    const db = seeded();
    try {
      const filters: CallFilter[] = [
        {},
        { bulkListId: CHART_CAMPAIGNS[0]!.bulkListId },
        { bulkListId: 'bl-none' },
        { statuses: ['completed', 'failed'] },
        { subStatuses: ['USER_DID_NOT_JOIN', 'ACCEPTED'] },
        { voicemail: true },
        { voicemail: false },
        ...CAMPAIGN_OUTCOMES.map((o) => ({ outcomes: [o] })),
        {
          bulkListId: CHART_CAMPAIGNS[1]!.bulkListId,
          statuses: ['completed'],
          outcomes: ['voicemail', 'completed'],
        },
        { statuses: [] },
      ];
      for (const f of filters) {
        const total = aggregateTotal(db, 'w1', f);
        expect({ f, total }).toEqual({ f, total: counted(db, f) });
      }
      expect(aggregateTotal(db, 'w1', {})).toBe(3003);
      expect(callSyncStateQueries['calls.syncState'].run(db, { workspaceId: 'w1' }).calls).toBe(3003);
    } finally {
      db.close();
    }
  });

  it('leaves other filters, and a log not yet folded, to counting the calls', () => {
    const db = seeded();
    try {
      expect(aggregateTotal(db, 'w1', { agentId: 'agent-1' })).toBeNull();
      expect(aggregateTotal(db, 'w1', { search: 'hello' })).toBeNull();
      expect(aggregateTotal(db, 'w1', { minDuration: 10 })).toBeNull();
      expect(aggregateTotal(db, 'w1', { review: 'flagged' })).toBeNull();
      // A delete logs its share by trigger, folded on the next open: until then, count.
      db.prepare(`DELETE FROM calls WHERE id = 'loose-0'`).run();
      expect(aggregateTotal(db, 'w1', {})).toBeNull();
      const page = callSearchQueries['calls.list'].run(db, {
        workspaceId: 'w1',
        filter: {},
        offset: 0,
        limit: 5,
      });
      expect(page.total).toBe(3002);
      expect(callSyncStateQueries['calls.syncState'].run(db, { workspaceId: 'w1' }).calls).toBe(3002);
    } finally {
      db.close();
    }
  });

  it('gives the facets the same status and sub-status counts as counting the calls', () => {
    const db = seeded();
    try {
      const fromPairs = callSearchQueries['calls.facets'].run(db, { workspaceId: 'w1' });
      db.prepare(`INSERT INTO call_agg_log (sign, workspace_id, status) VALUES (0, 'w1', 'x')`).run();
      const fromCalls = callSearchQueries['calls.facets'].run(db, { workspaceId: 'w1' });
      const sorted = (l: Array<{ value: string; calls: number }>) =>
        [...l].sort((a, b) => a.value.localeCompare(b.value));
      expect(sorted(fromPairs.statuses)).toEqual(sorted(fromCalls.statuses));
      expect(sorted(fromPairs.subStatuses)).toEqual(sorted(fromCalls.subStatuses));
      expect(fromPairs.statuses.length).toBeGreaterThan(3);
    } finally {
      db.close();
    }
  });
});
