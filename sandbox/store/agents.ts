import type { Db } from './db.ts';
import type { AgentRow, AgentVersionRow, NumberRow } from './types.ts';

export function createAgentStore(db: Db) {
  const getStmt = db.prepare<[string], AgentRow>('SELECT * FROM agents WHERE id = ?');
  const versionStmt = db.prepare<[string], AgentVersionRow>('SELECT * FROM agent_versions WHERE id = ?');
  const versionsStmt = db.prepare<[string], AgentVersionRow>(
    'SELECT * FROM agent_versions WHERE agent_id = ? ORDER BY created_at, slug',
  );
  return {
    insert(a: AgentRow): void {
      db.prepare(
        `INSERT INTO agents (id, display_name, agent_type, language, orchestration_mode, active_version_id,
           template_name, intro_message, voice, event_subscriptions, is_archived, created_at, updated_at)
         VALUES (@id, @display_name, @agent_type, @language, @orchestration_mode, @active_version_id,
           @template_name, @intro_message, @voice, @event_subscriptions, @is_archived, @created_at, @updated_at)`,
      ).run(a);
    },
    insertVersion(v: AgentVersionRow): void {
      db.prepare(
        `INSERT INTO agent_versions (id, agent_id, slug, description, prompt_sections, custom_variables, call_traffic, created_at)
         VALUES (@id, @agent_id, @slug, @description, @prompt_sections, @custom_variables, @call_traffic, @created_at)`,
      ).run(v);
    },
    get: (id: string): AgentRow | undefined => getStmt.get(id),
    list(limit: number, offset: number): { rows: AgentRow[]; total: number } {
      const rows = db
        .prepare<[number, number], AgentRow>('SELECT * FROM agents ORDER BY created_at, id LIMIT ? OFFSET ?')
        .all(limit, offset);
      const total = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM agents').get()?.n ?? 0;
      return { rows, total };
    },
    all: (): AgentRow[] => db.prepare<[], AgentRow>('SELECT * FROM agents ORDER BY created_at, id').all(),
    version: (id: string): AgentVersionRow | undefined => versionStmt.get(id),
    versions: (agentId: string): AgentVersionRow[] => versionsStmt.all(agentId),
    /** The active version, or the newest when none is marked active. */
    activeVersion(a: AgentRow): AgentVersionRow | undefined {
      if (a.active_version_id) return versionStmt.get(a.active_version_id);
      const all = versionsStmt.all(a.id);
      return all[all.length - 1];
    },
    setSubscriptions(agentId: string, subscriptionsJson: string, now: number): void {
      db.prepare('UPDATE agents SET event_subscriptions = ?, updated_at = ? WHERE id = ?').run(
        subscriptionsJson,
        now,
        agentId,
      );
    },
    callCount(agentId: string): number {
      return (
        db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM calls WHERE agent_id = ?').get(agentId)
          ?.n ?? 0
      );
    },
  };
}
export type AgentStore = ReturnType<typeof createAgentStore>;

export function createNumberStore(db: Db) {
  return {
    insertPool(p: { id: string; name: string }): void {
      db.prepare('INSERT INTO number_pools (id, name) VALUES (@id, @name)').run(p);
    },
    insert(n: NumberRow): void {
      db.prepare(
        `INSERT INTO numbers (id, number, number_pool_id, provider, display_name, agent_id, is_spam, created_at)
         VALUES (@id, @number, @number_pool_id, @provider, @display_name, @agent_id, @is_spam, @created_at)`,
      ).run(n);
    },
    list(limit: number, offset: number): NumberRow[] {
      return db
        .prepare<[number, number], NumberRow>(
          'SELECT * FROM numbers ORDER BY created_at, id LIMIT ? OFFSET ?',
        )
        .all(limit, offset);
    },
    byId: (id: string): NumberRow | undefined =>
      db.prepare<[string], NumberRow>('SELECT * FROM numbers WHERE id = ?').get(id),
    byNumber: (number: string): NumberRow | undefined =>
      db.prepare<[string], NumberRow>('SELECT * FROM numbers WHERE number = ?').get(number),
    /** A workspace number given either as its id or as the phone number itself. */
    resolve(idOrNumber: string): NumberRow | undefined {
      return this.byId(idOrNumber) ?? this.byNumber(idOrNumber);
    },
    inPool: (poolId: string): NumberRow[] =>
      db
        .prepare<[string], NumberRow>(
          'SELECT * FROM numbers WHERE number_pool_id = ? AND is_spam = 0 ORDER BY number',
        )
        .all(poolId),
    poolExists: (poolId: string): boolean =>
      db.prepare<[string], { id: string }>('SELECT id FROM number_pools WHERE id = ?').get(poolId) !==
      undefined,
    /** Calls per caller number, in one pass over the distinct from_numbers lists. */
    callCounts(): Map<string, number> {
      const counts = new Map<string, number>();
      const rows = db
        .prepare<[], { from_numbers: string; n: number }>(
          'SELECT from_numbers, count(*) AS n FROM calls GROUP BY from_numbers',
        )
        .all();
      for (const r of rows) {
        for (const n of JSON.parse(r.from_numbers) as string[]) counts.set(n, (counts.get(n) ?? 0) + r.n);
      }
      return counts;
    },
  };
}
export type NumberStore = ReturnType<typeof createNumberStore>;
