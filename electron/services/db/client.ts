import { Worker } from 'node:worker_threads';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { Logger } from '../logging/logger.ts';
import { silentLogger } from '../logging/logger.ts';
import { workerEntryUrl } from '../workerEntry.ts';
import type { DbRequest, DbWorkerData, DbWorkerMessage, StreamOpened, StreamStep } from './protocol.ts';
import { THREAD_EXIT_WAIT_MS } from './protocol.ts';
import type { QueryArgs, QueryName, QueryResult, StreamName, StreamRow } from '../queries.ts';
import { keepNativeSqliteLoaded } from './keepNativeSqliteLoaded.ts';
import { deserializeError } from './serializeError.ts';
import type { MigrationProgress } from './migrationProgress.ts';

/** The back end's handle on the database worker: named queries only, typed from the registry. */
export interface DbClient {
  /** `transfer`: buffers of `args` moved to the worker rather than copied (they become unusable here). */
  call<M extends QueryName>(
    method: M,
    args: QueryArgs<M>,
    transfer?: readonly ArrayBuffer[],
  ): Promise<QueryResult<M>>;
  /**
   * Pulls a named stream batch by batch; breaking out of the loop closes it in the worker.
   * `readAhead`: the next batch is asked for before this one is handed over, so the worker reads
   * it while the caller works (an export writing CSV); only for callers that write nothing the
   * next batch could see.
   */
  stream<M extends StreamName>(
    method: M,
    args: QueryArgs<M>,
    options?: { readAhead?: boolean },
  ): AsyncIterable<StreamRow<M>[]>;
  readonly schemaVersion: number;
  /** Resolves true once the read lane answers read queries, false if there is none (in-memory, or it failed). */
  readonly readLane: Promise<boolean>;
  close(): Promise<void>;
}

/** Queries slower than this are logged (with their name, never their args). */
const SLOW_QUERY_MS = 200;

const stoppedMessage =
  'The database stopped unexpectedly. Restart Campaign Desk; the details are in the log file.';

interface Lane {
  /** Resolves once the worker has opened (and, the writer, migrated) the database. */
  ready: Promise<{ schemaVersion: number; reads: string[] }>;
  send(request: Omit<DbRequest, 'seq'>, transfer?: readonly ArrayBuffer[]): Promise<unknown>;
  /** Set once the worker has stopped (crashed, or closed). */
  readonly stopped: Error | null;
  close(): Promise<void>;
  terminate(): Promise<void>;
}

/** One database worker thread and its requests in flight. */
function startLane(
  file: string,
  lane: 'writer' | 'reader',
  logger: Logger,
  onUpgrade?: (progress: MigrationProgress) => void,
): Lane {
  const workerData: DbWorkerData = { role: 'campaign-desk-db', file, lane };
  const worker = new Worker(
    workerEntryUrl(new URL('../databaseThread.ts', import.meta.url), 'db-worker.js'),
    {
      workerData,
    },
  );
  type Pending = { method: string; resolve: (value: unknown) => void; reject: (error: Error) => void };
  const pending = new Map<number, Pending>();
  let seq = 0;
  let stopped: Error | null = null;
  let closing = false;

  const failAll = (error: Error) => {
    stopped = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };

  const ready = new Promise<{ schemaVersion: number; reads: string[] }>((resolve, reject) => {
    worker.on('message', (message: DbWorkerMessage) => {
      if (message.type === 'ready') return resolve(message);
      if (message.type === 'failed') return reject(deserializeError(message.error, 'open'));
      if (message.type === 'migrating') return onUpgrade?.(message.progress);
      const p = pending.get(message.seq);
      if (!p) return;
      pending.delete(message.seq);
      if (message.ms > SLOW_QUERY_MS)
        logger.warn('slow query', { method: p.method, ms: Math.round(message.ms) });
      if (message.ok) p.resolve(message.value);
      else p.reject(deserializeError(message.error, p.method));
    });
    worker.on('error', (error) => {
      logger.error(`database ${lane} failed`, error);
      reject(error);
      failAll(new DeskFailure('database_error', stoppedMessage));
    });
    worker.on('exit', (code) => {
      if (!closing) logger.error(`database ${lane} exited`, undefined, { code });
      reject(new DeskFailure('database_error', stoppedMessage));
      failAll(new DeskFailure('database_error', closing ? 'The database is closed.' : stoppedMessage));
    });
  });

  const send = (request: Omit<DbRequest, 'seq'>, transfer: readonly ArrayBuffer[] = []): Promise<unknown> => {
    if (stopped) return Promise.reject(stopped);
    const id = ++seq;
    return new Promise((resolve, reject) => {
      pending.set(id, { method: request.method, resolve, reject });
      worker.postMessage({ ...request, seq: id }, [...transfer]);
    });
  };

  return {
    ready,
    send,
    get stopped() {
      return stopped;
    },
    async close() {
      if (closing) return;
      closing = true;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      await send({ method: '$close', args: null }).catch(() => undefined);
      await Promise.race([exited, new Promise((r) => setTimeout(r, THREAD_EXIT_WAIT_MS).unref())]);
      await worker.terminate();
    },
    async terminate() {
      closing = true;
      await worker.terminate();
    },
  };
}

