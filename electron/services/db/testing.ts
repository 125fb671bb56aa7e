import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { DbClient } from './client.ts';

/** A fresh temp folder per test (real files, real SQLite); `cleanup` removes them all. */
export function tempDirs(prefix = 'desk-db-') {
  const made: string[] = [];
  return {
    make(): string {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    cleanup(): void {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new, empty SQLite file in `dir` with foreign keys on (as the app opens it), for migration tests. */
export function freshDatabase(dir: string): Database.Database {
  const db = new Database(join(dir, 'test.sqlite'));
  db.pragma('foreign_keys = ON');
  // No fsync per statement: a test that inserts rows one by one otherwise spends its time waiting
  // for the disk (28 s of 30 for migration 0110's 1,400 rows on a loaded machine). What SQLite
  // stores and answers is the same.
  db.pragma('synchronous = OFF');
  return db;
}

/** A ready contact list row with placeholder settings (migration tests that need lists to hang rows on). */
export const insertContactList = (db: Database.Database, id: number): void =>
  void db
    .prepare(
      `INSERT INTO contact_lists (id, name, file_name, file_bytes, status, encoding, delimiter, phone_column,
         country, detected, mapping, headers, setup, counts, created_at, updated_at)
       VALUES (?, 'L', 'l.csv', 10, 'ready', 'utf-8', ',', 'Mobile Number', 'IN', '{}', '[]', '[]', '{}', '{}', 'n', 'n')`,
    )
    .run(id);

/** Every file under `dir`, recursively (to scan a data folder for secrets). */
export const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

/** Inserts the workspace most database tests start from (a production one, its key in the keychain). */
export const insertWorkspace = (db: DbClient, id = 'w1') =>
  db.call('workspaces.insert', {
    id,
    name: 'Production',
    baseUrl: 'https://api.example.com/v0',
    isSandbox: false,
    secretStorage: 'keychain',
  });

/**
 * A data folder's database as an older build left it: schema 0220 (before the rank counts of 0245)
 * with `calls` calls of one workspace, their aggregates folded. Opening it runs migration 0245 over
 * every call, which takes long in proportion (~25 s at a million): what the start-up upgrade
 * screen is for. Real SQLite, real migrations; the calls are made by SQL for speed.
 */
export async function seedPre0245File(file: string, calls: number): Promise<void> {
  const [{ migrate }, { migrations }, { foldCallAggregates }, { writeTransaction }] = await Promise.all([
    import('./migrate.ts'),
    import('./migrations/index.ts'),
    import('./callAggregates.ts'),
    import('./define.ts'),
  ]);
  const db = new Database(file);
  try {
    db.pragma('auto_vacuum = INCREMENTAL'); // as openDatabase makes files (else it VACUUMs first)
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = ON');
    migrate(db, migrations, 220);
    writeTransaction(db, () => {
      db.prepare(
        `INSERT INTO calls (id, workspace_id, status, terminal, created_at, created_ms, raw, first_seen_at,
           updated_at, agent_id, name, call_duration, call_cost, to_number, attempt_ms)
         WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
         SELECT 'c' || i, 'w1', CASE i % 3 WHEN 0 THEN 'failed' ELSE 'completed' END, 1, 'n',
           1700000000000 + i * 60000, '{}', 'n', 'n', 'a' || (i % 7), 'Name ' || (i % 997), i % 300,
           (i % 50) / 10.0, '+9198' || (10000000 + i), 1700000000000 + i * 60000
         FROM n`,
      ).run(calls);
      foldCallAggregates(db);
    });
  } finally {
    db.close();
  }
}
