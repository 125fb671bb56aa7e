import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { migrate, schemaVersion } from './migrate.ts';
import type { Migration } from './migrations/migration.ts';
import { tempDirs } from './testing.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());
const file = () => join(dirs.make(), 'm.sqlite');

const m = (version: number, sql: string): Migration => ({
  version,
  name: `m${version}`,
  up: (db) => db.exec(sql),
});

describe('migrate', () => {
  it('applies pending migrations in order and records each in user_version', () => {
    const db = new Database(file());
    const list = [m(20, 'ALTER TABLE a ADD COLUMN y TEXT'), m(10, 'CREATE TABLE a (x)')];
    expect(migrate(db, list, 10)).toBe(10);
    expect(migrate(db, list)).toBe(20);
    expect(migrate(db, list)).toBe(20); // nothing left to do
    expect(db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('a')).toEqual(['x', 'y']);
    db.close();
  });

  it('rolls a failing migration back whole and keeps the last good version', () => {
    const db = new Database(file());
    const list = [m(10, 'CREATE TABLE a (x)'), m(20, 'CREATE TABLE b (x); INSERT INTO nope VALUES (1);')];
    expect(() => migrate(db, list)).toThrow(/no such table: nope/);
    expect(schemaVersion(db)).toBe(10);
    expect(db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'b'`).pluck().get()).toBe(0);
    db.close();
  });

  it('refuses a database written by a newer app with a clear message', () => {
    const path = file();
    const db = new Database(path);
    db.pragma('user_version = 990');
    let error: unknown;
    try {
      migrate(db, [m(10, 'CREATE TABLE a (x)')]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DeskFailure);
    expect((error as DeskFailure).code).toBe('database_error');
    expect((error as DeskFailure).message).toBe(
      'This data folder was written by a newer Campaign Desk (schema 990 > 10). Update the app or choose another data folder.',
    );
    expect(db.prepare(`SELECT count(*) FROM sqlite_schema`).pluck().get()).toBe(0); // untouched
    db.close();
  });
});
