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

/**
 * The rank counts' shares of `source` (rows of the counted columns and a `sign`), grouped: one
 * upsert per key however many calls share it.
 */
export function rankFoldSql(source: string): string {
  const nullable = (kind: string, col: string, v: string, t: string) => `
    SELECT sign, workspace_id, CASE WHEN ${col} IS NULL THEN '${kind}:null' ELSE '${kind}' END AS kind,
      CASE WHEN ${col} IS NULL THEN 0 ELSE ${v} END AS v, CASE WHEN ${col} IS NULL THEN ${DAY} ELSE ${t} END AS t
    FROM s`;
  return `
    INSERT INTO call_agg_ranks (workspace_id, kind, v, t, n)
    WITH s AS MATERIALIZED (SELECT * FROM ${source})
    SELECT workspace_id, kind, v, t, sum(sign) FROM (
      SELECT sign, workspace_id, 'created' AS kind, 0 AS v, ${floorDiv('created_ms', HOUR_MS)} AS t FROM s
      UNION ALL SELECT sign, workspace_id, 'agent', agent_id, 0 FROM s WHERE agent_id IS NOT NULL
      UNION ALL SELECT sign, workspace_id, 'status', status, ${DAY} FROM s
      UNION ALL ${nullable('attempt', 'attempt_ms', `${floorDiv('attempt_ms', HOUR_MS)} * ${HOUR_MS}`, '-1')}
      UNION ALL ${nullable('duration', 'call_duration', numericKey('call_duration'), numericT('call_duration'))}
      UNION ALL ${nullable('cost', 'call_cost', numericKey('call_cost'), numericT('call_cost'))}
      UNION ALL ${nullable('name', 'name', 'lower(substr(name, 1, 2))', '-1')}
      UNION ALL SELECT sign, workspace_id, 'name10', lower(substr(name, 1, 10)), -1 FROM s WHERE name IS NOT NULL
    ) WHERE true GROUP BY 1, 2, 3, 4
    ON CONFLICT (workspace_id, kind, v, t) DO UPDATE SET n = n + excluded.n;`;
}
