import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { migrate, schemaVersion } from './migrate.ts';
import type { MigrationProgress } from './migrationProgress.ts';
import { reportMigrationFraction } from './migrationProgress.ts';
import { migrations } from './migrations/index.ts';
import type { Migration } from './migrations/migration.ts';
import { seedPre0245File, tempDirs } from './testing.ts';

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

  it('reports each pending step of an upgrade, i of n with its name, and the fractions a step reports', () => {
    const db = new Database(file());
    const events: MigrationProgress[] = [];
    const long: Migration = {
      version: 30,
      name: 'long-count',
      up(d) {
        d.exec('CREATE TABLE c (x)');
        for (const f of [0.5, 1]) {
          d.exec(`INSERT INTO c VALUES (${f})`);
          reportMigrationFraction(d, f);
        }
      },
    };
    const list = [m(10, 'CREATE TABLE a (x)'), m(20, 'CREATE TABLE b (x)'), long];
    migrate(db, list, 10);
    expect(migrate(db, list, { onProgress: (p) => events.push(p) })).toBe(30);
    expect(events).toEqual([
      { step: 1, steps: 2, version: 20, name: 'm20', fraction: null },
      { step: 2, steps: 2, version: 30, name: 'long count', fraction: null },
      { step: 2, steps: 2, version: 30, name: 'long count', fraction: 0.5 },
      { step: 2, steps: 2, version: 30, name: 'long count', fraction: 1 },
    ]);
    // The hook changes nothing the step writes; outside migrate() it goes nowhere.
    expect(db.prepare('SELECT x FROM c ORDER BY x').pluck().all()).toEqual([0.5, 1]);
    expect(() => reportMigrationFraction(db, 0.5)).not.toThrow();
    db.close();
  });

  it('makes a new file without progress reports (nothing is upgraded)', () => {
    const db = new Database(file());
    const events: MigrationProgress[] = [];
    expect(migrate(db, [m(10, 'CREATE TABLE a (x)')], { onProgress: (p) => events.push(p) })).toBe(10);
    expect(events).toEqual([]);
    db.close();
  });

  it('names the file and the step of a failing upgrade, and keeps the steps before it', () => {
    const path = file();
    const db = new Database(path);
    const list = [
      m(10, 'CREATE TABLE a (x)'),
      m(20, 'CREATE TABLE b (x)'),
      m(30, 'CREATE TABLE c (x); INSERT INTO nope VALUES (1);'),
    ];
    migrate(db, list, 10);
    let error: unknown;
    try {
      migrate(db, list, { file: path });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DeskFailure);
    expect((error as DeskFailure).message).toBe(
      `Upgrading the data file ${path} failed at step 2 of 2 (0030 m30): no such table: nope. ` +
        'Nothing of that step was written (the steps before it are kept). The details are in the log file.',
    );
    expect(schemaVersion(db)).toBe(20);
    expect(db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'c'`).pluck().get()).toBe(0);
    db.close();
  });

  it('reports migration 0245 on a file of calls in shares of its rank counts, rising to the whole', async () => {
    const path = file();
    await seedPre0245File(path, 500);
    const db = new Database(path);
    const events: MigrationProgress[] = [];
    expect(migrate(db, migrations, { onProgress: (p) => events.push(p) })).toBe(245);
    expect(events.map((e) => [e.step, e.steps, e.version, e.name])).toEqual(
      events.map(() => [1, 1, 245, 'call rank counts']),
    );
    const fractions = events.map((e) => e.fraction);
    expect(fractions[0]).toBeNull();
    expect(fractions.length).toBeGreaterThan(2);
    expect(fractions.slice(1)).toEqual([...(fractions.slice(1) as number[])].sort((a, b) => a - b));
    expect(fractions.at(-1)).toBe(1);
    expect(db.prepare(`SELECT sum(n) FROM call_agg_ranks WHERE kind = 'created'`).pluck().get()).toBe(500);
    db.close();
  });
});
