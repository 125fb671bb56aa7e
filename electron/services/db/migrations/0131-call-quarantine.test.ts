import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('migration 0131 call quarantine', () => {
  it('keeps one row per workspace and record, the same record apart in two workspaces', () => {
    const db = freshDatabase(dirs.make());
    expect(migrate(db, migrations, 131)).toBe(131);
    const insert = db.prepare(
      `INSERT INTO call_quarantine (workspace_id, record_key, call_id, field, reason, raw, first_seen_at, last_seen_at)
       VALUES (?, ?, ?, 'created_at', 'bad date', '{}', 't', 't')`,
    );
    insert.run('w1', 'c1', 'c1');
    insert.run('w2', 'c1', 'c1');
    insert.run('w1', 'h:abc', null);
    expect(() => insert.run('w1', 'c1', 'c1')).toThrow(/UNIQUE/);
    expect(
      db.prepare(`SELECT workspace_id, record_key FROM call_quarantine ORDER BY 1, 2`).raw().all(),
    ).toEqual([
      ['w1', 'c1'],
      ['w1', 'h:abc'],
      ['w2', 'c1'],
    ]);
  });
});
