// Per-workspace chart aggregates of the calls table (issue 24: charts over 100k calls in ≤ 300 ms).
// The charts of all calls or of one campaign read these small tables instead of every call:
// - call_agg_pairs:   per campaign × status × sub-status × voicemail: calls, dialled, costs
//                     (outcome, status and sub-status counts, totals, averages)
// - call_agg_slots:   per campaign × quarter hour of the attempt (dialled calls): calls, answered,
//                     completed, cost (calls over time; the heatmap in each campaign's timezone)
// - call_agg_values:  per campaign × value: answered calls' talk time (dialled or not) and costs
//                     (maxima, the duration histogram)
// - call_agg_numbers: per campaign and per workspace × number: calls, dialled, answered, completed
//                     (the funnel's distinct numbers)
// - call_agg_ranks:   the Calls table's rank counts (callRanks.ts; migration 0245)
// How they are kept: each write's share goes to `call_agg_log` (+1 for a call as it is now, -1
// for a call as it was), and `foldCallAggregates` adds the log to the tables grouped (one upsert
// per key), then empties it. The sync's page (`upsertCalls`) logs the old share of each call it
// changes before changing it and the new shares of the page's calls after, and folds, all in the
// page's transaction. No row trigger on insert or update: one made every stored call cost ~50 µs
// more (its statement journal; migration 0080 dropped the search index's triggers for the same
// reason) and tripled a page's writing time. A delete (rare: nothing in the app deletes calls)
// logs its share by trigger; `ensureCallAggregates` folds what any such writer left, on open, and
// the charts count from the calls while the log is not empty (never a stale figure). A new
// writer of the counted columns other than `upsertCalls` logs and folds the same way.
// Costs are summed in integer micro-credits, so taking a call back leaves exactly what was there.
// The outcome table (shared/domain/callOutcome.ts) is applied when folding: `ensureCallAggregates`
// recounts everything from `calls` when it, or anything else the aggregates are made with, changed
// since they were counted, and installs the delete trigger again when a migration dropped it.
import { createHash } from 'node:crypto';
import { outcomeSql } from '../../../shared/domain/callOutcome.ts';
import { rankCountStatements, rankFoldSql, rankFoldStatements } from './callRanks.ts';
import { reportMigrationFraction } from './migrationProgress.ts';
import type { Db } from './define.ts';
import { prepared, writeTransaction } from './define.ts';

/** Quarter hours: every timezone's offset is a multiple of 15 minutes, so a bucket is in one local hour. */
export const QUARTER_MS = 15 * 60_000;

export const AGGREGATE_TABLES_SQL = `
  CREATE TABLE call_agg_pairs (
    workspace_id TEXT NOT NULL,
    bulk_key TEXT NOT NULL,
    status TEXT NOT NULL,
    sub_key TEXT NOT NULL,
    vm_key INTEGER NOT NULL,
    n INTEGER NOT NULL,
    dialled INTEGER NOT NULL,
    cost_n INTEGER NOT NULL,
    cost_micro INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, bulk_key, status, sub_key, vm_key)
  ) WITHOUT ROWID;
  CREATE TABLE call_agg_slots (
    workspace_id TEXT NOT NULL,
    bulk_key TEXT NOT NULL,
    q INTEGER NOT NULL,
    n INTEGER NOT NULL,
    answered INTEGER NOT NULL,
    completed INTEGER NOT NULL,
    cost_micro INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, bulk_key, q)
  ) WITHOUT ROWID;
  CREATE TABLE call_agg_values (
    workspace_id TEXT NOT NULL,
    bulk_key TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('talk', 'talk_undialled', 'cost')),
    value REAL NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, bulk_key, kind, value)
  ) WITHOUT ROWID;
  CREATE TABLE call_agg_numbers (
    workspace_id TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('campaign', 'workspace')),
    bulk_key TEXT NOT NULL,
    to_number TEXT NOT NULL,
    calls INTEGER NOT NULL,
    dialled INTEGER NOT NULL,
    answered INTEGER NOT NULL,
    completed INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, scope, bulk_key, to_number)
  ) WITHOUT ROWID;
  CREATE TABLE call_agg_log (
    sign INTEGER NOT NULL,
    workspace_id TEXT NOT NULL,
    bulk_list_id TEXT,
    to_number TEXT,
    status TEXT NOT NULL,
    sub_status TEXT,
    voicemail INTEGER,
    attempt_ms INTEGER,
    call_duration REAL,
    call_cost REAL
  );
  CREATE TABLE call_agg_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    definition TEXT NOT NULL
  );
`;

