import { afterEach, describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../migrate.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const insertCall = (db: ReturnType<typeof freshDatabase>, id: string, text: string, name = 'Asha') =>
  db
    .prepare(
      `INSERT INTO calls (id, workspace_id, status, terminal, created_at, created_ms, transcript_text, name,
         number_text, raw, first_seen_at, updated_at)
       VALUES (?, 'w1', 'completed', 1, 'n', 1, ?, ?, '919812345678', '{}', 'n', 'n')`,
    )
    .run(id, text, name);

const search = (db: ReturnType<typeof freshDatabase>, q: string) =>
  db
    .prepare(
      `SELECT c.id FROM calls_fts f JOIN calls c ON c.seq = f.rowid WHERE calls_fts MATCH ? ORDER BY c.id`,
    )
    .pluck()
    .all(q);

describe('migration 0050 calls', () => {
  it('goes from 20 to 50 with calls, FTS, recordings, sync state and campaign_lists, keeping what was there', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 20);
    db.prepare(`INSERT INTO app_settings (key, value, updated_at) VALUES ('k', '1', 'n')`).run();
    expect(migrate(db, migrations, 50)).toBe(50);
    expect(schemaVersion(db)).toBe(50);
    const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all();
    expect(tables).toEqual(
      expect.arrayContaining([
        'calls',
        'calls_fts',
        'recordings',
        'call_sync',
        'campaign_lists',
        'app_settings',
      ]),
    );
    expect(db.prepare(`SELECT value FROM app_settings WHERE key = 'k'`).pluck().get()).toBe('1');
  });

  it('keeps one row per call id and the FTS index in step with inserts, updates and deletes', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 50);
    insertCall(db, 'c1', 'hello about the loan offer');
    insertCall(db, 'c2', 'wrong number sorry', 'Ravi');
    expect(() => insertCall(db, 'c1', 'again')).toThrow(/UNIQUE/);
    expect(search(db, 'loan')).toEqual(['c1']);
    expect(search(db, 'ravi')).toEqual(['c2']);
    expect(search(db, '"9198123"*')).toEqual(['c1', 'c2']);
    db.prepare(`UPDATE calls SET transcript_text = 'the loan is approved' WHERE id = 'c2'`).run();
    expect(search(db, 'loan')).toEqual(['c1', 'c2']);
    expect(search(db, 'wrong')).toEqual([]);
    db.prepare(`DELETE FROM calls WHERE id = 'c1'`).run();
    expect(search(db, 'loan')).toEqual(['c2']);
    db.exec(`INSERT INTO calls_fts (calls_fts) VALUES ('integrity-check')`);
  });

  it('refuses an unknown recording state and removes a call’s recording with the call', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 50);
    insertCall(db, 'c1', 'x');
    const rec = db.prepare(`INSERT INTO recordings (call_id, workspace_id, state) VALUES (?, 'w1', ?)`);
    expect(() => rec.run('c1', 'lost')).toThrow(/CHECK/);
    rec.run('c1', 'pending');
    db.prepare(`DELETE FROM calls WHERE id = 'c1'`).run();
    expect(db.prepare(`SELECT count(*) FROM recordings`).pluck().get()).toBe(0);
  });

  it('links a bulk list id to a contact list once per workspace and drops the link with the list', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 50);
    db.prepare(
      `INSERT INTO contact_lists (id, name, file_name, file_bytes, status, encoding, delimiter, phone_column, country,
         detected, mapping, headers, setup, counts, created_at, updated_at)
       VALUES (7, 'L', 'l.csv', 10, 'ready', 'utf-8', ',', 'Mobile Number', 'IN', '{}', '[]', '[]', '{}', '{}', 'n', 'n')`,
    ).run();
    const link = db.prepare(
      `INSERT INTO campaign_lists (workspace_id, bulk_list_id, list_id) VALUES ('w1', ?, 7)`,
    );
    link.run('b1');
    expect(() => link.run('b1')).toThrow(/UNIQUE|PRIMARY/);
    expect(() =>
      db
        .prepare(`INSERT INTO campaign_lists (workspace_id, bulk_list_id, list_id) VALUES ('w1', 'b2', 99)`)
        .run(),
    ).toThrow(/FOREIGN KEY/);
    db.prepare(`DELETE FROM contact_lists WHERE id = 7`).run();
    expect(db.prepare(`SELECT count(*) FROM campaign_lists`).pluck().get()).toBe(0);
  });
});
