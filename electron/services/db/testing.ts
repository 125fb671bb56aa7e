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
