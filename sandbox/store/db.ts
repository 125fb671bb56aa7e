import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { latestVersion, migrations } from './migrations.ts';

export type Db = Database.Database;

/** Open the sandbox database: a file under `dataDir` (survives restarts) or memory. */
export function openDatabase(dataDir?: string): Db {
  let db: Db;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    db = new Database(join(dataDir, 'sandbox.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  } else {
    db = new Database(':memory:');
  }
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = Number(db.pragma('user_version', { simple: true }));
  if (current > latestVersion) {
    throw new Error(`sandbox database is version ${current}, newer than this sandbox (${latestVersion})`);
  }
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}
