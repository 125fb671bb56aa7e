// The chart aggregates' shares of calls a sync page inserts, added up in JavaScript from the
// columns the page already holds, then written with one upsert per key (callAggregates.ts explains
// the aggregates). The SQL fold logged each new call by reading its stored row back (the fat row,
// `raw` and all), then grouped the log seven times, evaluating the outcome for every row of every
// group: 11–15 µs a call, against ~5 for this. Calls a page changes or relinks still go through
// the log (their old share is taken back from the stored row). Each sum is the one the SQL fold
// makes (`foldSql`): the same keys, the outcome from the same table, costs in micro-credits rounded
// as SQLite's round() does; callStatsAggregated.test.ts compares both with a recount.
import { OUTCOME_TABLE } from '../../../shared/domain/callOutcome.ts';
import type { CallOutcome } from '../../../shared/domain/callOutcome.ts';
import { QUARTER_MS } from './callAggregates.ts';
import type { Db } from './define.ts';
import { prepared } from './define.ts';

/** The columns of a new call the aggregates count (as stored: null where the column is NULL). */
export interface CallShare {
  toNumber: string | null;
  status: string;
  subStatus: string | null;
  voicemail: number | null;
  attemptMs: number | null;
  duration: number | null;
  cost: number | null;
}

/**
 * `outcomeSql`'s CASE in JavaScript: a listed sub-status decides; otherwise the status's outcome,
 * voicemail when that is completed and the flag is 1. Own properties only: a status or sub-status
 * is any string the service sends.
 */
function outcome(status: string, subStatus: string | null, voicemail: number | null): CallOutcome {
  if (!Object.hasOwn(OUTCOME_TABLE, status)) return 'other';
  const row = OUTCOME_TABLE[status as keyof typeof OUTCOME_TABLE];
  const bySub = row.bySubStatus as Record<string, CallOutcome>;
  if (subStatus !== null && Object.hasOwn(bySub, subStatus)) return bySub[subStatus]!;
  return row.otherwise === 'completed' && voicemail === 1 ? 'voicemail' : row.otherwise;
}

/** SQLite's round(x) for 0 ≤ x < 2^52 (func.c: `(sqlite_int64)(r + 0.5)`), of the cost in micro-credits. */
const micro = (cost: number | null): number => (cost === null ? 0 : Math.trunc(cost * 1000000 + 0.5));

const NUMBERS_CONFLICT = `ON CONFLICT (workspace_id, scope, bulk_key, to_number) DO UPDATE SET
  calls = calls + excluded.calls, dialled = dialled + excluded.dialled,
  answered = answered + excluded.answered, completed = completed + excluded.completed`;

/** A UTF-16 surrogate not in a pair. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface NewCallShares {
  add(c: CallShare): void;
  /** One upsert per key into the aggregate tables (inside the page's transaction); then empty. */
  write(db: Db): void;
}

