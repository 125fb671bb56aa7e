import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('migration 0170 suppression', () => {
  it('keeps one entry per number and list, refuses unknown reasons, and one offer per call and kind', () => {
    const db = freshDatabase(dirs.make());
    expect(migrate(db, migrations, 170)).toBe(170);
    const insert = db.prepare(
      `INSERT INTO suppressions (e164, workspace_id, reason, sources, added_by, added_at) VALUES (?, ?, ?, '[]', 'me', 'n')`,
    );
    insert.run(919812345678, 'w1', 'opted_out');
    insert.run(919812345678, '', 'manual');
    expect(() => insert.run(919812345678, 'w1', 'manual')).toThrow(/UNIQUE|PRIMARY/);
    expect(() => insert.run(919812345679, 'w1', 'because')).toThrow(/CHECK/);
    const offer = db.prepare(
      `INSERT INTO suppression_offers (workspace_id, kind, call_id, e164, created_at) VALUES ('w1', 'dnd_skipped', 'c1', 1, 'n')`,
    );
    offer.run();
    expect(() => offer.run()).toThrow(/UNIQUE/);
  });
});
