/**
 * The WAL checkpointer: a second connection, on its own thread, that copies committed pages from
 * the WAL into the database file. SQLite otherwise checkpoints inside the writer's COMMIT (every
 * 1000 pages), so the DB worker would wait for the copy and its two fsyncs: with a sync or an
 * import writing hundreds of MB that was ~40% of the writer's time. The DB worker wakes this thread
 * after writes; it checkpoints (PASSIVE: never blocks the writer or readers), at most every
 * CHECKPOINT_GAP_MS. The writer keeps a high auto-checkpoint of its own as a fallback.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { lowerThisThreadPriority } from './threadPriority.ts';

export interface CheckpointerData {
  role: 'campaign-desk-checkpointer';
  file: string;
}

/**
 * Writer → checkpointer: `wake` after a write; `truncate` after a deletion gave pages back (the
 * next checkpoint also empties the WAL file); `close` to stop (answered by `closed`).
 */
export type CheckpointerRequest = 'wake' | 'truncate' | 'close';
export type CheckpointerMessage = 'ready' | 'closed';

/** Shortest gap between two checkpoints (each costs two fsyncs whatever it copies). */
export const CHECKPOINT_GAP_MS = 100;

function main(port: NonNullable<typeof parentPort>, data: CheckpointerData) {
  // Pure background: copies what is committed, whenever it gets the CPU.
  lowerThisThreadPriority(10);
  const db = new Database(data.file, { fileMustExist: true });
  db.pragma('busy_timeout = 1000');
  let lastAt = 0;
  let truncate = false;
  let timer: NodeJS.Timeout | null = null;

  const checkpoint = () => {
    timer = null;
    lastAt = performance.now();
    // [busy, frames in the WAL, frames copied]: what a PASSIVE pass could not copy (a reader on
    // older pages) is copied by the next wake.
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
      if (truncate) {
        // Pages are copied already: this waits (here, not in the writer) for the write lock only
        // to empty the WAL file.
        db.pragma('wal_checkpoint(TRUNCATE)');
        truncate = false;
      }
    } catch {
      // SQLITE_BUSY (the writer's own fallback checkpoint runs): the next wake copies the rest.
    }
  };

  port.on('message', (request: CheckpointerRequest) => {
    if (request === 'close') {
      if (timer) clearTimeout(timer);
      db.close();
      port.postMessage('closed' satisfies CheckpointerMessage);
      port.close();
      return;
    }
    if (request === 'truncate') truncate = true;
    if (timer) return;
    timer = setTimeout(checkpoint, Math.max(0, lastAt + CHECKPOINT_GAP_MS - performance.now()));
  });
  port.postMessage('ready' satisfies CheckpointerMessage);
}

const data = workerData as CheckpointerData | undefined;
if (parentPort && data?.role === 'campaign-desk-checkpointer') main(parentPort, data);
