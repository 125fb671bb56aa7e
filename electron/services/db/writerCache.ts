// The writer's page cache, sized by the file (issue 28: a million calls synced in more than twice
// linear time). A sync inserts into b-trees keyed at random (call ids, numbers in the chart
// aggregates, talk times in the duration sort): once those outgrow the cache, almost every insert
// reads its page back from the OS and the transaction's dirty pages crowd out the rest. Measured
// on a million-call file (bench/syncStoreMargin.ts, 4,000-call transactions): the writer's CPU
// per stored call 364–374 µs at 64 MB, 233–254 at 256 MB, 223 at 512, 217 at 1 GB. A small file
// keeps SQLite's 64 MB: pages are only held as they are read or written, so the bound is what a
// big file may use, not what every file takes.
import type { Db } from './define.ts';

export const WRITER_CACHE_MIN_KB = 64 * 1024;
export const WRITER_CACHE_MAX_KB = 256 * 1024;
/** Sizes move in steps of this many KB (a growing file changes the cache a few times, not per write). */
const STEP_KB = 16 * 1024;

/** A tenth of the file, from 64 MB to 256 MB (a million calls: ~3 GB, the b-trees written at random ~230 MB). */
export function writerCacheKb(fileBytes: number): number {
  const kb = Math.floor(fileBytes / 10 / 1024 / STEP_KB) * STEP_KB;
  return Math.min(WRITER_CACHE_MAX_KB, Math.max(WRITER_CACHE_MIN_KB, kb));
}

/** Sets the connection's cache for its file's size now (cheap: two header reads). */
export function fitWriterCache(db: Db): void {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const kb = writerCacheKb(pages * pageSize);
  // Negative: KB, not pages.
  if ((db.pragma('cache_size', { simple: true }) as number) !== -kb) db.pragma(`cache_size = -${kb}`);
}
