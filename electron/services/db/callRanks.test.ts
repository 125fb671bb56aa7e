// The sync's fold of the rank counts (one statement per kind, rankFoldStatements) against the one
// statement the aggregates' definition is made of (rankFoldSql), on a real SQLite file: the same
// counts from a log of added and taken-back shares, with nulls, fractions, ties and names in any case.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rankFoldSql, rankFoldStatements } from './callRanks.ts';
import type { Db } from './define.ts';
import { openDatabase } from './openDatabase.ts';
import { tempDirs } from './testing.ts';

const dirs = tempDirs('desk-call-ranks-');
afterEach(() => dirs.cleanup());

const NAMES = ['Asha', 'asha', 'ælfred', '', null, 'Vikram Iyer', 'VIKRAM IVY', 'Zoe'];
const DAY = 86_400_000;

/** A log of 600 shares: each call added, every fifth taken back as it was (sign -1). */
function fillLog(db: Db): void {
  const insert = db.prepare(
    `INSERT INTO call_agg_log (sign, workspace_id, bulk_list_id, to_number, status, sub_status, voicemail,
       attempt_ms, call_duration, call_cost, agent_id, created_ms, name)
     VALUES (?, ?, NULL, ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?)`,
  );
  for (let i = 0; i < 600; i++) {
    const created = Date.UTC(2026, 10, 1) + ((i * 7_919) % 40) * (DAY / 7) - 3 * DAY;
    insert.run(
      i % 5 === 4 ? -1 : 1,
      i % 9 === 0 ? 'w2' : 'w1',
      `+1415555${String(i % 50).padStart(4, '0')}`,
      ['completed', 'failed', 'registered'][i % 3]!,
      i % 4 === 0 ? null : created + (i % 17) * 60_000,
      i % 6 === 0 ? null : (i % 30) + (i % 2) * 0.25,
      i % 8 === 0 ? null : i % 3 === 0 ? -0.5 : i % 4,
      i % 7 === 0 ? null : `a${i % 3}`,
      created,
      NAMES[i % NAMES.length] ?? null,
    );
  }
}

const counts = (db: Db) =>
  db.prepare(`SELECT workspace_id, kind, v, t, n FROM call_agg_ranks ORDER BY 1, 2, 3, 4`).raw().all();

describe('the rank counts folded one kind at a time', () => {
  it('gives the counts of the one statement the definition hashes', () => {
    const db = openDatabase(join(dirs.make(), 'campaign-desk.sqlite'));
    try {
      fillLog(db);
      db.exec('SAVEPOINT one');
      db.exec(rankFoldSql('call_agg_log'));
      const one = counts(db);
      db.exec('ROLLBACK TO one');
      db.exec('RELEASE one');
      expect(counts(db)).toEqual([]);
      const statements = rankFoldStatements('call_agg_log');
      expect(statements.length).toBeGreaterThan(1);
      for (const sql of statements) db.prepare(sql).run();
      expect(one.length).toBeGreaterThan(100);
      expect(counts(db)).toEqual(one);
    } finally {
      db.close();
    }
  });
});
