import { query } from '../define.ts';

/** How the connection is set up, for the log at start and for tests that the pragmas hold. */
export const diagnosticsQueries = {
  'db.status': query((db, _args: Record<string, never>) => ({
    journalMode: db.pragma('journal_mode', { simple: true }) as string,
    /** 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA */
    synchronous: db.pragma('synchronous', { simple: true }) as number,
    foreignKeys: db.pragma('foreign_keys', { simple: true }) === 1,
    userVersion: db.pragma('user_version', { simple: true }) as number,
    sqliteVersion: (db.prepare('SELECT sqlite_version()').pluck().get() as string) ?? '',
  })),
};
