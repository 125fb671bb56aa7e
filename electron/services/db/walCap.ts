// A hard bound on the WAL (issue 28): the checkpointer thread runs at a low priority, and on a
// loaded machine a million-call sync left it behind for good: a PASSIVE pass copies the frames
// there were when it began, the writer's next commit adds more, so the WAL was never wholly copied
// between two transactions and never started over (1–4 GB, 4.0 GB at 800,000 calls; its dirty
// pages then throttled the writer in the kernel). The writer's own fallback checkpoint (SQLite's
// auto-checkpoint) gives up while the checkpointer holds the checkpoint lock. Past the cap the
// writer checkpoints itself, after a write, waiting for the checkpointer's pass to end (in short
// sleeps: the checkpointer gets the CPU meanwhile); once every frame is copied, the next commit
// starts the WAL over and `journal_size_limit` cuts the file back.
import { statSync } from 'node:fs';
import type { Db } from './define.ts';

/**
 * The WAL's bound: twice the writer's fallback checkpoint (256 MB, worker.ts), so a checkpointer
 * that keeps up never meets it; a 4,000-call commit on a million-call file writes ~85 MB.
 */
export const WAL_CAP_BYTES = 512 * 1024 * 1024;
/** The longest the writer waits for the checkpointer's pass before it goes on (and tries after its next write). */
const WAIT_MS = 10_000;
const SLEEP_MS = 20;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

const walBytes = (walFile: string): number => {
  try {
    return statSync(walFile).size;
  } catch {
    return 0; // no WAL yet
  }
};

export interface WalCapResult {
  /** The WAL's size before, in bytes. */
  bytes: number;
  /** Whether the writer checkpointed (the WAL was past the cap). */
  checkpointed: boolean;
  /** Frames the WAL held and frames copied (PRAGMA wal_checkpoint), when it checkpointed. */
  frames?: number;
  copied?: number;
  /** Milliseconds waited for the checkpointer's pass. */
  waitedMs: number;
}

/**
 * After a write: if the WAL file is past `capBytes`, checkpoint it on this connection (PASSIVE:
 * readers are never waited for), retrying while another connection's checkpoint holds the lock.
 * The WAL file's size is its content: `journal_size_limit` cuts it back whenever it starts over.
 */
export function capWal(db: Db, walFile: string, capBytes = WAL_CAP_BYTES, waitMs = WAIT_MS): WalCapResult {
  const bytes = walBytes(walFile);
  if (bytes <= capBytes) return { bytes, checkpointed: false, waitedMs: 0 };
  const t0 = performance.now();
  for (;;) {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{
      busy: number;
      log: number;
      checkpointed: number;
    }>;
    const waitedMs = performance.now() - t0;
    // busy: the checkpointer's pass holds the lock (SQLite never waits for it in a checkpoint).
    if (row && row.busy === 0)
      return { bytes, checkpointed: true, frames: row.log, copied: row.checkpointed, waitedMs };
    if (waitedMs >= waitMs) return { bytes, checkpointed: false, waitedMs };
    sleep(SLEEP_MS);
  }
}
