import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs } from './testing.ts';
import { fitWriterCache, WRITER_CACHE_MAX_KB, WRITER_CACHE_MIN_KB, writerCacheKb } from './writerCache.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const MB = 1024 * 1024;

describe('writer cache sized by the file', () => {
  it('is 64 MB up to a 640 MB file, a tenth of the file in 16 MB steps above, and 256 MB from 2.5 GB', () => {
    expect(writerCacheKb(0)).toBe(WRITER_CACHE_MIN_KB);
    expect(writerCacheKb(640 * MB)).toBe(64 * 1024);
    expect(writerCacheKb(1000 * MB)).toBe(96 * 1024); // 100 MB rounded down to a 16 MB step
    expect(writerCacheKb(1600 * MB)).toBe(160 * 1024);
    expect(writerCacheKb(2560 * MB)).toBe(WRITER_CACHE_MAX_KB);
    expect(writerCacheKb(3000 * MB)).toBe(256 * 1024);
  });

  it('sets a small file’s connection to 64 MB (SQLite counts KB when negative)', () => {
    const db = new Database(join(dirs.make(), 'test.sqlite'));
    try {
      db.exec(`CREATE TABLE t (x)`);
      db.pragma('cache_size = -2000');
      fitWriterCache(db);
      expect(db.pragma('cache_size', { simple: true })).toBe(-WRITER_CACHE_MIN_KB);
    } finally {
      db.close();
    }
  });
});