export function newCallShares(workspaceId: string, bulkListId: string | null): NewCallShares {
  const bulk = bulkListId ?? '';
  const pairs = new Map<
    string,
    { status: string; sub: string; vm: number; n: number; dialled: number; costN: number; costMicro: number }
  >();
  const slots = new Map<number, { n: number; answered: number; completed: number; costMicro: number }>();
  const values = new Map<string, { kind: string; value: number; n: number }>();
  const numbers = new Map<string, { calls: number; dialled: number; answered: number; completed: number }>();

  return {
    add(c) {
      const dialled = c.attemptMs !== null ? 1 : 0;
      const o = outcome(c.status, c.subStatus, c.voicemail);
      const answered = o === 'completed' || o === 'voicemail' ? 1 : 0;
      const completed = o === 'completed' ? 1 : 0;
      const costMicro = micro(c.cost);
      const sub = c.subStatus === null ? 'n' : `s${c.subStatus}`;
      const vm = c.voicemail ?? -1;
      const pairKey = `${c.status}\u0000${sub}\u0000${vm}`;
      let p = pairs.get(pairKey);
      if (!p)
        pairs.set(pairKey, (p = { status: c.status, sub, vm, n: 0, dialled: 0, costN: 0, costMicro: 0 }));
      p.n++;
      p.dialled += dialled;
      p.costN += c.cost !== null ? 1 : 0;
      p.costMicro += costMicro;
      if (c.attemptMs !== null) {
        // attempt_ms is an INTEGER of 1970–2100: SQLite's `/` is integer division.
        const q = Math.floor(c.attemptMs / QUARTER_MS);
        let s = slots.get(q);
        if (!s) slots.set(q, (s = { n: 0, answered: 0, completed: 0, costMicro: 0 }));
        s.n++;
        s.answered += answered;
        s.completed += completed;
        s.costMicro += costMicro;
      }
      if (c.duration !== null && answered) {
        const kind = dialled ? 'talk' : 'talk_undialled';
        addValue(kind, c.duration);
      }
      if (c.cost !== null) addValue('cost', c.cost);
      if (c.toNumber !== null) {
        let m = numbers.get(c.toNumber);
        if (!m) numbers.set(c.toNumber, (m = { calls: 0, dialled: 0, answered: 0, completed: 0 }));
        m.calls++;
        m.dialled += dialled;
        m.answered += dialled & answered;
        m.completed += dialled & completed;
      }
    },
    write(db) {
      if (pairs.size > 0) {
        const up = prepared(
          db,
          `INSERT INTO call_agg_pairs (workspace_id, bulk_key, status, sub_key, vm_key, n, dialled, cost_n, cost_micro)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (workspace_id, bulk_key, status, sub_key, vm_key) DO UPDATE SET n = n + excluded.n,
             dialled = dialled + excluded.dialled, cost_n = cost_n + excluded.cost_n,
             cost_micro = cost_micro + excluded.cost_micro`,
        );
        for (const p of pairs.values())
          up.run(workspaceId, bulk, p.status, p.sub, p.vm, p.n, p.dialled, p.costN, p.costMicro);
      }
      if (slots.size > 0) {
        const up = prepared(
          db,
          `INSERT INTO call_agg_slots (workspace_id, bulk_key, q, n, answered, completed, cost_micro)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (workspace_id, bulk_key, q) DO UPDATE SET n = n + excluded.n,
             answered = answered + excluded.answered, completed = completed + excluded.completed,
             cost_micro = cost_micro + excluded.cost_micro`,
        );
        for (const [q, s] of slots) up.run(workspaceId, bulk, q, s.n, s.answered, s.completed, s.costMicro);
      }
      if (values.size > 0) {
        const up = prepared(
          db,
          `INSERT INTO call_agg_values (workspace_id, bulk_key, kind, value, n) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (workspace_id, bulk_key, kind, value) DO UPDATE SET n = n + excluded.n`,
        );
        for (const v of values.values()) up.run(workspaceId, bulk, v.kind, v.value, v.n);
      }
      if (numbers.size > 0) {
        // About one number per call: one statement over the page's numbers as JSON (text and
        // integers only, exact) instead of two calls into SQLite per number. A number with a lone
        // surrogate is bound as a string instead (JSON would carry it as an escape).
        const viaJson: Array<[string, number, number, number, number]> = [];
        const bound = prepared(
          db,
          `INSERT INTO call_agg_numbers (workspace_id, scope, bulk_key, to_number, calls, dialled, answered, completed)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ${NUMBERS_CONFLICT}`,
        );
        for (const [n, m] of numbers) {
          if (!LONE_SURROGATE.test(n)) {
            viaJson.push([n, m.calls, m.dialled, m.answered, m.completed]);
            continue;
          }
          bound.run(workspaceId, 'campaign', bulk, n, m.calls, m.dialled, m.answered, m.completed);
          bound.run(workspaceId, 'workspace', '', n, m.calls, m.dialled, m.answered, m.completed);
        }
        if (viaJson.length > 0) {
          const json = JSON.stringify(viaJson);
          const up = prepared(
            db,
            `INSERT INTO call_agg_numbers (workspace_id, scope, bulk_key, to_number, calls, dialled, answered, completed)
             SELECT ?, ?, ?, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?)
             WHERE true ${NUMBERS_CONFLICT}`,
          );
          up.run(workspaceId, 'campaign', bulk, json);
          up.run(workspaceId, 'workspace', '', json);
        }
      }
      pairs.clear();
      slots.clear();
      values.clear();
      numbers.clear();
    },
  };

  function addValue(kind: string, value: number): void {
    // SQL groups equal REALs: 0 and -0 are one key, as String() makes them.
    const key = `${kind}\u0000${value}`;
    let v = values.get(key);
    if (!v) values.set(key, (v = { kind, value, n: 0 }));
    v.n++;
  }
}
