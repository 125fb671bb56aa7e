import { afterEach, describe, expect, it } from 'vitest';
import { callSearchQueries } from '../../calls/search/search.queries.ts';
import { migrate } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const planOf = (db: ReturnType<typeof freshDatabase>, sql: string, ...params: unknown[]) =>
  db
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...params)
    .map((r) => (r as { detail: string }).detail)
    .join('; ');

/** A file at 0210 with 300 calls of three agents (150, 100, 50) (one renamed, one never named), indexes measured. */
function seeded() {
  const db = freshDatabase(dirs.make());
  migrate(db, migrations, 210);
  const insert = db.prepare(
    `INSERT INTO calls (id, workspace_id, status, terminal, created_at, created_ms, raw, first_seen_at, updated_at, agent_id, agent_name)
     VALUES (?, 'w1', 'completed', 1, 'n', ?, '{}', 'n', 'n', ?, ?)`,
  );
  for (let i = 0; i < 300; i++) {
    const agent = i < 150 ? 'a1' : i < 250 ? 'a2' : 'a3';
    const name = agent === 'a1' ? (i < 75 ? 'Old name' : 'New name') : agent === 'a2' ? 'Zed' : null;
    insert.run(`c${i}`, i, agent, name);
  }
  db.exec('ANALYZE');
  return db;
}

describe('migration 0220 calls agent index', () => {
  it('counts each agent’s calls from index entries and reads an agent’s first page from the index', () => {
    const db = seeded();
    expect(migrate(db, migrations, 220)).toBe(220);
    expect(db.prepare(`SELECT 1 FROM sqlite_stat1 WHERE idx = 'calls_ws_agent'`).get()).toBeDefined();
    expect(
      planOf(
        db,
        `SELECT agent_id, count(*) FROM calls WHERE workspace_id = ? AND agent_id IS NOT NULL GROUP BY agent_id`,
        'w1',
      ),
    ).toContain('COVERING INDEX calls_ws_agent');
    const page = planOf(
      db,
      `SELECT c.seq FROM calls c WHERE c.workspace_id = ? AND c.agent_id = ? ORDER BY c.created_ms DESC LIMIT 50`,
      'w1',
      'a1',
    );
    expect(page).toContain('INDEX calls_ws_agent');
    expect(page).not.toContain('TEMP B-TREE');
    db.close();
  });

  it('lists agents by calls with the newest call’s name (a renamed agent shows its new name)', () => {
    const db = seeded();
    migrate(db, migrations, 220);
    const { agents } = callSearchQueries['calls.facets'].run(db, { workspaceId: 'w1' });
    expect(agents).toEqual([
      { id: 'a1', name: 'New name', calls: 150 },
      { id: 'a2', name: 'Zed', calls: 100 },
      { id: 'a3', name: null, calls: 50 },
    ]);
    db.close();
  });
});