/** The columns of a call the aggregates count (what the log keeps of each share). */
const COUNTED = [
  'workspace_id',
  'bulk_list_id',
  'to_number',
  'status',
  'sub_status',
  'voicemail',
  'attempt_ms',
  'call_duration',
  'call_cost',
];

const TRIGGERS = ['calls_agg_delete'];

/**
 * The columns the rank counts add to the log (callRanks.ts; migration 0245 adds them to it and
 * their table): before it, the log, the trigger and the fold are the chart aggregates' alone.
 */
const RANKED = [...COUNTED, 'agent_id', 'created_ms', 'name'];

/** The statements of the file's schema: with the rank counts (migration 0245 applied) or without. */
function statementsOf(ranks: boolean) {
  const cols = (ranks ? RANKED : COUNTED).join(', ');
  const fold = `${foldSql('call_agg_log', ranks)} DELETE FROM call_agg_log;`;
  return {
    triggers: `
  CREATE TRIGGER calls_agg_delete AFTER DELETE ON calls BEGIN
    INSERT INTO call_agg_log (sign, ${cols}) VALUES (-1, ${(ranks ? RANKED : COUNTED).map((c) => `old.${c}`).join(', ')});
  END;`,
    logOld: `INSERT INTO call_agg_log (sign, ${cols}) SELECT -1, ${cols} FROM calls WHERE seq = ?`,
    logNew: `INSERT INTO call_agg_log (sign, ${cols}) SELECT 1, ${cols} FROM calls
  WHERE seq IN (SELECT value FROM json_each(?))`,
    fold,
    // The fold's statements, prepared once per connection: `exec` compiled them all again for every page.
    // The rank counts as one statement per kind (rankFoldStatements): the same sums, so the
    // definition (hashed from `fold`) is unchanged and no file is recounted for it.
    foldStatements: [
      ...foldSql('call_agg_log', false)
        .split(';')
        .map((sql) => sql.trim())
        .filter((sql) => sql !== ''),
      ...(ranks ? rankFoldStatements('call_agg_log') : []),
      'DELETE FROM call_agg_log',
    ],
    recount: `
  DELETE FROM call_agg_pairs; DELETE FROM call_agg_slots; DELETE FROM call_agg_values;
  DELETE FROM call_agg_numbers; DELETE FROM call_agg_log;${ranks ? ' DELETE FROM call_agg_ranks;' : ''}
  ${foldSql(`(SELECT 1 AS sign, ${cols} FROM calls)`, ranks)}`,
  };
}

