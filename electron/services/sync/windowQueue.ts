// Windows handed from a planner to the store loop, in time order; the planner stays at most `room`
// windows ahead (what is fetched but not yet stored stays bounded).
import { syncCancelled } from './syncProgress.ts';

export interface WindowQueue<T> {
  push(w: T): void;
  /** The planner has no more windows. */
  end(): void;
  /** The planner failed: `next` throws this. */
  fail(error: unknown): void;
  /** The store loop stopped: the planner stops too. */
  close(): void;
  /** Resolves when the planner may push one more window; throws the cancel failure once closed. */
  hasRoom(): Promise<void>;
  /** The next window, or null once the planner ended. */
  next(): Promise<T | null>;
}

export function windowQueue<T>(room: number): WindowQueue<T> {
  const items: T[] = [];
  let ended = false;
  let closed = false;
  let failed: { error: unknown } | null = null;
  let waiters: Array<() => void> = [];
  const notify = () => {
    const woken = waiters;
    waiters = [];
    for (const w of woken) w();
  };
  const changed = () => new Promise<void>((resolve) => waiters.push(resolve));
  return {
    push(w: T) {
      items.push(w);
      notify();
    },
    end() {
      ended = true;
      notify();
    },
    fail(error: unknown) {
      failed = { error };
      notify();
    },
    close() {
      closed = true;
      notify();
    },
    async hasRoom(): Promise<void> {
      while (items.length >= room && !closed) await changed();
      if (closed) throw syncCancelled();
    },
    async next(): Promise<T | null> {
      for (;;) {
        if (items.length > 0) {
          const w = items.shift()!;
          notify();
          return w;
        }
        if (failed) throw failed.error;
        if (ended) return null;
        await changed();
      }
    },
  };
}
