import Database from 'better-sqlite3';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { tightenFile } from '../privateFiles.ts';
import { ensureCallAggregates } from './callAggregates.ts';
import type { Db } from './define.ts';
import { migrate } from './migrate.ts';
import { fitWriterCache } from './writerCache.ts';
import { migrations as allMigrations } from './migrations/index.ts';
import type { Migration } from './migrations/migration.ts';
import type { MigrationProgress } from './migrationProgress.ts';

export const DATABASE_FILE_NAME = 'campaign-desk.sqlite';

/**
 * How long a statement waits for a lock before SQLITE_BUSY. Only the app's own connections share
 * the file (the data folder is locked: dataDirLock.ts), so a wait is the checkpointer's: its
 * TRUNCATE after a deletion holds the write lock through two fsyncs, which takes long on a busy
 * disk. Waiting longer costs nothing when no one holds a lock. (The timeout only helps a
 * transaction that asks for the lock first: define.ts writeTransaction.)
 */
export const BUSY_TIMEOUT_MS = 30_000;

/**
 * Opens (creating if needed) the app's SQLite file with its pragmas and brings the schema up to
 * date (`onProgress`: told as each pending migration runs). WAL lets readers and the writer overlap; synchronous=NORMAL is durable across app crashes
 * (an OS crash may lose the last commits, never corrupt the file).
 */
export function openDatabase(
  file: string,
  migrations: readonly Migration[] = allMigrations,
  onProgress?: (progress: MigrationProgress) => void,
): Db {
  let db: Db | undefined;
  try {
    db = new Database(file);
    // Private before anything is written to it; SQLite gives -wal and -shm the file's mode.
    tightenFile(file);
    // Free pages go back to the file system in steps (db.reclaimSpace) after a big deletion. A new
    // file gets this before its first table; an older one is rebuilt once (VACUUM) to get it.
    if (db.pragma('auto_vacuum', { simple: true }) !== 2) {
      db.pragma('auto_vacuum = INCREMENTAL');
      db.exec('VACUUM');
    }
    db.pragma('journal_mode = WAL');
  } catch (error) {
    // Not left open: a thread ending with an open connection is one of the suspects of a rare
    // SIGSEGV as it is torn down (the not-a-database test was running when one happened).
    db?.close();
    throw new DeskFailure(
      'database_error',
      `The data file ${file} could not be opened as a Campaign Desk database (${(error as Error).message}). Move it away or choose another data folder.`,
    );
  }
  try {
    for (const suffix of ['-wal', '-shm']) tightenFile(`${file}${suffix}`);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // A 64 MB page cache at least (SQLite's default is 2 MB): bulk changes on a million-row list
    // touch index pages all over the file, and a sync's batch of a few thousand calls dirties more
    // than 2 MB (a spilled cache writes pages to the WAL twice). A big file gets more (writerCache.ts).
    fitWriterCache(db);
    // The WAL file is cut back to 64 MB after a checkpoint (a big import or deletion grows it).
    // Checkpoints stay at SQLite's 4 MB: larger ones stall the queries behind them longer.
    db.pragma('journal_size_limit = 67108864');
    migrate(db, migrations, { file, ...(onProgress ? { onProgress } : {}) });
    // The charts' aggregates follow the outcome table of this version (installed again if not).
    ensureCallAggregates(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A second connection to a file the writer has opened and migrated, for the read lane: it may
 * only read (`query_only`), has its own 32 MB page cache, and waits out the brief locks a WAL
 * restart takes.
 */
export function openReader(file: string): Db {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('query_only = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('cache_size = -32768');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Closes with `PRAGMA optimize`, as SQLite recommends for long-lived connections. */
export function closeDatabase(db: Db): void {
  if (!db.open) return;
  try {
    db.pragma('optimize');
  } finally {
    db.close();
  }
}
