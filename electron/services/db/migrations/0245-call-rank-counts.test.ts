import { afterEach, describe, expect, it } from 'vitest';
import { callSearchQueries } from '../../calls/search/search.queries.ts';
import { aggregateDefinition, ensureCallAggregates } from '../callAggregates.ts';
import { rankCountStatements } from '../callRanks.ts';
import { migrate } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** A file at 0220 with 300 calls of two workspaces, three agents, whole and fractional durations. */
function seeded() {
  const db = freshDatabase(dirs.make());
  migrate(db, migrations, 220);
  const insert = db.prepare(
    `INSERT INTO calls (id, workspace_id, status, terminal, created_at, created_ms, raw, first_seen_at, updated_at,
       agent_id, name, call_duration)
     VALUES (?, ?, ?, 1, 'n', ?, '{}', 'n', 'n', ?, ?, ?)`,
  );
  for (let i = 0; i < 300; i++)
    insert.run(
      `c${i}`,
      i < 280 ? 'w1' : 'w2',
      i % 3 === 0 ? 'failed' : 'completed',
      i * 20 * 60_000,
      i % 10 === 0 ? null : `a${i % 3}`,
      i % 4 === 0 ? null : `${i % 2 ? 'Ra' : 'zo'}${i}`,
      i % 5 === 0 ? null : i % 2 ? 30 : 30.5,
    );
  return db;
}

const rows = (db: ReturnType<typeof freshDatabase>, kind: string) =>
  db
    .prepare(
      `SELECT v, t, n FROM call_agg_ranks WHERE workspace_id = 'w1' AND kind = ? AND n != 0 ORDER BY v, t`,
    )
    .raw()
    .all(kind);

describe('migration 0245 call rank counts', () => {
  it('counts the calls already stored from index entries alone', () => {
    const db = seeded();
    db.exec('ANALYZE');
    migrate(db, migrations, 245);
    for (const sql of rankCountStatements())
      expect(
        db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all()
          .map((r) => (r as { detail: string }).detail)
          .join('; '),
      ).toMatch(/^SCAN calls USING COVERING INDEX/);
    db.close();
  });

  it('installs everything again when the aggregates were made by another version, the same counts', () => {
    const fast = seeded();
    migrate(fast, migrations, 245);
    const slow = seeded();
    slow.prepare(`UPDATE call_agg_state SET definition = 'an older outcome table'`).run();
    migrate(slow, migrations, 245);
    const all = (db: ReturnType<typeof freshDatabase>) =>
      db.prepare(`SELECT * FROM call_agg_ranks WHERE n != 0 ORDER BY 1, 2, 3, 4`).raw().all();
    expect(all(slow)).toEqual(all(fast));
    expect(all(fast).length).toBeGreaterThan(100);
    expect(slow.prepare(`SELECT definition FROM call_agg_state`).pluck().get()).toBe(aggregateDefinition());
    fast.close();
    slow.close();
  });

  it('counts the calls already stored per hour, value, day and agent, and the aggregates stay installed', () => {
    const db = seeded();
    expect(migrate(db, migrations, 245)).toBe(245);
    // Three calls an hour (20 minutes apart) for 280 calls of w1.
    const hours = rows(db, 'created') as Array<[number, number, number]>;
    expect(hours).toHaveLength(Math.ceil(280 / 3));
    expect(hours[0]).toEqual([0, 0, 3]);
    expect(hours.reduce((n, [, , c]) => n + c, 0)).toBe(280);
    expect(
      db
        .prepare(`SELECT sum(n) FROM call_agg_ranks WHERE workspace_id = 'w2' AND kind = 'created'`)
        .pluck()
        .get(),
    ).toBe(20);
    // 30 s is one value counted by day; 30.5 s is in the stretch between 30 and 31 (middle 30.5).
    const durations = rows(db, 'duration') as Array<[number, number, number]>;
    expect(durations.filter(([v, t]) => v === 30 && t >= 0).reduce((n, [, , c]) => n + c, 0)).toBe(112);
    expect(durations.filter(([, t]) => t === -1)).toEqual([[30.5, -1, 112]]);
    expect((rows(db, 'duration:null') as Array<[number, number, number]>).reduce((n, r) => n + r[2], 0)).toBe(
      56,
    );
    expect(rows(db, 'name')).toEqual([
      ['ra', -1, 140],
      ['zo', -1, 70],
    ]);
    // The agents' list counts from them as from the calls.
    expect(callSearchQueries['calls.facets'].run(db, { workspaceId: 'w1' }).agents).toEqual(
      [
        { id: 'a1', name: null, calls: 84 },
        { id: 'a2', name: null, calls: 84 },
        { id: 'a0', name: null, calls: 84 },
      ].sort((a, b) => b.calls - a.calls || a.id.localeCompare(b.id)),
    );
    expect(db.prepare(`SELECT definition FROM call_agg_state`).pluck().get()).toBe(aggregateDefinition());
    // A delete is taken back from the counts (the trigger logs the columns they are made of).
    ensureCallAggregates(db);
    // (The rows above were inserted without their search index entries: indexed first.)
    db.exec(`INSERT INTO calls_fts (calls_fts) VALUES ('rebuild')`);
    db.prepare(`DELETE FROM calls WHERE id = 'c1'`).run();
    ensureCallAggregates(db);
    expect(
      db
        .prepare(`SELECT n FROM call_agg_ranks WHERE workspace_id = 'w1' AND kind = 'agent' AND v = 'a1'`)
        .pluck()
        .get(),
    ).toBe(83);
    expect(
      db
        .prepare(`SELECT n FROM call_agg_ranks WHERE workspace_id = 'w1' AND kind = 'created' AND t = 0`)
        .pluck()
        .get(),
    ).toBe(2);
    db.close();
  });
});
