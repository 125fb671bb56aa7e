import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';
import { migration } from './0010-foundation.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const freshDb = () => freshDatabase(dirs.make());
const insertWorkspace = (db: Database.Database, id: string, name: string, sandbox = 0) =>
  db
    .prepare(
      `INSERT INTO workspaces (id, name, base_url, is_sandbox, secret_storage, created_at, updated_at)
       VALUES (?, ?, 'http://127.0.0.1:1/v0', ?, 'keychain', 'now', 'now')`,
    )
    .run(id, name, sandbox);

describe('migration 0010 foundation', () => {
  it('takes an empty database to user_version 10 with its three tables', () => {
    const db = freshDb();
    expect(migrate(db, migrations, migration.version)).toBe(10);
    expect(schemaVersion(db)).toBe(10);
    const tables = db
      .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
      .pluck()
      .all();
    expect(tables).toEqual(['app_settings', 'connection_tests', 'workspaces']);
    db.close();
  });

  it('has no column that could hold a secret', () => {
    const db = freshDb();
    migrate(db, migrations, 10);
    const columns = db
      .prepare(
        `SELECT t.name || '.' || c.name FROM sqlite_schema t, pragma_table_info(t.name) c WHERE t.type = 'table'`,
      )
      .pluck()
      .all() as string[];
    expect(columns.filter((c) => /key|token|secret(?!_storage)|password/i.test(c))).toEqual([
      'app_settings.key',
    ]);
    db.close();
  });

  it('enforces unique names (case-insensitive), a single sandbox and strict types', () => {
    const db = freshDb();
    migrate(db, migrations, 10);
    insertWorkspace(db, 'a', 'Production', 1);
    expect(() => insertWorkspace(db, 'b', 'production')).toThrow(/UNIQUE/);
    expect(() => insertWorkspace(db, 'c', 'Other sandbox', 1)).toThrow(/UNIQUE/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO workspaces (id, name, base_url, secret_storage, created_at, updated_at) VALUES ('d', 'D', 'u', 'plaintext', 'n', 'n')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(() =>
      db.prepare(`INSERT INTO app_settings (key, value, updated_at) VALUES ('k', 'not json', 'n')`).run(),
    ).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO connection_tests (workspace_id, base_url, tested_at, ok, message) VALUES ('a', 'u', 'n', 'yes', 'm')`,
        )
        .run(),
    ).toThrow(/cannot store TEXT value in INTEGER column/);
    db.close();
  });

  it('deletes a workspace’s connection tests with it', () => {
    const db = freshDb();
    migrate(db, migrations, 10);
    insertWorkspace(db, 'a', 'A');
    db.prepare(
      `INSERT INTO connection_tests (workspace_id, base_url, tested_at, ok, message) VALUES ('a', 'u', 'n', 1, 'Connected')`,
    ).run();
    expect(() =>
      db
        .prepare(
          `INSERT INTO connection_tests (workspace_id, base_url, tested_at, ok, message) VALUES ('zz', 'u', 'n', 1, 'm')`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.prepare(`DELETE FROM workspaces WHERE id = 'a'`).run();
    expect(db.prepare(`SELECT count(*) FROM connection_tests`).pluck().get()).toBe(0);
    db.close();
  });
});
