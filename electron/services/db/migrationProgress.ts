import type { Startup } from '../../../shared/ipc/channels/app.ts';
import type { Db } from './define.ts';

/**
 * Where a migration in progress is: the step (`step` of `steps` pending ones), which migration (its
 * name in words, e.g. "call rank counts"), and how far it is (0–1) when it can say so (most cannot:
 * `null`). Sent to the hosts while the database is upgraded at start-up (migrate.ts) as the
 * `upgrading` state of `app:startup`, so the operator sees what takes the time.
 */
export type MigrationProgress = Omit<Extract<Startup, { state: 'upgrading' }>, 'state'>;

const sinks = new WeakMap<Db, (fraction: number) => void>();

/**
 * A long migration step says how far it is (fraction 0–1). A hook beside a migration's work, never
 * part of it: what the step writes is the same with or without a listener (none outside migrate()).
 */
export function reportMigrationFraction(db: Db, fraction: number): void {
  sinks.get(db)?.(Math.min(1, Math.max(0, fraction)));
}

/** Runs `fn` with `sink` receiving the fractions reported on `db` meanwhile. */
export function withMigrationFraction<R>(db: Db, sink: (fraction: number) => void, fn: () => R): R {
  sinks.set(db, sink);
  try {
    return fn();
  } finally {
    sinks.delete(db);
  }
}

/** A migration's file name in words: `call-rank-counts` → "call rank counts". */
export const migrationTitle = (name: string): string => name.replace(/[-_]+/g, ' ').trim();
