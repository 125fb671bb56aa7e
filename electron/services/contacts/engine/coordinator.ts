// The coordinator thread of a cleanFile() run: reads, splits, feeds the block workers, merges and
// writes. It runs off the caller's thread (the Electron main process must stay responsive) and
// with its own bounded heap.
import { availableParallelism } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { CleanReport, Progress } from '../../../../shared/domain/contacts/index.ts';
import type { ErrorCode } from '../../../../shared/ipc/result.ts';
import type { CleanFileOptions } from './runCleanFile.ts';
import { createWorkerPool } from './workerPool.ts';

export type CoordinatorRequest = { kind: 'cancel' };
export type CoordinatorReply =
  | { kind: 'progress'; progress: Progress }
  | { kind: 'done'; report: CleanReport }
  | {
      kind: 'failed';
      error: { code: ErrorCode; message: string; field?: string | undefined };
      detail?: string;
    };

const port = parentPort;
if (!port) throw new Error('the contacts coordinator must run in a worker thread');
const send = (reply: CoordinatorReply): void => port.postMessage(reply);

const options = workerData as Omit<CleanFileOptions, 'onProgress' | 'signal'>;
// The block workers boot while this thread loads the engine (start-up is on the critical path).
const pool = createWorkerPool(
  Math.max(1, options.workers ?? Math.min(2, availableParallelism())),
  options.workerHeapMb,
);

const abort = new AbortController();
port.on('message', (message: CoordinatorRequest) => {
  if (message.kind === 'cancel') abort.abort();
});

const { runCleanFile } = await import('./runCleanFile.ts');
const { DeskFailure } = await import('../../../../shared/ipc/result.ts');
try {
  const report = await runCleanFile({
    ...options,
    pool,
    signal: abort.signal,
    onProgress: (progress: Progress) => send({ kind: 'progress', progress }),
  });
  send({ kind: 'done', report });
} catch (error) {
  if (error instanceof DeskFailure) {
    send({ kind: 'failed', error: { code: error.code, message: error.message, field: error.field } });
  } else {
    const e = error instanceof Error ? error : new Error(String(error));
    send({ kind: 'failed', error: { code: 'internal', message: e.message }, detail: e.stack ?? e.message });
  }
} finally {
  await pool.close();
  port.close();
}
