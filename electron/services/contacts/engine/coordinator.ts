// The coordinator thread of a cleanFile() run: reads, splits, feeds the block workers, merges and
// writes. It runs off the caller's thread (the Electron main process must stay responsive) and
// with its own bounded heap.
import { parentPort, workerData } from 'node:worker_threads';
import type { CleanReport, Progress } from '../../../../shared/domain/contacts/index.ts';
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import type { ErrorCode } from '../../../../shared/ipc/result.ts';
import { runCleanFile } from './runCleanFile.ts';
import type { CleanFileOptions } from './runCleanFile.ts';

export type CoordinatorRequest = { kind: 'cancel' };
export type CoordinatorReply =
  | { kind: 'progress'; progress: Progress }
  | { kind: 'done'; report: CleanReport }
  | { kind: 'failed'; error: { code: ErrorCode; message: string; field?: string | undefined }; detail?: string };

const port = parentPort;
if (!port) throw new Error('the contacts coordinator must run in a worker thread');
const send = (reply: CoordinatorReply): void => port.postMessage(reply);

const abort = new AbortController();
port.on('message', (message: CoordinatorRequest) => {
  if (message.kind === 'cancel') abort.abort();
});

const options = workerData as Omit<CleanFileOptions, 'onProgress' | 'signal'>;
try {
  const report = await runCleanFile({
    ...options,
    signal: abort.signal,
    onProgress: (progress) => send({ kind: 'progress', progress }),
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
  port.close();
}
