import type { ErrorCode } from '../../../shared/ipc/result.ts';
import type { MigrationProgress } from './migrationProgress.ts';

/**
 * Messages between the back end and the database worker. A request names a query of the registry
 * (`services/queries.ts`) and carries its args; SQL never crosses. `$stream.next`/`$stream.return`
 * pull from or close a stream opened by a request naming a stream query.
 */
export type DbRequest =
  | { seq: number; method: string; args: unknown }
  | { seq: number; method: '$stream.next'; args: { stream: number } }
  | { seq: number; method: '$stream.return'; args: { stream: number } }
  /** Closes the database (PRAGMA optimize) and lets the worker exit. */
  | { seq: number; method: '$close'; args: null };

export interface SerializedError {
  name: string;
  message: string;
  /** A DeskFailure thrown by a query keeps its code and field. */
  deskCode?: ErrorCode;
  field?: string;
  /** SQLite's extended result code (SQLITE_FULL, SQLITE_CORRUPT …). */
  sqliteCode?: string;
  stack?: string;
}

export type DbReply =
  | { type: 'reply'; seq: number; ok: true; value: unknown; ms: number }
  | { type: 'reply'; seq: number; ok: false; error: SerializedError; ms: number };

export type DbWorkerMessage =
  /** `reads`: the names of the read-only queries and streams (define.ts `read`, `readStream`), which the read lane answers. */
  | { type: 'ready'; schemaVersion: number; reads: string[] }
  | { type: 'failed'; error: SerializedError }
  /** The writer is upgrading the file (before `ready`): which migration, how far. */
  | { type: 'migrating'; progress: MigrationProgress }
  | DbReply;

/** A stream's open reply and each `$stream.next` reply. */
export interface StreamOpened {
  stream: number;
}
export type StreamStep<R> = { done: false; batch: R[] } | { done: true };

export interface DbWorkerData {
  role: 'campaign-desk-db';
  file: string;
  /**
   * `writer` (the default) opens and migrates the file and answers every query; `reader` opens the
   * already migrated file `query_only` and answers only read queries.
   */
  lane?: 'writer' | 'reader';
}

/**
 * How long a database thread asked to close may take to exit before it is terminated (it was 2 s).
 * Terminating a thread still inside SQLite (a checkpoint or a close behind a busy disk) is the
 * suspected, unconfirmed cause of a rare SIGSEGV in full test runs under load, in a test that
 * closes and reopens the database; a thread that closes cleanly exits long before this.
 */
export const THREAD_EXIT_WAIT_MS = 30_000;
