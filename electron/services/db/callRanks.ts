// Rank counts of the calls (migration 0245, issue 28): how many of a workspace's calls fall in each
// stretch of every order the Calls table sorts by, and per agent. A window far down the table is
// found by adding these up (a few thousand rows) and walking only the stretch it starts in, where
// an index walk from the top read every call before it (313 ms at 900,000 of a million); the
// agents' list counts from them too. Kept with the chart aggregates (callAggregates.ts: the same
// log, folded in the same transaction, recounted with them), each call counted once per kind:
// - created:      hour of created_ms (the default order)
// - status:       the status × day of created_ms (ties of one value are in date order)
// - duration/cost: an integer value × day (a tie: 0 s, 1 credit), else the open interval between
//                 two integers as one stretch (t = -1, v = its middle)
// - attempt:      hour of attempt_ms (t = -1, v = the hour's first millisecond)
// - name:         the first two characters, ASCII lower-cased as NOCASE compares them (t = -1);
//   name10:       the first ten the same way, read only within the two a window starts in
// - <kind>:null:  the calls without that value × day (nulls come last in either direction)
// - agent:        the agent id (t = 0)

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Floor division of an integer column (SQL's `/` truncates toward zero). */
const floorDiv = (x: string, w: number) => `((${x}) - (((${x}) % ${w}) + ${w}) % ${w}) / ${w}`;
const DAY = floorDiv('created_ms', DAY_MS);
/** An integer value as itself, else the middle of the open interval between the integers around it. */
const numericKey = (col: string) =>
  `CASE WHEN ${col} = CAST(${col} AS INTEGER) THEN ${col}
     ELSE CAST(${col} AS INTEGER) - (${col} < CAST(${col} AS INTEGER)) + 0.5 END`;
const numericT = (col: string) => `CASE WHEN ${col} = CAST(${col} AS INTEGER) THEN ${DAY} ELSE -1 END`;

/** One kind's shares of rows `s` (a `sign` and the columns named) as a SELECT. */
interface Part {
  columns: string[];
  sql: string;
}

const nullable = (kind: string, col: string, v: string, t: string): Part => ({
  columns: [col, 'created_ms'],
  sql: `SELECT sign, workspace_id, CASE WHEN ${col} IS NULL THEN '${kind}:null' ELSE '${kind}' END AS kind,
      CASE WHEN ${col} IS NULL THEN 0 ELSE ${v} END AS v, CASE WHEN ${col} IS NULL THEN ${DAY} ELSE ${t} END AS t
    FROM s`,
});

const PARTS: readonly Part[] = [
  {
    columns: ['created_ms'],
    sql: `SELECT sign, workspace_id, 'created' AS kind, 0 AS v, ${floorDiv('created_ms', HOUR_MS)} AS t FROM s`,
  },
  {
    columns: ['agent_id'],
    sql: `SELECT sign, workspace_id, 'agent' AS kind, agent_id AS v, 0 AS t FROM s WHERE agent_id IS NOT NULL`,
  },
  {
    columns: ['status', 'created_ms'],
    sql: `SELECT sign, workspace_id, 'status' AS kind, status AS v, ${DAY} AS t FROM s`,
  },
  nullable('attempt', 'attempt_ms', `${floorDiv('attempt_ms', HOUR_MS)} * ${HOUR_MS}`, '-1'),
  nullable('duration', 'call_duration', numericKey('call_duration'), numericT('call_duration')),
  nullable('cost', 'call_cost', numericKey('call_cost'), numericT('call_cost')),
  nullable('name', 'name', 'lower(substr(name, 1, 2))', '-1'),
  {
    columns: ['name'],
    sql: `SELECT sign, workspace_id, 'name10' AS kind, lower(substr(name, 1, 10)) AS v, -1 AS t FROM s WHERE name IS NOT NULL`,
  },
];

/** The shares of `select`'s rows added to the counts, grouped: one upsert per key. */
const upsert = (cte: string, select: string) => `
    INSERT INTO call_agg_ranks (workspace_id, kind, v, t, n)
    WITH ${cte}
    SELECT workspace_id, kind, v, t, sum(sign) FROM (${select}) WHERE true GROUP BY 1, 2, 3, 4
    ON CONFLICT (workspace_id, kind, v, t) DO UPDATE SET n = n + excluded.n;`;

/** The rank counts' shares of `source` (rows of the counted columns and a `sign`). */
export const rankFoldSql = (source: string): string =>
  upsert(`s AS MATERIALIZED (SELECT * FROM ${source})`, PARTS.map((p) => p.sql).join('\n      UNION ALL '));

/**
 * The same shares as `rankFoldSql`, one statement per kind, each reading a small `source` (the
 * log of a page's calls) itself: the sync's fold. Sorting each kind's rows apart cost about half
 * of copying the log and sorting all kinds' rows together (~4 against ~7–9 µs a call; issue 28).
 */
export const rankFoldStatements = (source: string): string[] =>
  PARTS.map((p) => upsert(`s AS (SELECT * FROM ${source})`, p.sql).trim().replace(/;$/, ''));

/**
 * Every stored call counted, one statement per kind, each reading only the columns it needs: an
 * index's entries (migrations 0210/0220 index each), not the calls' rows (3 GB at a million).
 */
export const rankCountStatements = (): string[] =>
  PARTS.map((p) =>
    upsert(`s AS (SELECT 1 AS sign, workspace_id, ${[...new Set(p.columns)].join(', ')} FROM calls)`, p.sql),
  );
