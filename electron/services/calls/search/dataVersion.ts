import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';

/**
 * Changes when the database may have changed for this connection: `PRAGMA data_version` when
 * another connection committed, `total_changes()` when this one wrote. Keys the search's
 * per-connection caches.
 */
export const dataVersion = (db: Db): string =>
  `${String(db.pragma('data_version', { simple: true }))}:${String(
    prepared<[], number>(db, `SELECT total_changes()`).pluck().get(),
  )}`;
