/**
 * The database worker: the only place better-sqlite3 runs. It opens the file, migrates, then
 * answers `{seq, method, args}` requests one at a time with named queries from the registry.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Db, QueryDef, StreamDef } from './define.ts';
import { closeDatabase, openDatabase } from './openDatabase.ts';
import { schemaVersion } from './migrate.ts';
import type { DbReply, DbRequest, DbWorkerData, DbWorkerMessage, StreamStep } from './protocol.ts';
import { queries } from './queries/index.ts';
import { serializeError } from './serializeError.ts';

type AnyQuery = QueryDef<unknown, unknown> | StreamDef<unknown, unknown>;
const registry = queries as unknown as Record<string, AnyQuery>;

function main(port: NonNullable<typeof parentPort>, data: DbWorkerData) {
  const post = (message: DbWorkerMessage) => port.postMessage(message);
  let db: Db;
  try {
    db = openDatabase(data.file);
  } catch (error) {
    post({ type: 'failed', error: serializeError(error) });
    return;
  }
  const streams = new Map<number, Iterator<unknown[], void, undefined>>();

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
      const step = iterator.next();
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
    if (def.kind === 'query') return def.run(db, request.args);
    streams.set(request.seq, def.open(db, request.args));
    return { stream: request.seq };
  };

  port.on('message', (request: DbRequest) => {
    if (request.method === '$close') {
      streams.clear();
      closeDatabase(db);
      port.postMessage({ type: 'reply', seq: request.seq, ok: true, value: null, ms: 0 } satisfies DbReply);
      port.close();
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
  });
  post({ type: 'ready', schemaVersion: schemaVersion(db) });
}

const data = workerData as DbWorkerData | undefined;
if (parentPort && data?.role === 'campaign-desk-db') main(parentPort, data);
