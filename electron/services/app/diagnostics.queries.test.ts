import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/openDatabase.ts';
import { tempDirs } from '../db/testing.ts';
import { diagnosticsQueries, VACUUM_MAX_USED_PAGES } from './diagnostics.queries.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const reclaim = diagnosticsQueries['db.reclaimSpace'].run;
/** A table of `pages` pages or so (rows of ~1 KB: four to a 4 KB page). */
const fill = (db: ReturnType<typeof openDatabase>, table: string, pages: number) => {
  db.exec(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, pad TEXT NOT NULL)`);
  const insert = db.prepare(`INSERT INTO ${table} (pad) VALUES (?)`);
  db.transaction(() => {
    for (let i = 0; i < pages * 4; i++) insert.run('x'.repeat(900) + i);
  })();
};

describe('db.reclaimSpace', () => {
  it('gives every free page back in one call by rebuilding the file when few pages are in use', () => {
    const file = join(dirs.make(), 'r.sqlite');
    const db = openDatabase(file);
    fill(db, 'big', 4000);
    db.exec('DROP TABLE big');
    const free = db.pragma('freelist_count', { simple: true }) as number;
    expect(free).toBeGreaterThan(3000);
    // A budget of 0 ms gives incremental steps one round of 128 pages: only a rebuild frees them all.
    expect(reclaim(db, { budgetMs: 0 })).toBe(false);
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    expect(statSync(file).size).toBeLessThan(1_000_000);
    db.close();
  });

  it('gives free pages back in time-bounded steps when many pages are still in use', () => {
    const file = join(dirs.make(), 'r.sqlite');
    const db = openDatabase(file);
    fill(db, 'kept', VACUUM_MAX_USED_PAGES + 500);
    fill(db, 'gone', 1000);
    db.exec('DROP TABLE gone');
    const free = db.pragma('freelist_count', { simple: true }) as number;
    expect(free).toBeGreaterThan(128 * 3);
    // One step of 128 pages per call (budget 0), then the next …
    expect(reclaim(db, { budgetMs: 0 })).toBe(true);
    expect(db.pragma('freelist_count', { simple: true })).toBe(free - 128);
    let calls = 1;
    while (reclaim(db, { budgetMs: 0 })) calls++;
    expect(calls).toBe(Math.ceil(free / 128) - 1);
    expect(db.pragma('freelist_count', { simple: true })).toBe(0);
    expect(db.prepare(`SELECT count(*) FROM kept`).pluck().get()).toBe((VACUUM_MAX_USED_PAGES + 500) * 4);
    db.close();
  });
});
