import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.ts';
import { freshDatabase, insertContactList, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('migration 0120 contact undo states', () => {
  it('keeps one entry per list and row, and its entries go with their list', () => {
    const db = freshDatabase(dirs.make());
    expect(migrate(db, migrations, 120)).toBe(120);
    insertContactList(db, 1);
    const insert = db.prepare(
      `INSERT INTO contact_undo_states (list_id, row, e164, bucket, issues, reasons, duplicate_of, excluded) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    insert.run(1, 2, 919876543210, 0, 0, '', 0, 0);
    insert.run(1, 3, null, 1, 16, 'phone_invalid', 0, 1);
    expect(() => insert.run(1, 2, 12015550123, 0, 0, '', 0, 0)).toThrow(/UNIQUE/);
    expect(() => insert.run(9, 2, null, 1, 16, '', 0, 0)).toThrow(/FOREIGN KEY/);
    expect(db.prepare(`SELECT row, e164 FROM contact_undo_states ORDER BY row`).raw().all()).toEqual([
      [2, 919876543210],
      [3, null],
    ]);
    db.prepare(`DELETE FROM contact_lists WHERE id = 1`).run();
    expect(db.prepare(`SELECT count(*) FROM contact_undo_states`).pluck().get()).toBe(0);
  });
});
