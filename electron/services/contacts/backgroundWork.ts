/** Work started in the background (list deletions, number indexes) that shutdown and tests wait for. */
export function createBackgroundWork() {
  const running = new Set<Promise<void>>();
  return {
    /** Tracks `work` until it settles (it must not reject: its errors are its own to log). */
    add(work: Promise<void>): void {
      running.add(work);
      void work.finally(() => running.delete(work));
    },
    /** Resolves once nothing runs, including work started while waiting. */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

export type BackgroundWork = ReturnType<typeof createBackgroundWork>;
