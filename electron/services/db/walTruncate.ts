/**
 * Who truncates the WAL once a big deletion has given its pages back: the checkpointer thread when
 * the DB worker runs one (it waits for locks on its own thread, never the writer's), else the
 * caller itself (a connection opened without the worker, as in some tests).
 */
let handOff: (() => void) | null = null;

/** The DB worker registers its checkpointer here (null when it stops). */
export function setWalTruncateHandOff(fn: (() => void) | null): void {
  handOff = fn;
}

/** Asks for a TRUNCATE checkpoint; answers false when nobody took it (run it yourself then). */
export function handOffWalTruncate(): boolean {
  if (!handOff) return false;
  handOff();
  return true;
}
