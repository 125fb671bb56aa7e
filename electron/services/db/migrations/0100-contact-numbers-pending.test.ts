import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.ts';
import { ensureNumbers } from '../../contacts/rowStore.ts';
import { freshDatabase, insertContactList, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const insertRow = `INSERT INTO contacts (list_id, row, pos, cells, phone_raw, e164, bucket, issues, reasons)
  VALUES (?, ?, ?, '[]', '', ?, 0, 0, '')`;
const numbers = (db: ReturnType<typeof freshDatabase>, listId: number) =>
  db.prepare(`SELECT e164, row FROM contact_numbers WHERE list_id = ? ORDER BY e164, row`).raw().all(listId);

describe('migration 0100 contact numbers owed', () => {
  it('owes nothing for lists made before it; an owed index is built once, and goes with its list', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 90);
    insertContactList(db, 1);
    db.prepare(insertRow).run(1, 2, 0, 919876543210);
    db.prepare(`INSERT INTO contact_numbers (list_id, e164, row) VALUES (1, 919876543210, 2)`).run();

    expect(migrate(db, migrations, 100)).toBe(100);
    // A list from before kept its index: nothing is owed, nothing is rebuilt.
    expect(ensureNumbers(db, 1)).toBe(false);
    expect(numbers(db, 1)).toEqual([[919876543210, 2]]);

    insertContactList(db, 2);
    for (const [row, e164] of [
      [2, 919123456789],
      [3, null],
      [4, 919000000001],
      [5, 919123456789],
    ] as const)
      db.prepare(insertRow).run(2, row, row - 2, e164);
    db.prepare(`INSERT INTO contact_numbers_pending (list_id) VALUES (2)`).run();
    expect(db.transaction(() => ensureNumbers(db, 2))()).toBe(true);
    expect(numbers(db, 2)).toEqual([
      [919000000001, 4],
      [919123456789, 2],
      [919123456789, 5],
    ]);
    expect(ensureNumbers(db, 2)).toBe(false);

    db.prepare(`INSERT INTO contact_numbers_pending (list_id) VALUES (1)`).run();
    expect(() => db.prepare(`INSERT INTO contact_numbers_pending (list_id) VALUES (9)`).run()).toThrow(
      /FOREIGN KEY/,
    );
    db.prepare(`DELETE FROM contact_lists WHERE id = 1`).run();
    expect(db.prepare(`SELECT list_id FROM contact_numbers_pending`).pluck().all()).toEqual([]);
  });
});
