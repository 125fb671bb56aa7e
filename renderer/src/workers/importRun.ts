// The import coordinator (runs in a Web Worker): sniff the file, run the engine's runClean with the
// lanes as its Executor, and turn each merged block into one encoded batch for the back end. The
// number of batches not yet stored (acked) is bounded, and blocks wait for room before they go to
// a lane, so reading never races ahead of SQLite.
import { autoMatchVariables, ContactsError, runClean, sniff } from '../../../shared/domain/contacts/index.ts';
import type { CleanChoices } from '../../../shared/domain/contacts/index.ts';
import {
  encodeMergedBlockBytes,
  engineChoices,
  toImportReport,
} from '../../../shared/ipc/channels/contacts.ts';
import type { Detected, ImportChoices, VariableMapping } from '../../../shared/ipc/channels/contacts.ts';
import { openImportInput } from './importInput.ts';
import type { FromCoordinator, PortLike } from './importMessages.ts';
import { createLanePool } from './laneExecutor.ts';
import type { LaneExtras } from './laneExecutor.ts';

export interface ImportRunOptions {
  file: Blob;
  choices: ImportChoices;
  lanes: readonly PortLike[];
  /** Posts to the UI thread; `transfer` moves buffers rather than copying them. */
  post: (message: FromCoordinator, transfer?: Transferable[]) => void;
  signal: AbortSignal;
  /** Bytes per block (default: the engine's 1 MiB, about 10k rows). */
  blockBytes?: number | undefined;
  /** Batches sent but not yet stored before the engine waits (default 3). */
  maxQueued?: number;
}

/** Variables without a column get the column whose name matches (auto-match), if any. */
export function matchVariables(
  variables: readonly VariableMapping[],
  header: readonly string[],
): VariableMapping[] {
  const suggested = autoMatchVariables(
    variables.filter((v) => v.column.trim() === '').map((v) => v.variable),
    header,
  );
  return variables.map((v) => (v.column.trim() === '' ? { ...v, column: suggested[v.variable] ?? '' } : v));
}

export function createImportRun(options: ImportRunOptions) {
  const { post, signal } = options;
  const maxQueued = options.maxQueued ?? 3;
  const pool = createLanePool(options.lanes);
  const captured = new Map<number, LaneExtras>();
  let queued = 0;
  let batchSeq = 0;
  let pos = 0;
  const waiters: Array<() => void> = [];

  const gate = (): Promise<void> => {
    if (queued < maxQueued || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => waiters.push(resolve));
  };
  const release = (): void => {
    while (waiters.length > 0 && (queued < maxQueued || signal.aborted)) waiters.shift()?.();
  };
  signal.addEventListener('abort', release);

  const detectedOf = (bytes: Uint8Array, complete: boolean, choices: CleanChoices): Detected => {
    const sniffed = sniff(bytes, complete, choices);
    const { setup } = sniffed;
    return {
      encoding: sniffed.encoding.encoding,
      encodingSource: sniffed.encoding.source,
      encodingNote: sniffed.encoding.note,
      encodingUncertain: sniffed.encoding.uncertain,
      delimiter: setup.delimiter,
      delimiterSource: sniffed.delimiterSource,
      newline: setup.newline,
      header: setup.header,
      headerRow: setup.headerRow,
      headerNote: sniffed.headerNote,
      phoneColumn: setup.header[setup.phoneIndex] ?? '',
    };
  };

  return {
    /** The back end stored a batch. */
    ack(): void {
      queued = Math.max(0, queued - 1);
      release();
    },

    async run(): Promise<void> {
      const started = performance.now();
      try {
        // The same first megabyte runClean sniffs: the back end learns the header before any row.
        const input = await openImportInput(options.file, options.choices);
        const { first, complete } = input;
        const header = detectedOf(first, complete, input.choices(engineChoices(options.choices, []))).header;
        const variables = matchVariables(options.choices.variables, header);
        const choices = input.choices(engineChoices(options.choices, variables));
        post({
          type: 'detected',
          detected: { ...detectedOf(first, complete, choices), ...input.workbook },
          variables,
        });
        const { report, lateDuplicates } = await runClean(
          input.source,
          choices,
          (setup) => pool.executor(setup, (seq, extras) => captured.set(seq, extras), gate),
          {
            begin() {
              pos = 0;
            },
            block(merged) {
              const extras = captured.get(merged.seq);
              captured.delete(merged.seq);
              if (!extras) throw new Error(`internal: no lane result kept for block ${merged.seq}`);
              const n = merged.rowNumbers.length;
              if (n === 0) return;
              // Bytes, so the batch moves to the UI thread and out of the socket without a copy.
              const data = encodeMergedBlockBytes(merged, extras, pos);
              pos += n;
              queued++;
              post({ type: 'batch', seq: batchSeq++, rows: n, data }, [data.buffer]);
            },
            reset() {
              captured.clear();
              pos = 0;
              post({ type: 'reset' });
            },
          },
          {
            signal,
            blockBytes: options.blockBytes,
            onProgress: (progress) => post({ type: 'progress', progress: input.progress(progress) }),
          },
        );
        post({ type: 'done', report: toImportReport(report, performance.now() - started), lateDuplicates });
      } catch (error) {
        pool.abandon(new ContactsError('cancelled', 'cleaning was cancelled'));
        if (error instanceof ContactsError)
          post({ type: 'failed', code: error.code, message: error.message });
        else
          post({
            type: 'failed',
            code: 'internal',
            message: error instanceof Error ? error.message : String(error),
          });
      }
    },
  };
}
