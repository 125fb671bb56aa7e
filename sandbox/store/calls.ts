import type { Statement } from 'better-sqlite3';
import type { Db } from './db.ts';
import type { CallRow, NewCall } from './types.ts';

/** Every writable column of `calls` (rowid excluded), in table order. */
export const callColumns = [
  'id',
  'source',
  'created_at',
  'updated_at',
  'to_number',
  'name',
  'callee_name',
  'status',
  'sub_status',
  'transcript',
  'recording_token',
  'recording_path',
  'recording_expires_at',
  'agent_id',
  'agent_name',
  'agent_version_id',
  'version_slug',
  'orchestration_mode',
  'call_duration',
  'call_attempt_time',
  'call_cost',
  'call_type',
  'call_direction',
  'inbound_from',
  'credits_processed',
  'from_numbers',
  'from_number_id',
  'number_pool_id',
  'voicemail_detected',
  'bulk_list_id',
  'row_number',
  'attempt_count',
  'next_attempt_at',
  'custom_args_values',
  'prompt_text',
  'callback_url',
  'callback_args',
  'call_config',
  'window_start_at',
  'window_end_at',
  'concurrency_percentage',
  'voice_id',
  'call_category',
  'parent_call_id',
  'analysis',
] as const satisfies ReadonlyArray<keyof CallRow>;
type CallColumn = (typeof callColumns)[number];
const columnSet = new Set<string>(callColumns);

const defaults: Partial<Record<CallColumn, unknown>> = {
  call_type: 'outbound',
  call_direction: 'outbound',
  credits_processed: 0,
  from_numbers: '[]',
  voicemail_detected: 0,
  attempt_count: 0,
  custom_args_values: '{}',
};

export interface HistoryFilter {
  startMs?: number;
  endMs?: number;
  agentId?: string;
  status?: string;
  bulkListId?: string;
  limit: number;
  offset: number;
}

