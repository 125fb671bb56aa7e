import type { Migration } from './migration.ts';

/**
 * The Calls table sorted by any column at a million calls (issue 28; 3.6–6.7 s a first page before,
 * a sort of every call). One index per sort column in the list's order (calls/search/order.ts):
 * workspace, the column, then newest first; the call id that ends the order is left out (it only
 * orders calls of the same value and millisecond: ~35 bytes a call each, which a million calls'
 * 3 KB budget could not hold for every index). Its direction is the one a first click sorts by
 * (names and statuses A–Z, the rest highest first); the other direction walks the same index
 * value by value (calls/search/valueWalk.ts). Status has 0050's index already; the attempt time
 * index of 0150 becomes the sort's (same leading columns). Newest first's own index gets the id
 * in the list's direction (descending), so a far window of the default order is an index walk, not
 * a sort of every call before it (1 s at 900,000).
 */
export const SORT_INDEXES: ReadonlyArray<readonly [name: string, columns: string]> = [
  ['calls_sort_attempt', 'attempt_ms DESC, created_ms DESC'],
  ['calls_sort_duration', 'call_duration DESC, created_ms DESC'],
  ['calls_sort_cost', 'call_cost DESC, created_ms DESC'],
  ['calls_sort_name', 'name COLLATE NOCASE, created_ms DESC'],
];

export const migration: Migration = {
  version: 210,
  name: 'calls-sort-indexes',
  up(db) {
    db.exec(`DROP INDEX calls_ws_attempt; DROP INDEX calls_ws_created;
      CREATE INDEX calls_ws_created ON calls (workspace_id, created_ms DESC, id DESC);`);
    for (const [name, columns] of SORT_INDEXES)
      db.exec(`CREATE INDEX ${name} ON calls (workspace_id, ${columns})`);
    // A file whose indexes were measured (PRAGMA optimize on close) gets the new ones measured too:
    // beside measured indexes, unmeasured ones look far more selective than they are, and SQLite
    // took them for every read of the calls (the status facet read every call: 10 s at a million).
    const measured =
      db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'`).get() !== undefined;
    if (measured) {
      const limit = db.pragma('analysis_limit', { simple: true }) as number;
      db.pragma('analysis_limit = 1000');
      for (const name of ['calls_ws_created', ...SORT_INDEXES.map(([n]) => n)]) db.exec(`ANALYZE ${name}`);
      db.pragma(`analysis_limit = ${limit}`);
    }
  },
};
