import { afterEach, describe, expect, it } from 'vitest';
import { freshDatabase, tempDirs } from '../db/testing.ts';
import { blankCellSql } from './blankCell.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('blankCellSql', () => {
  it("agrees with JavaScript's trim on every whitespace kind, and treats a missing cell as blank", () => {
    const db = freshDatabase(dirs.make());
    db.exec('CREATE TABLE t (cells TEXT)');
    const values = [
      '',
      ' ',
      '\t\r\n',
      '\u00a0',
      '\u3000 \u2009',
      '\ufeff',
      '\u2028',
      'x',
      ' x ',
      '\u200b',
      '0',
    ];
    const insert = db.prepare('INSERT INTO t (cells) VALUES (?)');
    for (const v of values) insert.run(JSON.stringify([v]));
    insert.run(JSON.stringify([]));
    const blank = db
      .prepare(`SELECT ${blankCellSql(0)} AS b FROM t ORDER BY rowid`)
      .pluck()
      .all();
    expect(blank).toEqual([...values.map((v) => (v.trim() === '' ? 1 : 0)), 1]);
    expect(blank.slice(0, values.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0]);
    expect(() => blankCellSql(-1)).toThrow(/bad column/);
    db.close();
  });
});
