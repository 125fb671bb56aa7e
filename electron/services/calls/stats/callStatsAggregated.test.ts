// The chart aggregates (callAggregates.ts) on a real SQLite file: after syncs, re-syncs that change
// calls (status, times, costs, campaign, workspace), unchanged re-syncs and deletes, every aggregate
// equals a recount from the calls table, and the charts read from them equal the charts counted
// from the calls themselves, overall and per campaign.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { outcomeSql } from '../../../../shared/domain/callOutcome.ts';
import { callStatuses, callSubStatuses } from '../../../../shared/service/enums.ts';
import type { CallStats } from '../../../../shared/ipc/channels/calls.ts';
import { seedChartHistory } from '../chartHistory.ts';
import { callColumns } from '../../sync/callRow.ts';
import { aggregateDefinition, foldCallAggregates, recountAggregates } from '../../db/callAggregates.ts';
import type { Db } from '../../db/define.ts';
import { openDatabase } from '../../db/openDatabase.ts';
import { tempDirs } from '../../db/testing.ts';
import { upsertCalls } from '../store/upsertCalls.ts';
import { attemptGroups, attemptGroupsFromCalls, stats, statsFromCalls } from './callStats.queries.ts';
import { aggregateScope } from './callStatsAggregated.ts';

const dirs = tempDirs('desk-call-aggregates-');
afterEach(() => dirs.cleanup());

const TABLES = ['call_agg_pairs', 'call_agg_slots', 'call_agg_values', 'call_agg_numbers'] as const;

/** Every aggregate row that counts something (a count taken back to 0 counts nothing). */
function snapshot(db: Db): Record<string, unknown[]> {
  const counted: Record<(typeof TABLES)[number], string> = {
    call_agg_pairs: 'n != 0 OR dialled != 0 OR cost_n != 0 OR cost_micro != 0',
    call_agg_slots: 'n != 0 OR answered != 0 OR completed != 0 OR cost_micro != 0',
    call_agg_values: 'n != 0',
    call_agg_numbers: 'calls != 0 OR dialled != 0 OR answered != 0 OR completed != 0',
  };
  return Object.fromEntries(
    TABLES.map((t) => [
      t,
      db.prepare(`SELECT * FROM ${t} WHERE ${counted[t]} ORDER BY 1, 2, 3, 4, 5`).raw().all(),
    ]),
  );
}

/** The aggregates as they are, then as a recount from `calls` gives them (the recount rolled back). */
function keptAndRecounted(db: Db) {
  const kept = snapshot(db);
  db.exec('SAVEPOINT recount');
  try {
    recountAggregates(db);
    return { kept, recounted: snapshot(db) };
  } finally {
    db.exec('ROLLBACK TO recount');
    db.exec('RELEASE recount');
  }
}

/** Floats rounded (sums in another order differ in the last bits); everything else as is. */
function rounded(s: unknown): unknown {
  return JSON.parse(JSON.stringify(s), (_k, v: unknown) =>
    typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e6) / 1e6 : v,
  );
}

function expectChartsFromAggregates(db: Db, workspaceId: string) {
  const bulkIds = db
    .prepare<[string], string>(
      `SELECT DISTINCT bulk_list_id FROM calls WHERE workspace_id = ? AND bulk_list_id IS NOT NULL`,
    )
    .pluck()
    .all(workspaceId);
  for (const filter of [{}, ...bulkIds.map((bulkListId) => ({ bulkListId }))]) {
    const a = { workspaceId, filter, timeZone: 'Europe/London' };
    const fromAggregates: CallStats = stats(db, a);
    expect(rounded(fromAggregates), JSON.stringify(filter)).toEqual(rounded(statsFromCalls(db, a)));
    expect(rounded(attemptGroups(db, a))).toEqual(rounded(attemptGroupsFromCalls(db, a)));
  }
  // The duration histogram holds every dialled, answered call with a duration (counted here in SQL
  // from the outcome table; the histogram counted from the calls once bound its width wrongly and
  // came out empty).
  const answeredWithDuration = db
    .prepare<[string], number>(
      `SELECT count(*) FROM calls c WHERE c.workspace_id = ? AND c.attempt_ms IS NOT NULL
         AND c.call_duration IS NOT NULL AND ${outcomeSql('c.status', 'c.sub_status', 'c.voicemail')} IN ('completed', 'voicemail')`,
    )
    .pluck()
    .get(workspaceId)!;
  const histogram = stats(db, { workspaceId, filter: {} }).duration;
  expect(histogram.reduce((n, b) => n + b.count, 0)).toBe(answeredWithDuration);
}

