import { query } from '../db/define.ts';
import { handOffWalTruncate } from '../db/walTruncate.ts';

/** Free pages given back per incremental_vacuum within one reclaimSpace step (512 KB). */
const RECLAIM_STEP_PAGES = 128;
/**
 * Up to this many pages in use (10 MB), and no more than are free, reclaimSpace rebuilds the file
 * at once (VACUUM: its cost follows the pages in use, not the free ones). incremental_vacuum
 * looks up each page it moves in the free list: after a 1M-row list went from a 400 MB file,
 * giving back 99,641 free pages took it 3.5-3.9 s, VACUUM 0.44-0.5 s (200 pages in use).
 */
export const VACUUM_MAX_USED_PAGES = 2560;

/** How the connection is set up, for the log at start and for tests that the pragmas hold. */
export const diagnosticsQueries = {
  'db.status': query((db, _args: Record<string, never>) => ({
    journalMode: db.pragma('journal_mode', { simple: true }) as string,
    /** 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA */
    synchronous: db.pragma('synchronous', { simple: true }) as number,
    foreignKeys: db.pragma('foreign_keys', { simple: true }) === 1,
    userVersion: db.pragma('user_version', { simple: true }) as number,
    sqliteVersion: (db.prepare('SELECT sqlite_version()').pluck().get() as string) ?? '',
    /** 0 NONE, 1 FULL, 2 INCREMENTAL */
    autoVacuum: db.pragma('auto_vacuum', { simple: true }) as number,
    freePages: db.pragma('freelist_count', { simple: true }) as number,
  })),
  /**
   * Gives free pages back to the file system (auto_vacuum is INCREMENTAL, see openDatabase) for
   * about `budgetMs`, a bounded step so other queries run in between (moving pages costs more on a
   * slow disk: a fixed count could hold the worker for hundreds of ms); at once by VACUUM when few
   * pages are in use (VACUUM_MAX_USED_PAGES). Once none are left the WAL is checkpointed and
   * truncated so the file on disk shrinks: by the checkpointer thread when there is one (a
   * TRUNCATE waits for locks; on the writer that stalled page reads by ~250 ms). Answers whether
   * free pages remain.
   */
  'db.reclaimSpace': query((db, a: { budgetMs: number }) => {
    const until = performance.now() + a.budgetMs;
    let free = db.pragma('freelist_count', { simple: true }) as number;
    const used = (db.pragma('page_count', { simple: true }) as number) - free;
    if (free > 0 && used <= VACUUM_MAX_USED_PAGES && used <= free) {
      db.exec('VACUUM');
      free = db.pragma('freelist_count', { simple: true }) as number;
    }
    while (free > 0) {
      db.pragma(`incremental_vacuum(${RECLAIM_STEP_PAGES})`);
      free = db.pragma('freelist_count', { simple: true }) as number;
      if (performance.now() >= until) break;
    }
    if (free === 0 && !handOffWalTruncate()) db.pragma('wal_checkpoint(TRUNCATE)');
    return free > 0;
  }),
};
