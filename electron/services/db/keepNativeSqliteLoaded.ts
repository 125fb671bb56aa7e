import { createRequire } from 'node:module';

/**
 * Loads better-sqlite3's native binary in this (the main) thread too. When only a worker thread
 * loads it, Node unloads the binary as the worker exits, and the worker's final garbage
 * collection can then call into unmapped memory: a SIGSEGV on worker exit
 * (WiseLibs/better-sqlite3#1476). Holding it here keeps it mapped for the life of the process.
 * Nothing is opened: the database itself still lives only in its worker.
 */
export function keepNativeSqliteLoaded(): void {
  createRequire(import.meta.url)('better-sqlite3');
}