/** A changed state of stored call `id`: another status pair, attempt time, duration and cost. */
function changed(db: Db, id: string, i: number) {
  const raw = db.prepare<[string], string>(`SELECT raw FROM calls WHERE id = ?`).pluck().get(id)!;
  const record = JSON.parse(raw) as Record<string, unknown>;
  return callColumns({
    ...(record as { id: string; status: string; created_at: string }),
    status: callStatuses[(i * 7) % callStatuses.length]!,
    sub_status: i % 5 === 0 ? null : callSubStatuses[(i * 3) % callSubStatuses.length]!,
    call_attempt_time:
      i % 4 === 0 ? null : new Date(Date.UTC(2026, 10, 20, i % 24, (i * 13) % 60)).toISOString(),
    call_duration: i % 6 === 0 ? null : (i * 17) % 400,
    call_cost: i % 9 === 0 ? null : ((i * 31) % 700) / 100,
    voicemail_detected: i % 3 === 0 ? null : i % 2 === 0,
    to_number: i % 11 === 0 ? null : `+9191000${String(i % 500).padStart(5, '0')}`,
  });
}

describe('chart aggregates kept as the sync stores calls', () => {
  it('equal a recount from the calls table, and give the charts counted from the calls, after syncs, re-syncs and deletes', () => {
    const db = openDatabase(join(dirs.make(), 'campaign-desk.sqlite'));
    try {
      // Syncs: a seeded history of several campaigns and timezones, in pages.
      seedChartHistory(db, 6000);
      let { kept, recounted } = keptAndRecounted(db);
      expect(kept.call_agg_pairs!.length).toBeGreaterThan(0);
      expect(kept).toEqual(recounted);
      expectChartsFromAggregates(db, 'w1');

      // Re-syncs: a page whose calls changed (status, times, duration, cost, number), one where some
      // move to another campaign, one the same again (unchanged), one a call taken by another workspace.
      const ids = db.prepare<[], string>(`SELECT id FROM calls ORDER BY seq`).pluck().all();
      const now = '2026-12-02T00:00:00.000Z';
      upsertCalls(db, {
        workspaceId: 'w1',
        bulkListId: null,
        rows: ids.slice(0, 900).map((id, i) => changed(db, id, i)),
        nowIso: now,
      });
      upsertCalls(db, {
        workspaceId: 'w1',
        bulkListId: 'bl-moved',
        rows: ids.slice(900, 1200).map((id, i) => changed(db, id, i + 1)),
        nowIso: now,
      });
      const again = ids.slice(0, 300).map((id) => {
        const raw = db.prepare<[string], string>(`SELECT raw FROM calls WHERE id = ?`).pluck().get(id)!;
        return callColumns(JSON.parse(raw) as Parameters<typeof callColumns>[0]);
      });
      expect(
        upsertCalls(db, { workspaceId: 'w1', bulkListId: null, rows: again, nowIso: now }).unchanged,
      ).toBe(300);
      upsertCalls(db, {
        workspaceId: 'w2',
        bulkListId: 'bl-w2',
        rows: ids.slice(1200, 1400).map((id, i) => changed(db, id, i + 2)),
        nowIso: now,
      });
      // A call of no campaign, and one with no number.
      upsertCalls(db, {
        workspaceId: 'w1',
        bulkListId: null,
        rows: [
          callColumns({
            id: 'solo-1',
            to_number: '+919100012345',
            status: 'completed',
            sub_status: null,
            created_at: now,
            call_attempt_time: now,
            call_duration: 12.5,
            call_cost: 0.333333,
          }),
          callColumns({
            id: 'solo-2',
            to_number: null,
            status: 'failed',
            sub_status: 'USER_DID_NOT_JOIN',
            created_at: now,
            call_attempt_time: null,
          }),
        ],
        nowIso: now,
      });
      ({ kept, recounted } = keptAndRecounted(db));
      expect(kept).toEqual(recounted);
      expectChartsFromAggregates(db, 'w1');
      expectChartsFromAggregates(db, 'w2');

      // Deletes (no code path deletes calls today; a future one must not leave counts behind). A
      // write outside the sync's page leaves its shares in the log: until they are folded (the
      // next page, or the next open) the charts count from the calls, so they are never stale.
      const deleted = db
        .prepare(`DELETE FROM calls WHERE seq % 7 = 0 OR bulk_list_id = 'bl-kathmandu'`)
        .run();
      expect(deleted.changes).toBeGreaterThan(0);
      expect(db.prepare(`SELECT count(*) FROM call_agg_log`).pluck().get()).toBe(deleted.changes);
      const left = db.prepare(`SELECT count(*) FROM calls WHERE workspace_id = 'w1'`).pluck().get();
      expect(stats(db, { workspaceId: 'w1', filter: {} }).total).toBe(left);
      db.transaction(() => foldCallAggregates(db))();
      expect(db.prepare(`SELECT count(*) FROM call_agg_log`).pluck().get()).toBe(0);
      ({ kept, recounted } = keptAndRecounted(db));
      expect(kept).toEqual(recounted);
      expectChartsFromAggregates(db, 'w1');
      expectChartsFromAggregates(db, 'w2');

      // Everything deleted: nothing counts, and the charts are empty.
      db.prepare(`DELETE FROM calls`).run();
      db.transaction(() => foldCallAggregates(db))();
      expect(snapshot(db)).toEqual({
        call_agg_pairs: [],
        call_agg_slots: [],
        call_agg_values: [],
        call_agg_numbers: [],
      });
      expect(stats(db, { workspaceId: 'w1', filter: {} }).total).toBe(0);
    } finally {
      db.close();
    }
  }, 120_000);

  it('are installed again and recounted on open when their triggers are missing or of another outcome table', () => {
    const file = join(dirs.make(), 'campaign-desk.sqlite');
    let db = openDatabase(file);
    seedChartHistory(db, 2000);
    const expected = snapshot(db);
    db.exec(`DROP TRIGGER calls_agg_delete`);
    db.prepare(`DELETE FROM calls WHERE id = 'chart-7'`).run();
    expect(snapshot(db)).toEqual(expected); // not taken back: the trigger is gone
    db.close();
    db = openDatabase(file);
    expect(keptAndRecounted(db).kept).toEqual(keptAndRecounted(db).recounted);
    expect(stats(db, { workspaceId: 'w1', filter: {} }).total).toBe(1999);

    // A definition of another version (its outcome table differed): recounted on open.
    db.exec(`UPDATE call_agg_state SET definition = 'older'; DELETE FROM call_agg_pairs;`);
    db.close();
    db = openDatabase(file);
    expect(db.prepare(`SELECT definition FROM call_agg_state`).pluck().get()).toBe(aggregateDefinition());
    expect(stats(db, { workspaceId: 'w1', filter: {} }).total).toBe(1999);
    db.close();
    // Read-only readers (the read lane) see the same.
    const reader = new Database(file, { readonly: true });
    expect(stats(reader, { workspaceId: 'w1', filter: {} }).total).toBe(1999);
    reader.close();
  });

  it('answer all calls or one campaign; any other filter is counted from the calls', () => {
    expect(aggregateScope({})).toEqual({ bulk: null });
    expect(aggregateScope({ bulkListId: 'bl-1', statuses: [] })).toEqual({ bulk: 'bl-1' });
    expect(aggregateScope({ statuses: ['completed'] })).toBeNull();
    expect(aggregateScope({ bulkListId: 'bl-1', search: 'hello' })).toBeNull();
    expect(aggregateScope({ from: '2026-11-01T00:00:00.000Z' })).toBeNull();
  });
});
