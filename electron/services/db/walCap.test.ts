import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from './define.ts';
import { openDatabase } from './openDatabase.ts';
import { capWal } from './walCap.ts';

const MB = 1024 * 1024;
const CAP = 4 * MB;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * The writer as the DB worker opens it, on a real file, with no auto-checkpoint at all (what the
 * writer has while a starved checkpointer holds the checkpoint lock), sizes scaled down: `journal_size_limit`
 * below the cap, as 64 MB is below 512 MB.
 */
function starvedWriter(): { db: Db; wal: string } {
  const dir = mkdtempSync(join(tmpdir(), 'desk-walcap-'));
  dirs.push(dir);
  const file = join(dir, 'campaign-desk.sqlite');
  const db = openDatabase(file);
  db.pragma('wal_autocheckpoint = 0');
  db.pragma(`journal_size_limit = ${MB}`);
  db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body BLOB NOT NULL)');
  return { db, wal: `${file}-wal` };
}

/** 30 transactions of ~0.5 MB each (new rows and rewritten ones); the WAL's size after each. */
function write(db: Db, wal: string, afterEach: () => void): number[] {
  const insert = db.prepare('INSERT OR REPLACE INTO filler (id, body) VALUES (?, randomblob(?))');
  const sizes: number[] = [];
  for (let t = 0; t < 30; t++) {
    db.transaction(() => {
      for (let i = 0; i < 64; i++) insert.run((t * 64 + i) % 1000, 8000);
    })();
    afterEach();
    sizes.push(statSync(wal).size);
  }
  return sizes;
}

describe('capWal', () => {
  it('keeps the WAL of a real file within the cap and one transaction when nothing else checkpoints', () => {
    const { db, wal } = starvedWriter();
    const results: ReturnType<typeof capWal>[] = [];
    const sizes = write(db, wal, () => results.push(capWal(db, wal, CAP)));
    db.close();
    // ~0.6 MB a transaction: the cap plus one transaction's frames, never more.
    expect(Math.max(...sizes)).toBeLessThan(CAP + 1.5 * MB);
    const done = results.filter((r) => r.checkpointed);
    expect(done.length).toBeGreaterThanOrEqual(2);
    // Each checkpoint copied the whole WAL (no reader held it), so the next commit started it over.
    for (const r of done) expect(r.copied).toBe(r.frames);
    expect(results.filter((r) => !r.checkpointed).every((r) => r.bytes <= CAP)).toBe(true);
  });

  it('without it the same writes grow the WAL past the cap (what the cap bounds)', () => {
    const { db, wal } = starvedWriter();
    const sizes = write(db, wal, () => undefined);
    db.close();
    expect(Math.max(...sizes)).toBeGreaterThan(3 * CAP);
  });
});
