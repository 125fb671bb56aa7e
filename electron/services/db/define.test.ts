import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { writeTransaction } from './define.ts';
import { tempDirs } from './testing.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const HOLD_MS = 400;

/**
 * Another connection, on its own thread, takes the write lock (as the checkpointer's TRUNCATE
 * does), flags it in `state[0]`, holds it HOLD_MS, commits and flags `state[0] = 2`.
 */
function holdWriteLock(file: string, state: Int32Array): Worker {
  const code = `
    const { workerData } = require('node:worker_threads');
    const Database = require(workerData.module);
    const db = new Database(workerData.file);
    db.exec('BEGIN IMMEDIATE');
    db.exec('INSERT INTO t VALUES (2)');
    Atomics.store(workerData.state, 0, 1); Atomics.notify(workerData.state, 0);
    setTimeout(() => {
      db.exec('COMMIT'); db.close();
      Atomics.store(workerData.state, 0, 2); Atomics.notify(workerData.state, 0);
    }, ${HOLD_MS});`;
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Worker(code, { eval: true, workerData: { file, state, module } });
}

function openShared(file: string) {
  const db = new Database(file, { timeout: 30_000 });
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE IF NOT EXISTS t (x INTEGER)');
  return db;
}

describe('writeTransaction (real SQLite file, the lock held from another thread)', () => {
  it('a transaction that reads before it writes waits for a held write lock instead of failing at once', async () => {
    const file = join(dirs.make(), 'lock.sqlite');
    const db = openShared(file);
    const state = new Int32Array(new SharedArrayBuffer(4));
    const holder = holdWriteLock(file, state);
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    Atomics.wait(state, 0, 0, 10_000);
    expect(Atomics.load(state, 0)).toBe(1);

    // Deferred (better-sqlite3's default): the read starts a snapshot, the write is refused at once.
    const deferred = db.transaction(() => {
      db.prepare('SELECT count(*) FROM t').get();
      db.prepare('INSERT INTO t VALUES (3)').run();
    });
    const t0 = performance.now();
    expect(() => deferred()).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    expect(performance.now() - t0).toBeLessThan(HOLD_MS);
    expect(Atomics.load(state, 0)).toBe(1);

    // writeTransaction begins IMMEDIATE: the busy timeout waits for the other commit, then it runs.
    const seen = writeTransaction(db, () => {
      const before = db.prepare('SELECT count(*) FROM t').pluck().get();
      db.prepare('INSERT INTO t VALUES (3)').run();
      return before;
    });
    expect(Atomics.load(state, 0)).toBe(2);
    expect(seen).toBe(1); // the other connection's row, committed before this one began
    expect(db.prepare('SELECT x FROM t ORDER BY x').pluck().all()).toEqual([2, 3]);
    await exited;
    db.close();
  });

  it('nests as a savepoint inside an open transaction', () => {
    const db = openShared(join(dirs.make(), 'nest.sqlite'));
    writeTransaction(db, () => {
      db.prepare('INSERT INTO t VALUES (1)').run();
      expect(() =>
        writeTransaction(db, () => {
          db.prepare('INSERT INTO t VALUES (2)').run();
          throw new Error('inner');
        }),
      ).toThrow('inner');
    });
    expect(db.prepare('SELECT x FROM t').pluck().all()).toEqual([1]);
    db.close();
  });
});