type Statements = ReturnType<typeof statementsOf>;
let statementsCache: { with: Statements; without: Statements } | null = null;
const cached = () => (statementsCache ??= { with: statementsOf(true), without: statementsOf(false) });
const hasRanks = new WeakMap<Db, true>();
/** The statements for this file: the rank counts' table present (asked until it is, then kept). */
function statements(db: Db): Statements {
  const statementsCache = cached();
  if (!hasRanks.has(db)) {
    const present =
      db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'call_agg_ranks'`).get() !==
      undefined;
    if (!present) return statementsCache.without;
    hasRanks.set(db, true);
  }
  return statementsCache.with;
}

/** Logs the share of stored call `seq` as it is now, to take back (before it is changed). */
export const logOldShare = (db: Db, seq: number): void => {
  prepared(db, statements(db).logOld).run(seq);
};

/** Logs the shares of stored calls `seqs` as they are now (after they were inserted or changed). */
export const logNewShares = (db: Db, seqs: readonly number[]): void => {
  if (seqs.length > 0) prepared(db, statements(db).logNew).run(JSON.stringify(seqs));
};

// How a call's columns become keys: NULL cannot be part of a key that upserts find (NULLs are
// distinct), so a missing campaign is '' (a campaign id is never empty), a missing sub-status 'n'
// (a present one is 's' + it), a missing voicemail flag -1.
const BULK = `coalesce(bulk_list_id, '')`;
const SUB = `CASE WHEN sub_status IS NULL THEN 'n' ELSE 's' || sub_status END`;
const VM = `coalesce(voicemail, -1)`;
const MICRO = `coalesce(CAST(round(call_cost * 1000000) AS INTEGER), 0)`;
const DIALLED = `(attempt_ms IS NOT NULL)`;

/**
 * Adds the shares of `source` (rows with the COUNTED columns and a `sign`: the log, or every call
 * with sign 1) to the aggregates, grouped: one upsert per key, however many calls share it.
 */
function foldSql(source: string, ranks: boolean): string {
  const o = outcomeSql('status', 'sub_status', 'voicemail');
  // The outcome once per row, under the name the sums below use.
  const src = `(SELECT *, ${o} IN ('completed', 'voicemail') AS answered_, ${o} = 'completed' AS completed_
    FROM ${source})`;
  const numbers = (scope: string, bulk: string) => `
    INSERT INTO call_agg_numbers (workspace_id, scope, bulk_key, to_number, calls, dialled, answered, completed)
    SELECT workspace_id, '${scope}', ${bulk}, to_number, sum(sign), sum(sign * ${DIALLED}),
      sum(sign * (${DIALLED} AND answered_)), sum(sign * (${DIALLED} AND completed_))
    FROM ${src} WHERE to_number IS NOT NULL GROUP BY 1, 3, 4
    ON CONFLICT (workspace_id, scope, bulk_key, to_number) DO UPDATE SET calls = calls + excluded.calls,
      dialled = dialled + excluded.dialled, answered = answered + excluded.answered,
      completed = completed + excluded.completed;`;
  return `
    INSERT INTO call_agg_pairs (workspace_id, bulk_key, status, sub_key, vm_key, n, dialled, cost_n, cost_micro)
    SELECT workspace_id, ${BULK}, status, ${SUB}, ${VM}, sum(sign), sum(sign * ${DIALLED}),
      sum(sign * (call_cost IS NOT NULL)), sum(sign * ${MICRO})
    FROM ${source} WHERE true GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT (workspace_id, bulk_key, status, sub_key, vm_key) DO UPDATE SET n = n + excluded.n,
      dialled = dialled + excluded.dialled, cost_n = cost_n + excluded.cost_n,
      cost_micro = cost_micro + excluded.cost_micro;
    INSERT INTO call_agg_slots (workspace_id, bulk_key, q, n, answered, completed, cost_micro)
    SELECT workspace_id, ${BULK}, attempt_ms / ${QUARTER_MS}, sum(sign), sum(sign * answered_), sum(sign * completed_),
      sum(sign * ${MICRO})
    FROM ${src} WHERE ${DIALLED} GROUP BY 1, 2, 3
    ON CONFLICT (workspace_id, bulk_key, q) DO UPDATE SET n = n + excluded.n, answered = answered + excluded.answered,
      completed = completed + excluded.completed, cost_micro = cost_micro + excluded.cost_micro;
    INSERT INTO call_agg_values (workspace_id, bulk_key, kind, value, n)
    SELECT workspace_id, ${BULK}, CASE WHEN ${DIALLED} THEN 'talk' ELSE 'talk_undialled' END, call_duration, sum(sign)
    FROM ${src} WHERE call_duration IS NOT NULL AND answered_ GROUP BY 1, 2, 3, 4
    ON CONFLICT (workspace_id, bulk_key, kind, value) DO UPDATE SET n = n + excluded.n;
    INSERT INTO call_agg_values (workspace_id, bulk_key, kind, value, n)
    SELECT workspace_id, ${BULK}, 'cost', call_cost, sum(sign)
    FROM ${source} WHERE call_cost IS NOT NULL GROUP BY 1, 2, 4
    ON CONFLICT (workspace_id, bulk_key, kind, value) DO UPDATE SET n = n + excluded.n;
    ${numbers('campaign', BULK)}
    ${numbers('workspace', "''")}${ranks ? rankFoldSql(source) : ''}`;
}

/** What the aggregates are made with: a hash of the trigger and the fold (the outcome table is in it). */
const definitionOf = (st: Statements): string =>
  createHash('sha256').update(st.triggers).update(st.fold).digest('hex').slice(0, 16);

/** This version's definition (with the rank counts). */
export const aggregateDefinition = (): string => definitionOf(cached().with);

/**
 * Adds the logged shares to the aggregates and empties the log (inside the caller's transaction:
 * the sync calls it at the end of each page's). Cheap when the log is empty.
 */
export function foldCallAggregates(db: Db): void {
  if (prepared(db, `SELECT 1 FROM call_agg_log LIMIT 1`).get() === undefined) return;
  for (const sql of statements(db).foldStatements) prepared(db, sql).run();
}

/** Every aggregate recounted from `calls` (inside the caller's transaction). */
export function recountAggregates(db: Db): void {
  db.exec(statements(db).recount);
}

/** Installs the current triggers and recounts (inside the caller's transaction). */
export function installAggregates(db: Db): void {
  for (const t of TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS ${t}`);
  db.exec(statements(db).triggers);
  recountAggregates(db);
  // As installed: without the rank counts before migration 0245 (which adds them to it).
  db.prepare(
    `INSERT INTO call_agg_state (id, definition) VALUES (1, ?)
     ON CONFLICT (id) DO UPDATE SET definition = excluded.definition`,
  ).run(definitionOf(statements(db)));
}