export function createCallStore(db: Db) {
  const insertStmt = db.prepare<unknown[]>(
    `INSERT INTO calls (${callColumns.join(', ')}) VALUES (${callColumns.map(() => '?').join(', ')})`,
  );
  const getStmt = db.prepare<[string], CallRow>('SELECT * FROM calls WHERE id = ?');
  const updateStmts = new Map<string, Statement>();
  const pageStmts = new Map<string, Statement<unknown[], CallRow>>();
  const countStmts = new Map<string, Statement<unknown[], { n: number }>>();
  const changesStmt = db.prepare<[], { n: number }>('SELECT total_changes() AS n');
  // Totals are cached per filter until anything is written (total_changes() moves on every write,
  // including writes other modules make with their own SQL).
  const countCache = new Map<string, { changes: number; total: number }>();

  // Positional parameters, in column order (binding 45 named parameters per row costs more).
  function toParams(c: NewCall, now: number): unknown[] {
    const values = c as Partial<Record<CallColumn, unknown>>;
    return callColumns.map((col) => {
      if (col === 'updated_at') return c.updated_at ?? now;
      const v = values[col];
      return v !== undefined ? v : (defaults[col] ?? null);
    });
  }

  function where(f: HistoryFilter): { sql: string; args: unknown[]; key: string } {
    const conds: string[] = [];
    const args: unknown[] = [];
    const keys: string[] = [];
    const add = (key: string, cond: string, value: unknown) => {
      conds.push(cond);
      args.push(value);
      keys.push(key);
    };
    if (f.startMs !== undefined) add('s', 'created_at >= ?', f.startMs);
    if (f.endMs !== undefined) add('e', 'created_at <= ?', f.endMs);
    if (f.agentId !== undefined) add('a', 'agent_id = ?', f.agentId);
    if (f.status !== undefined) add('st', 'status = ?', f.status);
    if (f.bulkListId !== undefined) add('b', 'bulk_list_id = ?', f.bulkListId);
    return { sql: conds.length ? `WHERE ${conds.join(' AND ')}` : '', args, key: keys.join(',') };
  }

  return {
    insert(c: NewCall, now: number = c.created_at): void {
      insertStmt.run(...toParams(c, now));
    },

    /** Many calls in one transaction (campaign starts, seeding). */
    insertMany(calls: Iterable<NewCall>, now: number): number {
      let n = 0;
      db.transaction(() => {
        for (const c of calls) {
          insertStmt.run(...toParams(c, now));
          n++;
        }
      })();
      return n;
    },

    get(id: string): CallRow | undefined {
      return getStmt.get(id);
    },

    /** Change some columns of one call; `updated_at` is set to `now`. Unknown columns throw. */
    update(id: string, patch: Partial<Omit<CallRow, 'rowid' | 'id'>>, now: number): boolean {
      const cols = Object.keys(patch).filter((k) => k !== 'updated_at');
      for (const c of cols) if (!columnSet.has(c)) throw new Error(`calls has no column ${c}`);
      const key = cols.join(',');
      let stmt = updateStmts.get(key);
      if (!stmt) {
        const sets = [...cols.map((c) => `${c} = @${c}`), 'updated_at = @updated_at'];
        stmt = db.prepare(`UPDATE calls SET ${sets.join(', ')} WHERE id = @id`);
        updateStmts.set(key, stmt);
      }
      const res = stmt.run({ ...patch, id, updated_at: now });
      return res.changes > 0;
    },

    /** One history page, newest first, plus the number of calls matching the filter. */
    history(f: HistoryFilter): { rows: CallRow[]; total: number } {
      const w = where(f);
      let page = pageStmts.get(w.key);
      if (!page) {
        // Deferred join: page through the (covering) index, then fetch only the page's rows.
        page = db.prepare(
          `SELECT * FROM calls WHERE rowid IN (
             SELECT rowid FROM calls ${w.sql} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?
           ) ORDER BY created_at DESC, rowid DESC`,
        );
        pageStmts.set(w.key, page);
      }
      let count = countStmts.get(w.key);
      if (!count) {
        count = db.prepare(`SELECT count(*) AS n FROM calls ${w.sql}`);
        countStmts.set(w.key, count);
      }
      const rows = f.limit === 0 ? [] : page.all(...w.args, f.limit, f.offset);
      const cacheKey = `${w.key}|${JSON.stringify(w.args)}`;
      const changes = changesStmt.get()?.n ?? 0;
      const cached = countCache.get(cacheKey);
      let total: number;
      if (cached && cached.changes === changes) total = cached.total;
      else {
        total = count.get(...w.args)?.n ?? 0;
        if (countCache.size > 200) countCache.clear();
        countCache.set(cacheKey, { changes, total });
      }
      return { rows, total };
    },

    /** Calls per status of one bulk list. */
    statusCountsForList(bulkListId: string): Record<string, number> {
      const rows = db
        .prepare<[string], { status: string; n: number }>(
          'SELECT status, count(*) AS n FROM calls WHERE bulk_list_id = ? GROUP BY status',
        )
        .all(bulkListId);
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },

    /** Calls per status, whole workspace. */
    statusCounts(): Record<string, number> {
      const rows = db
        .prepare<[], { status: string; n: number }>('SELECT status, count(*) AS n FROM calls GROUP BY status')
        .all();
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },

    countOngoing(): number {
      return (
        db.prepare<[], { n: number }>("SELECT count(*) AS n FROM calls WHERE status = 'ongoing'").get()?.n ??
        0
      );
    },

    /**
     * Cancel the calls that may still be cancelled (registered or retry) among those matching.
     * Returns the ids changed.
     */
    terminate(
      match: { callIds?: string[]; agentId?: string; bulkListId?: string; mobileNumbers?: string[] },
      subStatus: string,
      now: number,
    ): string[] {
      const conds: string[] = ["status IN ('registered', 'retry')"];
      const args: unknown[] = [];
      if (match.callIds) {
        conds.push(`id IN (${match.callIds.map(() => '?').join(', ') || "''"})`);
        args.push(...match.callIds);
      }
      if (match.agentId) {
        conds.push('agent_id = ?');
        args.push(match.agentId);
      }
      if (match.bulkListId) {
        conds.push('bulk_list_id = ?');
        args.push(match.bulkListId);
      }
      if (match.mobileNumbers) {
        conds.push(`to_number IN (${match.mobileNumbers.map(() => '?').join(', ') || "''"})`);
        args.push(...match.mobileNumbers);
      }
      const sql = conds.join(' AND ');
      return db.transaction(() => {
        const ids = db
          .prepare<unknown[], { id: string }>(`SELECT id FROM calls WHERE ${sql}`)
          .all(...args)
          .map((r) => r.id);
        if (ids.length > 0) {
          db.prepare(
            `UPDATE calls SET status = 'cancelled', sub_status = ?, next_attempt_at = NULL, updated_at = ? WHERE ${sql}`,
          ).run(subStatus, now, ...args);
        }
        return ids;
      })();
    },
  };
}
export type CallStore = ReturnType<typeof createCallStore>;
