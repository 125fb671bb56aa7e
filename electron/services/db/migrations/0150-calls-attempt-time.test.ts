import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('migration 0150 calls attempt time', () => {
  it("fills each stored call's attempt time from its record (any documented form), null when never dialled", () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 120);
    const insert = db.prepare(
      `INSERT INTO calls (id, workspace_id, status, terminal, created_at, created_ms, raw, first_seen_at, updated_at)
       VALUES (?, 'w1', 'completed', 1, 'n', 1, ?, 'n', 'n')`,
    );
    insert.run('a', JSON.stringify({ call_attempt_time: '2026-11-20T10:00:05Z' }));
    insert.run('b', JSON.stringify({ call_attempt_time: '2026-11-20T15:30:05.123456+05:30' }));
    insert.run('c', JSON.stringify({ call_attempt_time: null }));
    insert.run('d', JSON.stringify({}));
    expect(migrate(db, migrations, 150)).toBe(150);
    expect(db.prepare(`SELECT id, attempt_ms FROM calls ORDER BY id`).raw().all()).toEqual([
      ['a', Date.parse('2026-11-20T10:00:05Z')],
      ['b', Date.parse('2026-11-20T10:00:05.123Z')],
      ['c', null],
      ['d', null],
    ]);
    db.prepare(`INSERT INTO campaign_terminations VALUES ('w1', 'bl-1', 'n')`).run();
    expect(() => db.prepare(`INSERT INTO campaign_terminations VALUES ('w1', 'bl-1', 'm')`).run()).toThrow(
      /UNIQUE|PRIMARY/,
    );
  });
});
