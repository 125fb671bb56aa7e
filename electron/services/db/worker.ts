/**
 * The database worker: the only place better-sqlite3 runs. The writer lane opens the file,
 * migrates, then answers `{seq, method, args}` requests one at a time with named queries from the
 * registry. The read lane (a second instance, `lane: 'reader'`) answers only read queries on its
 * own connection, at the same time as the writer (WAL).
 */
import { Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { CheckpointerData, CheckpointerMessage, CheckpointerRequest } from './checkpointer.ts';
import type { Db, QueryDef, StreamDef } from './define.ts';
import { readSnapshot } from './define.ts';
import { closeDatabase, openDatabase, openReader } from './openDatabase.ts';
import { schemaVersion } from './migrate.ts';
import type { DbReply, DbRequest, DbWorkerData, DbWorkerMessage, StreamStep } from './protocol.ts';
import { THREAD_EXIT_WAIT_MS } from './protocol.ts';
import { serializeError } from './serializeError.ts';
import { workerEntryUrl } from '../workerEntry.ts';
import { setWalTruncateHandOff } from './walTruncate.ts';
import { lowerThisThreadPriority } from './threadPriority.ts';
import { fitWriterCache } from './writerCache.ts';
import { capWal } from './walCap.ts';

/** The writer's nice value above the app's (threadPriority.ts): reads and the UI go first. */
const WRITER_NICE = 5;

/**
 * SQLite's own auto-checkpoint, in pages: its default, and the writer's fallback while the
 * checkpointer runs. The fallback is 256 MB of WAL: a sync's transaction of 4,000 calls writes
 * ~21,000 pages on a million-call file (~7,500 at 100,000), and past the fallback every commit
 * copied the WAL itself, on the writer's thread, instead of the checkpointer's (measured on a
 * million-call file: 238 → 167 µs of the writer's CPU per stored call; bench/syncStoreMargin.ts).
 */
const AUTO_CHECKPOINT_PAGES = 1000;
const FALLBACK_CHECKPOINT_PAGES = 65_536;
/** How often, at most, the writer's cache is fitted to the file again after writes (writerCache.ts). */
const CACHE_FIT_GAP_MS = 2000;

/**
 * Starts the checkpointer thread (checkpointer.ts) on the open file: once it is ready the writer
 * checkpoints only past FALLBACK_CHECKPOINT_PAGES; if it fails, SQLite's default comes back.
 * Returns `wake` (after a write) and `stop` (before the writer closes, so the writer's close is
 * the last one and removes the WAL).
 */
function startCheckpointer(db: Db, file: string): { wake(): void; stop(): Promise<void> } {
  const data: CheckpointerData = { role: 'campaign-desk-checkpointer', file };
  const thread = new Worker(
    workerEntryUrl(new URL('./checkpointer.ts', import.meta.url), 'db-checkpointer.js'),
    {
      workerData: data,
    },
  );
  let running = false;
  const fallBack = () => {
    running = false;
    setWalTruncateHandOff(null);
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  };
  thread.on('message', (message: CheckpointerMessage) => {
    if (message !== 'ready') return;
    running = true;
    db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
    setWalTruncateHandOff(() => thread.postMessage('truncate' satisfies CheckpointerRequest));
    // Writes made while it started (the migrations, the first requests) are copied now.
    thread.postMessage('wake' satisfies CheckpointerRequest);
  });
  thread.on('error', fallBack);
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  void exited.then(fallBack);
  return {
    wake() {
      if (running) thread.postMessage('wake' satisfies CheckpointerRequest);
    },
    async stop() {
      running = false;
      setWalTruncateHandOff(null);
      thread.postMessage('close' satisfies CheckpointerRequest);
      await Promise.race([exited, new Promise((r) => setTimeout(r, THREAD_EXIT_WAIT_MS).unref())]);
      await thread.terminate();
    },
  };
}

export type AnyQuery = QueryDef<unknown, unknown> | StreamDef<unknown, unknown>;

/**
 * Serves one lane of the database on this thread with the given registry. The registry is passed
 * in by the thread's entry (`services/databaseThread.ts`) so that `db/` imports no domain: each
 * domain owns its SQL (`<domain>/*.queries.ts`) and imports `db/define.ts`, never the reverse.
 */
export function serveDatabase(port: MessagePort, data: DbWorkerData, registry: Record<string, AnyQuery>) {
  /** The names of the queries that only read (define.ts `read`): the read lane's whole repertoire. */
  const readNames = Object.entries(registry)
    .filter(([, def]) => def.read === true)
    .map(([name]) => name);
  const post = (message: DbWorkerMessage) => port.postMessage(message);
  const reader = data.lane === 'reader';
  if (!reader) lowerThisThreadPriority(WRITER_NICE);
  let db: Db;
  try {
    db = reader
      ? openReader(data.file)
      : openDatabase(data.file, undefined, (progress) => post({ type: 'migrating', progress }));
  } catch (error) {
    post({ type: 'failed', error: serializeError(error) });
    return;
  }
  const streams = new Map<number, Iterator<unknown[], void, undefined>>();
  const checkpointer = reader || data.file === ':memory:' ? null : startCheckpointer(db, data.file);
  const walFile = `${data.file}-wal`;
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  let changes = totalChanges.get() as number;
  let cacheFittedAt = performance.now();

  const answer = (request: DbRequest): unknown => {
    if (request.method === '$stream.next' || request.method === '$stream.return') {
      const id = (request.args as { stream: number }).stream;
      const iterator = streams.get(id);
      if (!iterator) throw new Error(`No open stream ${id}`);
      if (request.method === '$stream.return') {
        streams.delete(id);
        iterator.return?.();
        return { done: true } satisfies StreamStep<unknown>;
      }
      const step = reader ? readSnapshot(db, () => iterator.next()) : iterator.next();
      if (step.done) {
        streams.delete(id);
        return { done: true } satisfies StreamStep<unknown>;
      }
      return { done: false, batch: step.value } satisfies StreamStep<unknown>;
    }
    const def = Object.prototype.hasOwnProperty.call(registry, request.method)
      ? registry[request.method]
      : undefined;
    if (!def) throw new Error(`Unknown query ${request.method}`);
    if (reader && def.read !== true)
      throw new Error(`The read lane answers only read queries, not ${request.method}`);
    // A read of several statements sees one snapshot, whatever the writer commits meanwhile.
    if (reader && def.kind === 'query') return readSnapshot(db, () => def.run(db, request.args));
    if (def.kind === 'query') return def.run(db, request.args);
    streams.set(request.seq, def.open(db, request.args));
    return { stream: request.seq };
  };

  port.on('message', (request: DbRequest) => {
    if (request.method === '$close') {
      streams.clear();
      void (checkpointer?.stop() ?? Promise.resolve()).finally(() => {
        if (reader) db.close();
        else closeDatabase(db);
        port.postMessage({ type: 'reply', seq: request.seq, ok: true, value: null, ms: 0 } satisfies DbReply);
        port.close();
      });
      return;
    }
    const t0 = performance.now();
    let reply: DbReply;
    try {
      const value = answer(request);
      reply = { type: 'reply', seq: request.seq, ok: true, value, ms: performance.now() - t0 };
    } catch (error) {
      reply = {
        type: 'reply',
        seq: request.seq,
        ok: false,
        error: serializeError(error),
        ms: performance.now() - t0,
      };
    }
    port.postMessage(reply);
    if (!reader) {
      const now = totalChanges.get() as number;
      if (now !== changes) {
        // Past the WAL's cap (walCap.ts) the writer copies it itself; else the checkpointer does.
        if (checkpointer) capWal(db, walFile);
        checkpointer?.wake();
        // A growing file gets a bigger cache as it grows (a sync of a million calls into a new file).
        if (t0 - cacheFittedAt >= CACHE_FIT_GAP_MS) {
          cacheFittedAt = t0;
          fitWriterCache(db);
        }
      }
      changes = now;
    }
  });
  post({ type: 'ready', schemaVersion: schemaVersion(db), reads: readNames });
}
