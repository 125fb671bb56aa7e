// An Executor backed by worker_threads. Workers start before the file is sniffed (their start-up
// overlaps the first read) and are reused if the run restarts; close() ends them.
import { Worker } from 'node:worker_threads';
import { ContactsError } from '../../../../shared/domain/contacts/errors.ts';
import type { ContactsErrorCode } from '../../../../shared/domain/contacts/errors.ts';
import type { BlockResult, EngineSetup, Executor } from '../../../../shared/domain/contacts/index.ts';
import { workerEntryUrl } from '../../workerEntry.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';

const DEFAULT_HEAP_MB = 128;
// Young generation per worker: 16 MB (not 48) takes ~100 MB off the peak at 1M rows, at no cost in time
// (what a block allocates dies young; the scavenges stay short).
const YOUNG_MB = 16;

type Pending = { resolve(result: BlockResult | null): void; reject(error: Error): void };

interface Lane {
  worker: Worker;
  pending: Map<number, Pending>;
}

// Distributive Omit, so each request kind keeps its own fields.
type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

export interface WorkerPool {
  readonly size: number;
  /** An Executor for one run with this setup (the workers are told the setup first). */
  executor(setup: EngineSetup): Promise<Executor>;
  close(): Promise<void>;
}

export function createWorkerPool(size: number, heapMb = DEFAULT_HEAP_MB): WorkerPool {
  let nextId = 1;
  let closed = false;
  const lanes: Lane[] = [];

  const failAll = (lane: Lane, error: Error): void => {
    for (const p of lane.pending.values()) p.reject(error);
    lane.pending.clear();
  };

  for (let i = 0; i < size; i++) {
    const worker = new Worker(workerEntryUrl(new URL('./worker.ts', import.meta.url), 'contacts-worker.js'), {
      // A bounded heap keeps the process's memory bounded: V8 otherwise lets a busy worker's heap
      // grow to hundreds of MB before collecting. A block needs a few MB.
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: YOUNG_MB },
    });
    const lane: Lane = { worker, pending: new Map() };
    worker.on('message', (reply: WorkerReply) => {
      const p = lane.pending.get(reply.id);
      if (!p) return;
      lane.pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.result);
      else {
        const { code, message } = reply.error;
        p.reject(code ? new ContactsError(code as ContactsErrorCode, message) : new Error(message));
      }
    });
    worker.on('error', (error: Error & { code?: string }) => {
      failAll(
        lane,
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new Error(
              `a cleaning worker ran out of memory (${heapMb} MB); is one record enormous (a quote never closed)?`,
            )
          : error,
      );
    });
    worker.on('exit', (code) => {
      if (!closed) failAll(lane, new Error(`a contacts worker stopped unexpectedly (exit code ${code})`));
    });
    lanes.push(lane);
  }

  const send = (lane: Lane, request: Request): Promise<BlockResult | null> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      lane.pending.set(id, { resolve, reject });
      lane.worker.postMessage({ ...request, id } as WorkerRequest);
    });

  const result = async (work: Promise<BlockResult | null>): Promise<BlockResult> => {
    const r = await work;
    if (!r) throw new Error('internal: a contacts worker returned no result');
    return r;
  };

  /** The lane with the least work queued (ties: the first). */
  const idlest = (): Lane => lanes.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));

  return {
    size,
    async executor(setup) {
      await Promise.all(lanes.map((lane) => send(lane, { kind: 'setup', setup })));
      const streamLane = lanes[0] as Lane;
      return {
        lanes: size,
        // Cloned, not transferred: the merger reads the block's bytes again for duplicates.
        block: (block) => result(send(idlest(), { kind: 'block', block })),
        streamPush: (bytes, seq) => result(send(streamLane, { kind: 'stream-push', bytes, seq })),
        streamEnd: (seq) => result(send(streamLane, { kind: 'stream-end', seq })),
        close() {},
      };
    },
    async close() {
      closed = true;
      await Promise.all(lanes.map((lane) => lane.worker.terminate()));
    },
  };
}
