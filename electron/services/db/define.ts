import type BetterSqlite3 from 'better-sqlite3';

export type Db = BetterSqlite3.Database;

/**
 * A named query: runs inside the database worker, synchronously, with plain-data args and result
 * (they cross the worker boundary by structured clone). SQL text never leaves this folder.
 */
export interface QueryDef<A, R> {
  readonly kind: 'query';
  /**
   * Only reads: answered by the read lane (a second connection on its own thread, `worker.ts`),
   * so a page read never queues behind a long write or its commit. WAL lets both run at once.
   */
  readonly read?: true;
  run(db: Db, args: A): R;
}

/**
 * A named stream: yields batches (arrays of rows) one `next()` at a time, pulled by the client, so
 * a million-row read never sits in memory at once and other queries run between batches.
 * Each `next()` must finish its own SQL (keyset paging with `.all()`): never keep an `.iterate()`
 * open across yields, because better-sqlite3 refuses other statements while one is iterating.
 */
export interface StreamDef<A, R> {
  readonly kind: 'stream';
  /** Only reads: opened and pulled on the read lane (an export never waits behind a bulk change). */
  readonly read?: true;
  open(db: Db, args: A): Iterator<R[], void, undefined>;
}

export const query = <A, R>(run: (db: Db, args: A) => R): QueryDef<A, R> => ({ kind: 'query', run });

/**
 * Runs `fn` as one write transaction, begun IMMEDIATE (a savepoint when already inside one).
 * A deferred transaction that reads before it writes is refused at once (SQLITE_BUSY, the busy
 * timeout never waits) when another connection holds the write lock at that moment, and the
 * checkpointer's TRUNCATE does hold it; IMMEDIATE takes the lock first, so that case waits.
 */
export const writeTransaction = <R>(db: Db, fn: () => R): R => db.transaction(fn).immediate();
/** A query whose whole run is one write transaction. */
export const txQuery = <A, R>(run: (db: Db, args: A) => R): QueryDef<A, R> =>
  query((db, args) => writeTransaction(db, () => run(db, args)));
/** Several reads as one snapshot, on the read lane (whose connection never writes). */
export const readSnapshot = <R>(db: Db, fn: () => R): R => db.transaction(fn).deferred();
/**
 * A query that only reads and need not see writes still in flight: the grid's and the review's
 * page reads. The read lane's connection is `query_only`, so a write there fails loudly.
 */
export const read = <A, R>(run: (db: Db, args: A) => R): QueryDef<A, R> => ({ ...query(run), read: true });
export const stream = <A, R>(open: (db: Db, args: A) => Iterator<R[], void, undefined>): StreamDef<A, R> => ({
  kind: 'stream',
  open,
});
/** A stream that only reads (exports): the read lane answers it; each batch is one snapshot. */
export const readStream = <A, R>(
  open: (db: Db, args: A) => Iterator<R[], void, undefined>,
): StreamDef<A, R> => ({ ...stream(open), read: true });

const statementCache = new WeakMap<Db, Map<string, BetterSqlite3.Statement>>();

/** Prepares a statement once per connection and reuses it (prepare is the expensive part). */
export function prepared<P extends unknown[] | object = unknown[], R = unknown>(
  db: Db,
  sql: string,
): BetterSqlite3.Statement<P, R> {
  let cache = statementCache.get(db);
  if (!cache) statementCache.set(db, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = db.prepare(sql)));
  return statement as unknown as BetterSqlite3.Statement<P, R>;
}