/**
 * Adds the rank counts to aggregates made as this version makes them but without them (migration
 * 0245; inside its transaction, after their table and log columns are made): the trigger logs
 * their columns, and they are counted from index entries alone (at a million calls a recount of
 * everything read every call's row: 86 s). False when the aggregates were made otherwise (an
 * older outcome table): the caller installs everything again.
 */
export function addRankCounts(db: Db, before: string | undefined): boolean {
  if (before !== definitionOf(cached().without)) return false;
  for (const t of TRIGGERS) db.exec(`DROP TRIGGER IF EXISTS ${t}`);
  db.exec(statements(db).triggers);
  db.exec('DELETE FROM call_agg_ranks');
  // 25 s at a million calls: the start-up upgrade screen shows how far (one share per kind).
  const counts = rankCountStatements();
  counts.forEach((sql, i) => {
    db.exec(sql);
    reportMigrationFraction(db, (i + 1) / counts.length);
  });
  db.prepare(`UPDATE call_agg_state SET definition = ? WHERE id = 1`).run(aggregateDefinition());
  return true;
}

/**
 * On open, after the migrations: the aggregates were made as this version makes them and their
 * triggers are present, else they are installed again and everything recounted; what another
 * writer left in the log is folded. Nothing to do before migration 0200.
 */
export function ensureCallAggregates(db: Db): void {
  const hasTables = db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'call_agg_state'`)
    .get();
  if (!hasTables) return;
  const installed = db.prepare(`SELECT definition FROM call_agg_state WHERE id = 1`).pluck().get() as
    string | undefined;
  const triggers = db
    .prepare(
      `SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN (${TRIGGERS.map(() => '?').join(', ')})`,
    )
    .pluck()
    .get(...TRIGGERS) as number;
  if (installed === aggregateDefinition() && triggers === TRIGGERS.length)
    writeTransaction(db, () => foldCallAggregates(db));
  else writeTransaction(db, () => installAggregates(db));
}
