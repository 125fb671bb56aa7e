import { afterEach, describe, expect, it } from 'vitest';
import { callColumns } from '../../sync/callRow.ts';
import { migrate } from '../migrate.ts';
import { upsertCalls } from '../../calls/store/upsertCalls.ts';
import { freshDatabase, tempDirs } from '../testing.ts';
import { migrations } from './index.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

type Db = ReturnType<typeof freshDatabase>;

/** A call stored by the upsert (row, search index, recording). */
const storeCall = (db: Db, id: string, url: string | null = null) =>
  upsertCalls(db, {
    workspaceId: 'w1',
    bulkListId: null,
    rows: [
      callColumns({ id, status: 'completed', created_at: '2026-11-20T10:00:00Z', audio_recording: url }),
    ],
    nowIso: 'n',
  });

describe('migration 0090 recordings keyed by the call seq', () => {
  it('keeps every recording with its call, its rules and its cascade, keyed by the call rowid', () => {
    const db = freshDatabase(dirs.make());
    migrate(db, migrations, 80);
    // Stored as at version 80 (the row, then its search index, as calls.upsert did then).
    for (const id of ['c0', 'c1', 'c2'])
      db.prepare(
        `INSERT INTO calls (id, workspace_id, status, terminal, created_at, created_ms, transcript_text, name,
           number_text, raw, first_seen_at, updated_at)
         VALUES (?, 'w1', 'completed', 1, 'n', 1, 'hello', 'Asha', '919812345678', '{}', 'n', 'n')`,
      ).run(id);
    db.exec(
      `INSERT INTO calls_fts (rowid, transcript_text, name, number_text) SELECT seq, transcript_text, name, number_text FROM calls`,
    );
    db.prepare(
      `INSERT INTO recordings (call_id, workspace_id, state, url, path, bytes, sha256, expires_ms, attempts, next_try_ms, error, saved_at)
       VALUES ('c2', 'w1', 'pending', 'http://x/2.wav', NULL, NULL, NULL, 9, 0, 0, NULL, NULL),
              ('c1', 'w1', 'saved', 'http://x/1.wav', '/r/c1.wav', 10, 'ab', 5, 1, 3, 'e', 't')`,
    ).run();
    const byCall = `SELECT c.id, r.workspace_id, r.state, r.url, r.path, r.bytes, r.sha256, r.expires_ms, r.attempts,
        r.next_try_ms, r.error, r.saved_at FROM recordings r JOIN calls c ON %JOIN% ORDER BY c.id`;
    const before = db.prepare(byCall.replace('%JOIN%', 'c.id = r.call_id')).all();
    expect(migrate(db, migrations, 90)).toBe(90);
    expect(db.prepare(byCall.replace('%JOIN%', 'c.seq = r.seq')).all()).toEqual(before);
    expect(db.prepare(`SELECT name FROM pragma_table_info('recordings')`).pluck().all()).not.toContain(
      'call_id',
    );
    expect(
      db
        .prepare(
          `SELECT name FROM sqlite_schema WHERE tbl_name = 'recordings' AND type = 'index' ORDER BY name`,
        )
        .pluck()
        .all(),
    ).toEqual(['recordings_queue', 'recordings_ws_state']); // no index of a text key
    const rec = db.prepare(`INSERT INTO recordings (seq, workspace_id, state) VALUES (?, 'w1', 'pending')`);
    const seqOf = (id: string) => db.prepare(`SELECT seq FROM calls WHERE id = ?`).pluck().get(id) as number;
    expect(() => rec.run(seqOf('c2'))).toThrow(/UNIQUE|PRIMARY/);
    expect(() => rec.run(999)).toThrow(/FOREIGN KEY/);
    db.prepare(`DELETE FROM calls WHERE id = 'c1'`).run();
    expect(db.prepare(`SELECT seq FROM recordings`).pluck().all()).toEqual([seqOf('c2')]);

    // The upsert (today's calls table: the later migrations) queues a new call's recording under
    // its seq, and a later page updates it while pending.
    migrate(db, migrations);
    storeCall(db, 'c3', 'http://x/3.wav');
    const c3 = () => db.prepare(`SELECT state, url FROM recordings WHERE seq = ?`).get(seqOf('c3'));
    expect(c3()).toEqual({ state: 'pending', url: 'http://x/3.wav' });
    storeCall(db, 'c3', 'http://x/3b.wav');
    expect(c3()).toEqual({ state: 'pending', url: 'http://x/3b.wav' });
    db.exec(`INSERT INTO calls_fts (calls_fts, rank) VALUES ('integrity-check', 1)`);
  });
});
