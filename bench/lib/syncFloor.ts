// The loopback sync's floor (bench/sync.ts part 2, bench/syncCpu.ts): raw paging of the history with
// each body JSON-parsed (its parse CPU counted), and SQLite's own copy of the synced calls into a
// fresh file made by the migrations, with their indexes and search index.
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { TempDb } from '../../electron/services/sync/testing.ts';
import { writerCacheKb } from '../../electron/services/db/writerCache.ts';
import { MAX_BATCH_ROWS } from '../../electron/services/sync/pageStoreChain.ts';

const DAY = 86_400_000;

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

export interface RawPaging {
  calls: number;
  requests: number;
  bytes: number;
  seconds: number;
  parseCpuSeconds: number;
}

/** Pages of one-day windows, 1,000 calls each, one request after another; each body JSON-parsed. */
export async function rawPaging(
  s: { baseUrl: string; apiKey: string },
  fromMs: number,
  toMs: number,
): Promise<RawPaging> {
  let n = 0;
  let requests = 0;
  let bytes = 0;
  let parseCpu = 0;
  const t0 = performance.now();
  for (let start = fromMs; start < toMs; start += DAY) {
    for (let offset = 0; ; offset += 1000) {
      const q = new URLSearchParams({
        start_date: new Date(start - 1000).toISOString(),
        end_date: new Date(Math.min(toMs, start + DAY)).toISOString(),
        limit: '1000',
        offset: String(offset),
      });
      const res = await fetch(`${s.baseUrl}/calling/history?${q}`, { headers: { 'x-api-key': s.apiKey } });
      const text = await res.text();
      requests++;
      bytes += Buffer.byteLength(text);
      if (res.status !== 200) throw new Error(`raw paging: HTTP ${res.status}`);
      const c0 = cpuSeconds();
      const body = JSON.parse(text) as { calls: unknown[] };
      parseCpu += cpuSeconds() - c0;
      n += body.calls.length;
      if (body.calls.length < 1000) break;
    }
  }
  return {
    calls: n,
    requests,
    bytes,
    seconds: (performance.now() - t0) / 1000,
    parseCpuSeconds: parseCpu,
  };
}

/**
 * The floor's SQLite part: the synced calls copied into a fresh file made by the app's migrations
 * (same table, same indexes, same search index), in transactions of the app's largest write
 * batch (`MAX_BATCH_ROWS`, 16,000: the floor is never charged commits the app can save), with the page cache the app's writer has for a file of that size
 * (writerCache.ts; SQLite's 16 MB default spilled a batch's pages). Reading the rows from the
 * synced file is no part of storing them (the app has them from the page): that read, timed
 * alone on the same connection, is taken off.
 */
export async function sqliteCopyCpu(sourceFile: string, openTempDb: () => Promise<TempDb>): Promise<number> {
  const fresh = await openTempDb();
  const file = join(fresh.dir, 'campaign-desk.sqlite');
  await fresh.db.close();
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma(`cache_size = -${writerCacheKb(statSync(sourceFile).size)}`);
    db.prepare(`ATTACH DATABASE ? AS src`).run(sourceFile);
    const maxSeq = db.prepare(`SELECT coalesce(max(seq), 0) FROM src.calls`).pluck().get() as number;
    // Every column read, the long ones to their end (the last column lies past them).
    const read = db.prepare(
      `SELECT total(length(id) + length(raw) + length(coalesce(transcript_raw, '')) + length(transcript_text)
         + length(number_text) + length(updated_at) + coalesce(attempt_ms, 0) * 0)
       FROM src.calls WHERE seq > ? AND seq <= ?`,
    );
    const r0 = cpuSeconds();
    for (let a = 0; a < maxSeq; a += MAX_BATCH_ROWS) read.get(a, a + MAX_BATCH_ROWS);
    const readCpu = cpuSeconds() - r0;
    const copy = db.prepare(`INSERT INTO main.calls SELECT * FROM src.calls WHERE seq > ? AND seq <= ?`);
    const index = db.prepare(
      `INSERT INTO main.calls_fts (rowid, transcript_text, name, number_text)
       SELECT seq, transcript_text, name, number_text FROM main.calls WHERE seq > ? AND seq <= ?`,
    );
    const batch = db.transaction((a: number, b: number) => {
      copy.run(a, b);
      index.run(a, b);
    });
    const c0 = cpuSeconds();
    for (let a = 0; a < maxSeq; a += MAX_BATCH_ROWS) batch(a, a + MAX_BATCH_ROWS);
    return Math.max(0, cpuSeconds() - c0 - readCpu);
  } finally {
    db.close();
    rmSync(fresh.dir, { recursive: true, force: true });
  }
}
