import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

let loaded = false;

/**
 * Loads better-sqlite3's native binary in this (the main) thread too. When only a worker thread
 * loads it, Node unloads the binary as the worker exits, and the worker's final garbage
 * collection can then call into unmapped memory: a SIGSEGV on worker exit
 * (WiseLibs/better-sqlite3#1476; seen here once in a full test run). Holding it here keeps it
 * mapped for the life of the process. Requiring the package is not enough (it loads the binary
 * with its first Database), so an in-memory database is opened and closed at once; the app's
 * database itself still lives only in its worker.
 */
export function keepNativeSqliteLoaded(): void {
  if (loaded) return;
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  new Database(':memory:').close();
  loaded = true;
}
