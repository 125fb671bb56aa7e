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
      insertMany(db, `INSERT INTO t (id, a, b)`, 3, values);
      expect(db.prepare(`SELECT id, a, b FROM t ORDER BY id`).raw().all()).toEqual(want);
    }
    db.close();
  });
});
