import { addRankCounts, foldCallAggregates, installAggregates } from '../callAggregates.ts';
import type { Migration } from './migration.ts';

/**
 * Rank counts of the calls (issue 28; db/callRanks.ts): per workspace, how many calls fall in each
 * stretch of every order the Calls table sorts by (hour, day, value, first letters) and per agent,
 * so a window far down the table and the agents' list are found without walking a million index
 * entries. The chart aggregates' log gets the columns they are made of (what it holds is folded
 * first, without them); the calls already stored are counted from index entries, or everything is
 * installed again when the aggregates were made by another version (callAggregates.ts).
 */
export const migration: Migration = {
  version: 245,
  name: 'call-rank-counts',
  up(db) {
    const before = db.prepare(`SELECT definition FROM call_agg_state WHERE id = 1`).pluck().get() as
      string | undefined;
    foldCallAggregates(db);
    db.exec(`
      ALTER TABLE call_agg_log ADD COLUMN agent_id TEXT;
      ALTER TABLE call_agg_log ADD COLUMN created_ms INTEGER;
      ALTER TABLE call_agg_log ADD COLUMN name TEXT;
      CREATE TABLE call_agg_ranks (
        workspace_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        v NOT NULL,
        t INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (workspace_id, kind, v, t)
      ) WITHOUT ROWID;`);
    if (!addRankCounts(db, before)) installAggregates(db);
  },
};
