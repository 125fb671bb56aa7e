/**
 * Background database threads (the writer, the checkpointer) run at a lower OS priority than the
 * threads that answer the operator (the main thread, the read lane): on two cores a sync's writes
 * otherwise take the CPU a Calls page read is waiting for. Linux keeps a nice value per thread, so
 * the thread's own id (from /proc/thread-self) is reniced. Elsewhere priorities are per process
 * (os.setPriority would lower the whole app, the UI with it): nothing is done there. A nice value
 * raised cannot be lowered again without privileges, so this is for threads that stay background.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** This thread's kernel id on Linux, or null where /proc/thread-self does not say. */
function kernelThreadId(): number | null {
  try {
    const m = /\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/** Raises this thread's nice value by `by` (at most 19); answers the new value, or null when not done. */
export function lowerThisThreadPriority(by: number): number | null {
  const tid = kernelThreadId();
  if (tid === null || tid === process.pid) return null; // never the process's main thread
  try {
    const nice = Math.min(19, getPriority(tid) + by);
    setPriority(tid, nice);
    return getPriority(tid);
  } catch {
    return null; // refused (a sandbox, a seccomp profile): the thread keeps its priority
  }
}
