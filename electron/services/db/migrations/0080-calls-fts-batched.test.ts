import { afterEach, describe, expect, it } from 'vitest';
import { callColumns } from '../../sync/callRow.ts';
import type { CallColumns } from '../../sync/callRow.ts';
import { migrate, schemaVersion } from '../migrate.ts';
import { upsertCalls } from '../../calls/store/upsertCalls.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

type Db = ReturnType<typeof freshDatabase>;

const call = (id: string, words: string, status = 'completed'): CallColumns =>
  callColumns({
    id,
    to_number: '+919812345678',
    name: 'Asha Rao',
    status,
    created_at: '2026-11-20T10:00:00Z',
    transcript: JSON.stringify([{ bot: 'Hello Asha' }, { user: words }]),
  });

const search = (db: Db, q: string) =>
  db
    .prepare(
      `SELECT c.id FROM calls_fts f JOIN calls c ON c.seq = f.rowid WHERE calls_fts MATCH ? ORDER BY c.id`,
    )
    .pluck()
    .all(q);

/** FTS5's own check of the index against the calls table (throws on any difference). */
const checkIndex = (db: Db) =>
  db.exec(`INSERT INTO calls_fts (calls_fts, rank) VALUES ('integrity-check', 1)`);

const storeBefore0080 = (db: Db, id: string, text: string) =>
  db
    .prepare(
      `INSERT INTO calls (id, workspace_id, status, terminal, created_at, created_ms, transcript_text, name,
         number_text, raw, first_seen_at, updated_at)
       VALUES (?, 'w1', 'completed', 1, 'n', 1, ?, 'Asha', '919812345678', '{}', 'n', 'n')`,
    )
    .run(id, text);

const store = (db: Db, rows: CallColumns[]) =>
  upsertCalls(db, { workspaceId: 'w1', bulkListId: null, rows, nowIso: '2026-11-20T10:00:00Z' });

describe('migration 0080 calls search indexed per page', () => {
  it('drops the row triggers and keeps calls indexed before it searchable', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 70);
    // Stored as before 0080: the row trigger indexes it.
    storeBefore0080(db, 'c1', 'about the loan offer');
    expect(migrate(db, migrations, 80)).toBe(80);
    expect(schemaVersion(db)).toBe(80);
    const triggers = db.prepare(
      `SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'calls'`,
    );
    expect(triggers.pluck().all()).toEqual(['calls_fts_delete']);
    expect(search(db, 'loan')).toEqual(['c1']);
    expect(search(db, '"lo"*')).toEqual(['c1']);
    expect(search(db, '"9198123"*')).toEqual(['c1']);
    const fts = db.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'calls_fts'`).pluck().get();
    expect(fts).not.toMatch(/prefix/);
    const columns = db.prepare(`SELECT name FROM pragma_table_info('calls')`).pluck().all();
    expect(columns).not.toContain('transcript_json');
    expect(columns).toEqual(expect.arrayContaining(['raw', 'transcript_text', 'transcript_raw']));
    checkIndex(db);
  });

  it('keeps recordings, their rules and their cascade when it rebuilds the table with rowids', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 70);
    storeBefore0080(db, 'c1', 'one');
    storeBefore0080(db, 'c2', 'two');
    db.prepare(
      `INSERT INTO recordings (call_id, workspace_id, state, url, path, bytes, sha256, expires_ms, attempts)
       VALUES ('c1', 'w1', 'saved', 'http://x/1.wav', '/r/c1.wav', 10, 'ab', 5, 1), ('c2', 'w1', 'pending', 'http://x/2.wav', NULL, NULL, NULL, 9, 0)`,
    ).run();
    const before = db.prepare(`SELECT * FROM recordings ORDER BY call_id`).all();
    migrate(db, migrations, 80);
    expect(db.prepare(`SELECT * FROM recordings ORDER BY call_id`).all()).toEqual(before);
    const withoutRowid = db.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'recordings'`).pluck().get();
    expect(withoutRowid).not.toMatch(/WITHOUT ROWID/i);
    expect(
      db
        .prepare(
          `SELECT name FROM sqlite_schema WHERE tbl_name = 'recordings' AND type = 'index' AND sql IS NOT NULL ORDER BY name`,
        )
        .pluck()
        .all(),
    ).toEqual(['recordings_queue', 'recordings_ws_state']);
    const rec = db.prepare(`INSERT INTO recordings (call_id, workspace_id, state) VALUES (?, 'w1', ?)`);
    expect(() => rec.run('c2', 'pending')).toThrow(/UNIQUE|PRIMARY/);
    expect(() => rec.run('nope', 'pending')).toThrow(/FOREIGN KEY/);
    db.prepare(`DELETE FROM calls WHERE id = 'c1'`).run();
    expect(db.prepare(`SELECT call_id FROM recordings`).pluck().all()).toEqual(['c2']);
  });

  it('finds a call updated by a later sync by its new transcript words, not by the removed ones', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations);
    expect(store(db, [call('c1', 'please call me tomorrow', 'ongoing'), call('c2', 'wrong number')])).toEqual(
      {
        inserted: 2,
        updated: 0,
        unchanged: 0,
      },
    );
    expect(search(db, 'tomorrow')).toEqual(['c1']);
    expect(store(db, [call('c1', 'the payment is done', 'completed'), call('c2', 'wrong number')])).toEqual({
      inserted: 0,
      updated: 1,
      unchanged: 1,
    });
    expect(search(db, 'payment')).toEqual(['c1']);
    expect(search(db, 'tomorrow')).toEqual([]);
    expect(search(db, 'wrong')).toEqual(['c2']);
    expect(search(db, 'asha')).toEqual(['c1', 'c2']);
    checkIndex(db);
    db.prepare(`DELETE FROM calls WHERE id = 'c2'`).run();
    expect(search(db, 'wrong')).toEqual([]);
    checkIndex(db);
  });

  it('stores a page and its index entries together or not at all (a failure mid-page leaves neither)', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations);
    store(db, [call('c1', 'first page words')]);
    const broken = { ...call('c3', 'never stored'), status: null as unknown as string };
    expect(() => store(db, [call('c2', 'second page words'), broken])).toThrow(/NOT NULL/);
    expect(db.prepare(`SELECT id FROM calls ORDER BY id`).pluck().all()).toEqual(['c1']);
    expect(search(db, 'second')).toEqual([]);
    expect(search(db, 'words')).toEqual(['c1']);
    checkIndex(db);
  });
});
