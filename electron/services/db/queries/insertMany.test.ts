import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { insertMany } from './insertMany.ts';

describe('insertMany', () => {
  it('inserts every row, in order, whether fewer than, as many as or more than a statement takes', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT)`);
    let next = 1;
    for (const rows of [0, 1, 99, 100, 101, 250]) {
      db.exec(`DELETE FROM t`);
      const values: unknown[] = [];
      const want: unknown[][] = [];
      for (let i = 0; i < rows; i++, next++) {
        values.push(next, next * 2, `row ${next}`);
        want.push([next, next * 2, `row ${next}`]);
      }
      expect(insertMany(db, `INSERT INTO t (id, a, b)`, 3, values)).toBe(rows);
      expect(db.prepare(`SELECT id, a, b FROM t ORDER BY id`).raw().all()).toEqual(want);
    }
    db.close();
  });

  it('counts only the rows an OR IGNORE head inserted', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER)`);
    insertMany(db, `INSERT INTO t (id, a)`, 2, [5, 0, 150, 0]);
    const values: unknown[] = [];
    for (let id = 1; id <= 200; id++) values.push(id, id);
    // 200 rows over two full statements; ids 5 and 150 are already there.
    expect(insertMany(db, `INSERT OR IGNORE INTO t (id, a)`, 2, values)).toBe(198);
    expect(db.prepare(`SELECT a FROM t WHERE id IN (5, 150)`).pluck().all()).toEqual([0, 0]);
    db.close();
  });
});
