// The coordinator's side of the workbook reader thread (xlsxReader.ts): starts it, waits for the
// sheet to be chosen, and offers its CSV chunks as the engine's ChunkSource (one `more` per chunk
// taken, so the reader stays a few chunks ahead and memory stays bounded).
import { Worker } from 'node:worker_threads';
import { ContactsError } from '../../../../shared/domain/contacts/errors.ts';
import type { ContactsErrorCode } from '../../../../shared/domain/contacts/errors.ts';
import type { ChunkSource, Progress } from '../../../../shared/domain/contacts/index.ts';
import { workerEntryUrl } from '../../workerEntry.ts';

/** Heap limit of the reader thread (MB): a million shared strings take about 30. */
const READER_HEAP_MB = 256;

export interface ReaderData {
  path: string;
  size: number;
  choices: { sheet?: string | undefined; phoneColumn?: string | undefined };
}
export type ReaderRequest = { kind: 'open' | 'more' | 'stop' | 'close'; run: number };
export type ReaderReply =
  | { kind: 'opened'; sheet: string; total: number }
  | { kind: 'chunk'; run: number; bytes: Uint8Array; read: number }
  | { kind: 'end'; run: number }
  | { kind: 'failed'; run: number | null; code: string; message: string };

export interface SheetThread {
  sheet: string;
  source: ChunkSource;
  progress(progress: Progress): Progress;
  close(): Promise<void>;
}

/** Reader failures come back as the engine's ContactsError (internal ones as plain errors). */
const errorOf = (reply: Extract<ReaderReply, { kind: 'failed' }>): Error =>
  reply.code === 'internal'
    ? new Error(reply.message)
    : new ContactsError(reply.code as ContactsErrorCode, reply.message);

export function startSheetThread(data: ReaderData): Promise<SheetThread> {
  const worker = new Worker(
    workerEntryUrl(new URL('./xlsxReader.ts', import.meta.url), 'contacts-xlsx-reader.js'),
    // Bounded like the coordinator: the shared strings, a few chunks and the slice being parsed.
    {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
    },
  );
  const send = (request: ReaderRequest): void => worker.postMessage(request);
  let run = 0;
  let read = 0;
  let total = 0;
  let started = Date.now();
  /** Replies of the current run not yet taken, and the taker waiting for one. */
  let queue: ReaderReply[] = [];
  let waiting: (() => void) | null = null;
  let broken: Error | null = null;

  return new Promise((resolve, reject) => {
    worker.on('error', (error: Error & { code?: string }) => {
      broken =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new Error(`the workbook reader ran out of memory (${READER_HEAP_MB} MB)`)
          : error;
      reject(broken);
      waiting?.();
    });
    worker.on('exit', () => {
      broken ??= new Error('the workbook reader stopped');
      waiting?.();
    });
    worker.on('message', (reply: ReaderReply) => {
      if (reply.kind === 'opened') {
        total = reply.total;
        started = Date.now();
        resolve({
          sheet: reply.sheet,
          source: { open: chunks },
          progress: (p) => {
            const seconds = Math.max((Date.now() - started) / 1000, 1e-3);
            const rate = read / seconds;
            return {
              ...p,
              bytes: read,
              totalBytes: total,
              etaSeconds: rate > 0 ? Math.max(0, (total - read) / rate) : null,
            };
          },
          // The reader closes its file and ends; terminate only if it does not within a second.
          close: async () => {
            const exited = new Promise<void>((done) => worker.once('exit', () => done()));
            send({ kind: 'close', run });
            const timer = setTimeout(() => void worker.terminate(), 1000);
            await exited;
            clearTimeout(timer);
          },
        });
      } else if (reply.kind === 'failed' && reply.run === null) {
        reject(errorOf(reply));
        void worker.terminate();
      } else if (reply.run === run) {
        queue.push(reply);
        waiting?.();
      }
    });
  });

  async function* chunks(): AsyncGenerator<Uint8Array> {
    const mine = ++run;
    queue = [];
    read = 0;
    send({ kind: 'open', run: mine });
    try {
      for (;;) {
        while (queue.length === 0) {
          if (broken) throw broken;
          await new Promise<void>((resolve) => (waiting = resolve));
          waiting = null;
        }
        const reply = queue.shift() as ReaderReply;
        if (reply.kind === 'end') return;
        if (reply.kind === 'failed') throw errorOf(reply);
        if (reply.kind !== 'chunk') continue;
        read = reply.read;
        send({ kind: 'more', run: mine });
        yield reply.bytes;
      }
    } finally {
      if (run === mine) send({ kind: 'stop', run: mine });
    }
  }
}
