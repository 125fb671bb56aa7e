import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const at20 = () => {
  const db = freshDatabase(dirs.make());
  migrate(db, migrations, 20);
  db.prepare(
    `INSERT INTO workspaces (id, name, base_url, is_sandbox, secret_storage, created_at, updated_at)
     VALUES ('w1', 'W', 'http://x/v0', 0, 'keychain', 'n', 'n')`,
  ).run();
  db.prepare(
    `INSERT INTO contact_lists (id, name, file_name, file_bytes, status, encoding, delimiter, phone_column, country,
       detected, mapping, headers, setup, counts, created_at, updated_at)
     VALUES (1, 'L', 'l.csv', 10, 'ready', 'utf-8', ',', 'Mobile Number', 'IN', '{}', '[]', '[]', '{}', '{}', 'n', 'n')`,
  ).run();
  return db;
};

const addAgent = (db: Database.Database, id: string, draft = false) =>
  db
    .prepare(
      `INSERT INTO agents (workspace_id, id, name, is_local_draft, detail_raw, draft_prompt, updated_at)
       VALUES ('w1', ?, 'A', ?, ?, ?, 'n')`,
    )
    .run(id, draft ? 1 : 0, draft ? null : '{}', draft ? 'p' : null);

describe('migration 0030 agents', () => {
  it('goes from contacts (20) to 30 with the agent tables, keeping what was there', () => {
    const db = at20();
    expect(migrate(db, migrations, 30)).toBe(30);
    expect(schemaVersion(db)).toBe(30);
    const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all();
    expect(tables).toEqual(
      expect.arrayContaining(['agents', 'agent_sync', 'agent_subscription_drafts', 'agent_mappings']),
    );
    expect(db.prepare(`SELECT count(*) FROM contact_lists`).pluck().get()).toBe(1);
    db.close();
  });

  it('needs the service answer for a synced agent and the prompt for a local draft', () => {
    const db = at20();
    migrate(db, migrations, 30);
    addAgent(db, 'a1');
    addAgent(db, 'local-1', true);
    expect(() =>
      db
        .prepare(
          `INSERT INTO agents (workspace_id, id, name, is_local_draft, updated_at) VALUES ('w1', 'x', 'X', 0, 'n')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO agents (workspace_id, id, name, is_local_draft, updated_at) VALUES ('w1', 'y', 'Y', 1, 'n')`,
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(() => addAgent(db, 'a1')).toThrow(/UNIQUE|PRIMARY/);
    db.close();
  });

  it('drops drafts with their agent, mappings with their list, everything with the workspace', () => {
    const db = at20();
    migrate(db, migrations, 30);
    addAgent(db, 'a1');
    addAgent(db, 'a2');
    const draft = db.prepare(
      `INSERT INTO agent_subscription_drafts (workspace_id, agent_id, subscriptions, reason, saved_at) VALUES ('w1', ?, '[]', 'r', 'n')`,
    );
    draft.run('a1');
    draft.run('a2');
    expect(() => draft.run('nope')).toThrow(/FOREIGN KEY/);
    db.prepare(`INSERT INTO agent_sync (workspace_id, synced_at) VALUES ('w1', 'n')`).run();
    db.prepare(
      `INSERT INTO agent_mappings (workspace_id, agent_id, list_id, mapping, updated_at) VALUES ('w1', 'a1', 1, '[]', 'n')`,
    ).run();
    db.prepare(`DELETE FROM agents WHERE id = 'a1'`).run();
    expect(db.prepare(`SELECT agent_id FROM agent_subscription_drafts`).pluck().all()).toEqual(['a2']);
    db.prepare(`DELETE FROM contact_lists WHERE id = 1`).run();
    expect(db.prepare(`SELECT count(*) FROM agent_mappings`).pluck().get()).toBe(0);
    db.prepare(`DELETE FROM workspaces WHERE id = 'w1'`).run();
    for (const table of ['agents', 'agent_sync', 'agent_subscription_drafts'])
      expect(db.prepare(`SELECT count(*) FROM ${table}`).pluck().get()).toBe(0);
    db.close();
  });
});
