import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.ts';
import { markPositions } from '../../contacts/positionMarks.ts';
import { recount } from '../../contacts/recount.ts';
import { freshDatabase, insertContactList, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';
import { MARK_EVERY } from './0110-contact-position-marks.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const insertRow = `INSERT INTO contacts (list_id, row, pos, cells, phone_raw, e164, bucket, issues, reasons)
  VALUES (?, ?, ?, '[]', '', NULL, 0, 0, '')`;
/** Spreadsheet rows with gaps (blank lines, multi-line records), as a file gives them. */
const rowAt = (pos: number) => 2 + pos * 3 + (pos % 3);

describe('migration 0110 contact position marks', () => {
  it('marks every 256th position of the lists stored before it, drops the position index, and counts rows by the marks', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 100);
    insertContactList(db, 1);
    insertContactList(db, 2);
    for (let pos = 0; pos < 601; pos++) db.prepare(insertRow).run(1, rowAt(pos), pos);
    db.prepare(insertRow).run(2, 5, 0);

    expect(migrate(db, migrations, 110)).toBe(110);
    const marks = (listId: number) =>
      db
        .prepare(`SELECT pos, row FROM contact_marks WHERE list_id = ? ORDER BY pos`)
        .raw()
        .all(listId) as Array<[number, number]>;
    expect(marks(1)).toEqual([
      [0, rowAt(0)],
      [256, rowAt(256)],
      [512, rowAt(512)],
    ]);
    expect(marks(2)).toEqual([[0, 5]]);
    expect(
      db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND name = 'contacts_pos'`).all(),
    ).toEqual([]);
    // Today's counting queries need today's schema (their issue indexes, 0130).
    migrate(db, migrations);
    expect(recount(db, 1).byBucket[0][0]).toBe(601);
    expect(recount(db, 2).byBucket[0][0]).toBe(1);
    // Only marked positions: a mark off the grid is refused.
    expect(() => db.prepare(`INSERT INTO contact_marks (list_id, pos, row) VALUES (2, 3, 9)`).run()).toThrow(
      /CHECK/,
    );

    // An import's batches mark the positions they store, wherever a batch starts.
    insertContactList(db, 3);
    let pos = 0;
    for (const size of [100, 300, 1, 412]) {
      const rows = Array.from({ length: size }, (_, i) => rowAt(pos + i));
      for (let i = 0; i < size; i++) db.prepare(insertRow).run(3, rows[i], pos + i);
      markPositions(db, 3, pos, rows);
      pos += size;
    }
    expect(marks(3).map(([p]) => p)).toEqual([0, MARK_EVERY, 2 * MARK_EVERY, 3 * MARK_EVERY]);
    expect(marks(3)).toEqual(marks(3).map(([p]) => [p, rowAt(p)]));
    expect(recount(db, 3).byBucket[0][0]).toBe(813);

    db.prepare(`DELETE FROM contacts WHERE list_id = 1`).run();
    db.prepare(`DELETE FROM contact_lists WHERE id = 1`).run();
    expect(marks(1)).toEqual([]); // they go with their list
  });
});
