import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/openDatabase.ts';
import { insertContactList, tempDirs } from '../db/testing.ts';
import { deleteFirst } from './rowStore.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('deleteFirst', () => {
  it('deletes a list’s first entries in key order by a key range (ties on the number kept apart), then the rest, and no other list’s', () => {
    const db = openDatabase(join(dirs.make(), 'c.sqlite'));
    insertContactList(db, 1);
    insertContactList(db, 2);
    const number = db.prepare(`INSERT INTO contact_numbers (list_id, e164, row) VALUES (?, ?, ?)`);
    // List 1: three rows share 919000000002, so a chunk boundary falls inside one number.
    const entries: Array<[number, number]> = [
      [919000000003, 2],
      [919000000002, 9],
      [919000000002, 4],
      [919000000001, 7],
      [919000000002, 6],
    ];
    for (const [e164, row] of entries) number.run(1, e164, row);
    number.run(2, 919000000001, 1);
    const left = (listId: number) =>
      db
        .prepare(`SELECT e164, row FROM contact_numbers WHERE list_id = ? ORDER BY e164, row`)
        .raw()
        .all(listId);

    expect(deleteFirst(db, 'contact_numbers', 1, 3)).toBe(3);
    expect(left(1)).toEqual([
      [919000000002, 9],
      [919000000003, 2],
    ]);
    // Fewer left than asked for: all of them go.
    expect(deleteFirst(db, 'contact_numbers', 1, 3)).toBe(2);
    expect(deleteFirst(db, 'contact_numbers', 1, 3)).toBe(0);
    expect(left(1)).toEqual([]);
    expect(left(2)).toEqual([[919000000001, 1]]);

    const row = db.prepare(
      `INSERT INTO contacts (list_id, row, pos, cells, phone_raw, bucket, issues, reasons) VALUES (?, ?, ?, '[]', '', 0, 0, '')`,
    );
    for (let r = 2; r < 12; r++) row.run(1, r, r - 2);
    row.run(2, 2, 0);
    expect(deleteFirst(db, 'contacts', 1, 4)).toBe(4);
    expect(db.prepare(`SELECT min(row), count(*) FROM contacts WHERE list_id = 1`).raw().get()).toEqual([
      6, 6,
    ]);
    expect(deleteFirst(db, 'contacts', 1, 6)).toBe(6);
    expect(db.prepare(`SELECT list_id, row FROM contacts`).raw().all()).toEqual([[2, 2]]);
    db.close();
  });
});
