// The body of cleanFile(), run inside the coordinator thread (see cleanFile.ts): streamed 1 MiB
// reads (bounded memory), N block workers, progress and cancel, upload/rejects/report written
// atomically (temporary file + rename; nothing is left behind on failure).
import { availableParallelism } from 'node:os';
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import {
  lateDuplicateEdits,
  ContactsError,
  rejectsHeader,
  runClean,
  uploadHeader,
  cleanReportSchema,
} from '../../../../shared/domain/contacts/index.ts';
import type { CleanReport, Progress } from '../../../../shared/domain/contacts/index.ts';
import { createAtomicFile } from '../../files/atomicFile.ts';
import { checkInput } from './checkInput.ts';
import type { AtomicFile } from '../../files/atomicFile.ts';
import { openInput } from './inputSource.ts';
import type { Input, InputChoices } from './inputSource.ts';
import { createWorkerPool } from './workerPool.ts';
import type { WorkerPool } from './workerPool.ts';

export interface CleanFileOptions extends InputChoices {
  path: string;
  /** Output files (written atomically). */
  out: string;
  rejects: string;
  report?: string | undefined;
  /** Worker threads (default: min(2, cores)). */
  workers?: number | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** Heap limits of the block workers, in MB. */
  workerHeapMb?: number | undefined;
  /** Bytes per block (default 1 MiB). */
  blockBytes?: number | undefined;
}

export interface RunCleanFileOptions extends CleanFileOptions {
  /** Block workers already started (the caller closes them); otherwise they are started here. */
  pool?: WorkerPool | undefined;
}

/** Problems with the file itself say which file; problems with options say which option. */
function failure(error: unknown, path: string): unknown {
  if (!(error instanceof ContactsError)) return error;
  switch (error.code) {
    case 'bad_option':
    case 'unknown_column':
      return new DeskFailure('invalid_request', error.message, 'options');
    case 'cancelled':
      return new DeskFailure('cancelled', 'Cleaning was cancelled.');
    case 'no_phone_column':
      return new DeskFailure('file_error', `${path}: ${error.message}`, 'phoneColumn');
    default:
      return new DeskFailure('file_error', `${path}: ${error.message}`, 'path');
  }
}

export async function runCleanFile(options: RunCleanFileOptions): Promise<CleanReport> {
  const started = performance.now();
  const { path } = options;
  const outputs = [options.out, options.rejects, ...(options.report ? [options.report] : [])];
  const checked = await checkInput(path, outputs);
  if (!checked.ok) throw new DeskFailure(checked.code, checked.message, checked.field);
  const { bytes } = checked;
  const workers = Math.max(1, options.workers ?? Math.min(2, availableParallelism()));

  const pool = options.pool ?? createWorkerPool(workers, options.workerHeapMb);
  const files: AtomicFile[] = [];
  let input: Input | null = null;
  try {
    input = await openInput(path, bytes, options);
    const { progress } = input;
    const upload = await createAtomicFile(options.out);
    files.push(upload);
    const rejects = await createAtomicFile(options.rejects);
    files.push(rejects);
    const { report, lateDuplicates } = await runClean(
      input.source,
      input.choices,
      (setup) => pool.executor(setup),
      {
        async begin(setup) {
          await upload.write(uploadHeader(setup));
          await rejects.write(rejectsHeader(setup));
        },
        async block(merged) {
          if (merged.upload.length > 0) await upload.write(merged.upload);
          if (merged.rejects) await rejects.write(merged.rejects);
        },
        async reset() {
          await upload.truncate();
          await rejects.truncate();
        },
      },
      {
        onProgress: options.onProgress && ((p) => options.onProgress?.(progress(p))),
        signal: options.signal,
        blockBytes: options.blockBytes,
      },
    );
    // Rows whose number a later, otherwise valid row claimed: their Reasons point to it.
    if (lateDuplicates.length > 0) await rejects.edit((bytes) => lateDuplicateEdits(bytes, lateDuplicates));
    const full: CleanReport = cleanReportSchema.parse({
      ...report,
      ...(input.sheet !== null ? { sheet: input.sheet } : {}),
      input: { file: path, bytes },
      outputs: { upload: options.out, rejects: options.rejects, report: options.report ?? '' },
      elapsed_ms: Math.round(performance.now() - started),
    });
    if (options.report) {
      const reportFile = await createAtomicFile(options.report);
      files.push(reportFile);
      await reportFile.write(JSON.stringify(full, null, 2) + '\n');
    }
    for (const file of files) await file.commit();
    return full;
  } catch (error) {
    await Promise.all(files.map((f) => f.discard()));
    throw failure(error, path);
  } finally {
    await input?.close();
    if (!options.pool) await pool.close();
  }
}