/**
 * Starts the database worker on `file` and resolves once it has opened and migrated the database,
 * or rejects with the worker's DeskFailure (e.g. a schema newer than this app). Then starts the
 * read lane: read queries (define.ts `read`) go to a second connection on its own thread, so they
 * never wait behind the writer. Without it (still starting, an in-memory database, or a lane that
 * failed) the writer answers everything.
 */
export async function openDbClient(options: {
  file: string;
  logger?: Logger;
  /** false: no read lane (a one-shot command of the CLI: no page waits for it, no thread to start). */
  readLane?: boolean;
  /** Told as the writer upgrades the file (pending migrations), before this resolves. */
  onUpgrade?: (progress: MigrationProgress) => void;
}): Promise<DbClient> {
  const logger = options.logger ?? silentLogger;
  keepNativeSqliteLoaded();
  const writer = startLane(options.file, 'writer', logger, options.onUpgrade);
  let opened: { schemaVersion: number; reads: string[] };
  try {
    opened = await writer.ready;
  } catch (error) {
    await writer.terminate();
    throw error;
  }
  // The read lane starts in the background (its thread takes a few hundred ms to load): until it
  // is ready, the writer answers reads too.
  let reader: Lane | null = null;
  let closed = false;
  const readLane =
    options.file === ':memory:' || options.readLane === false
      ? Promise.resolve(false)
      : (async () => {
          const lane = startLane(options.file, 'reader', logger);
          try {
            await lane.ready;
          } catch (error) {
            logger.warn('database read lane unavailable; the writer answers reads', {
              message: (error as Error).message,
            });
            await lane.terminate();
            return false;
          }
          if (closed) {
            await lane.close();
            return false;
          }
          reader = lane;
          return true;
        })();
  const reads = new Set(opened.reads);
  const laneFor = (method: string): Lane =>
    reader && !reader.stopped && reads.has(method) ? reader : writer;
  const send = (request: Omit<DbRequest, 'seq'>, transfer?: readonly ArrayBuffer[]): Promise<unknown> => {
    const lane = laneFor(request.method);
    if (lane === writer) return writer.send(request, transfer);
    // A read lane that stops answers nothing more: its reads go to the writer.
    return lane.send(request, transfer).catch((error: unknown) => {
      if (reader?.stopped && !writer.stopped) return writer.send(request, transfer);
      throw error;
    });
  };

  return {
    schemaVersion: opened.schemaVersion,
    readLane,
    call: (method, args, transfer) => send({ method, args }, transfer) as Promise<never>,
    stream<M extends StreamName>(
      method: M,
      args: QueryArgs<M>,
      options?: { readAhead?: boolean },
    ): AsyncIterable<StreamRow<M>[]> {
      return {
        async *[Symbol.asyncIterator]() {
          // A stream is pulled from the lane that opened it (its iterator lives there).
          const lane = laneFor(method);
          const { stream } = (await lane.send({ method, args })) as StreamOpened;
          const next = () =>
            lane.send({ method: '$stream.next', args: { stream } }) as Promise<StreamStep<StreamRow<M>>>;
          let finished = false;
          let ahead: Promise<StreamStep<StreamRow<M>>> | null = null;
          try {
            for (;;) {
              const step = await (ahead ?? next());
              ahead = null;
              if (step.done) {
                finished = true;
                return;
              }
              if (options?.readAhead) ahead = next();
              yield step.batch;
            }
          } finally {
            // A batch asked for ahead is awaited first: it may have been the last (stream closed).
            if (ahead) finished = (await ahead.catch(() => ({ done: false }))).done;
            if (!finished && !lane.stopped) await lane.send({ method: '$stream.return', args: { stream } });
          }
        },
      };
    },
    async close() {
      closed = true;
      // The reader first: the writer's close is then the last one, which removes the WAL.
      await readLane;
      await reader?.close();
      await writer.close();
    },
  };
}
