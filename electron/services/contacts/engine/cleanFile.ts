// Cleans a contacts CSV on disk into an upload file, a rejects file and a report: the CLI's
// `clean` command and anything else in the Node back end that needs it. The work happens in a
// coordinator thread (coordinator.ts) that drives N block workers; this function only starts it,
// relays progress and cancel, and turns its answer into a report or a DeskFailure.
import { Worker } from 'node:worker_threads';
import type { CleanReport, Progress } from '../../../../shared/domain/contacts/index.ts';
import type { ErrorCode } from '../../../../shared/ipc/result.ts';
import { workerEntryUrl } from '../../workerEntry.ts';
import type { CoordinatorReply, CoordinatorRequest } from './coordinator.ts';
import type { CleanFileOptions } from './runCleanFile.ts';
import { checkInput } from './checkInput.ts';

export type { CleanFileOptions } from './runCleanFile.ts';

/** Heap limit of the coordinator thread (MB): the dedupe table, blocks in flight, output text. */
const COORDINATOR_HEAP_MB = 192;
/** Its young generation: 16 MB keeps the peak lower than 48 did, at no cost in time (bench:contacts). */
const COORDINATOR_YOUNG_MB = 16;

/**
 * Throws DeskFailure: `file_error` (the file cannot be read or cleaned; the message starts with the
 * path), `invalid_request` (bad options), `cancelled`, or `internal`.
 */
export function cleanFile(options: CleanFileOptions): Promise<CleanReport> {
  const { onProgress, signal, ...data } = options;
  // DeskFailure's module loads zod: only on the way out, so the coordinator starts sooner.
  const failure = async (
    code: ErrorCode,
    message: string,
    field?: string,
    stack?: string,
  ): Promise<Error> => {
    const { DeskFailure } = await import('../../../../shared/ipc/result.ts');
    const error = new DeskFailure(code, message, field);
    if (stack) error.stack = stack;
    return error;
  };
  const outputs = [options.out, options.rejects, ...(options.report ? [options.report] : [])];
  return new Promise((resolve, reject) => {
    const fail = (code: ErrorCode, message: string, field?: string, stack?: string): void =>
      void failure(code, message, field, stack).then(reject);
    if (signal?.aborted) {
      fail('cancelled', 'Cleaning was cancelled.');
      return;
    }
    // A missing file or clashing outputs need no threads to say so.
    void checkInput(options.path, outputs).then((checked) => {
      if (checked.ok) start();
      else fail(checked.code, checked.message, checked.field);
    }, reject);
    const start = (): void => {
      const coordinator = new Worker(
        workerEntryUrl(new URL('./coordinator.ts', import.meta.url), 'contacts-coordinator.js'),
        {
          workerData: data,
          resourceLimits: {
            maxOldGenerationSizeMb: COORDINATOR_HEAP_MB,
            maxYoungGenerationSizeMb: COORDINATOR_YOUNG_MB,
          },
        },
      );
      let settled = false;
      const onAbort = (): void => coordinator.postMessage({ kind: 'cancel' } satisfies CoordinatorRequest);
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      coordinator.on('message', (reply: CoordinatorReply) => {
        if (reply.kind === 'progress') onProgress?.(reply.progress);
        else if (reply.kind === 'done') settle(() => resolve(reply.report));
        else settle(() => fail(reply.error.code, reply.error.message, reply.error.field, reply.detail));
      });
      coordinator.on('error', (error: Error & { code?: string }) => {
        const message =
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? `cleaning ran out of memory (${COORDINATOR_HEAP_MB} MB)`
            : `cleaning failed: ${error.message}`;
        settle(() => fail('internal', message));
      });
      coordinator.on('exit', (code) => {
        settle(() => fail('internal', `cleaning stopped unexpectedly (exit code ${code})`));
      });
    };
  });
}

export type { Progress };
