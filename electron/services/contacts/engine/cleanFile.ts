// Cleans a contacts CSV on disk into an upload file, a rejects file and a report: the CLI's
// `clean` command and anything else in the Node back end that needs it. The work happens in a
// coordinator thread (coordinator.ts) that drives N block workers; this function only starts it,
// relays progress and cancel, and turns its answer into a report or a DeskFailure.
import { Worker } from 'node:worker_threads';
import type { CleanReport, Progress } from '../../../../shared/domain/contacts/index.ts';
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import { workerEntryUrl } from '../../workerEntry.ts';
import type { CoordinatorReply, CoordinatorRequest } from './coordinator.ts';
import type { CleanFileOptions } from './runCleanFile.ts';

export type { CleanFileOptions } from './runCleanFile.ts';

/** Heap limit of the coordinator thread (MB): the dedupe table, blocks in flight, output text. */
const COORDINATOR_HEAP_MB = 192;

/**
 * Throws DeskFailure: `file_error` (the file cannot be read or cleaned; the message starts with the
 * path), `invalid_request` (bad options), `cancelled`, or `internal`.
 */
export function cleanFile(options: CleanFileOptions): Promise<CleanReport> {
  const { onProgress, signal, ...data } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DeskFailure('cancelled', 'Cleaning was cancelled.'));
      return;
    }
    const coordinator = new Worker(
      workerEntryUrl(new URL('./coordinator.ts', import.meta.url), 'contacts-coordinator.js'),
      {
        workerData: data,
        resourceLimits: { maxOldGenerationSizeMb: COORDINATOR_HEAP_MB, maxYoungGenerationSizeMb: 48 },
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
      else {
        const failure = new DeskFailure(reply.error.code, reply.error.message, reply.error.field);
        if (reply.detail) failure.stack = reply.detail;
        settle(() => reject(failure));
      }
    });
    coordinator.on('error', (error: Error & { code?: string }) => {
      const message =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `cleaning ran out of memory (${COORDINATOR_HEAP_MB} MB)`
          : `cleaning failed: ${error.message}`;
      settle(() => reject(new DeskFailure('internal', message)));
    });
    coordinator.on('exit', (code) => {
      settle(() => reject(new DeskFailure('internal', `cleaning stopped unexpectedly (exit code ${code})`)));
    });
  });
}

export type { Progress };
