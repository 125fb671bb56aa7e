// The cleaning run, independent of the host: read chunks → sniff → decode → split into blocks →
// workers (through an Executor the host provides: Node worker_threads in the CLI, Web Workers in
// the app, or in-process) → merge in file order → sink (files, or SQLite in the app).
//
// Memory stays bounded: at most `maxInFlight` blocks are out at once and reading waits for them.
// Two situations restart the run from the first byte (the sink is reset first):
//   - a UTF-8 guess met invalid bytes later in the file → Windows-1252 (reported in encoding_note);
//   - a worker's record count disagreed with the splitter's → everything through one worker.
import type { BlockResult } from './blockProcessor.ts';
import { ContactsError } from './errors.ts';
import { duplicateColumns } from './columns.ts';
import { createMerger, uploadColumnNames } from './merger.ts';
import type { MergeCounts, MergedBlock } from './merger.ts';
import { cleanReportSchema, newlineName } from './report.ts';
import type { CleanReport } from './report.ts';
import { sniff } from './sniff.ts';
import type { Sniffed } from './sniff.ts';
import { createBlockSplitter } from './splitBlocks.ts';
import type { ByteBlock, CleanChoices, EngineSetup } from './types.ts';

export interface ChunkSource {
  /** Opens the input from its first byte (called again if the run restarts). */
  open(): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  /** Size in bytes when known (for progress and ETA). */
  totalBytes?: number | undefined;
}

/** Runs blocks somewhere (worker threads, Web Workers, or in-process). */
export interface Executor {
  /** How many blocks can be worked on at the same time. */
  readonly lanes: number;
  /** A block of whole records, on any lane. The bytes stay readable: the merger needs them later. */
  block(block: ByteBlock): Promise<BlockResult>;
  /** Sequential mode on one lane: consecutive bytes in file order. */
  streamPush(bytes: Uint8Array, seq: number): Promise<BlockResult>;
  streamEnd(seq: number): Promise<BlockResult>;
  close(): Promise<void> | void;
}

export interface CleanSink {
  /** Called once the setup is known (write headers here). */
  begin(setup: EngineSetup): Promise<void> | void;
  /** Merged blocks, in file order. */
  block(merged: MergedBlock): Promise<void> | void;
  /** The run starts over: forget everything received. */
  reset(): Promise<void> | void;
}

export interface Progress {
  rows: number;
  bytes: number;
  totalBytes: number | null;
  rowsPerSecond: number;
  etaSeconds: number | null;
}

export interface RunOptions {
  /** Bytes per block (default 1 MiB). */
  blockBytes?: number;
  /** Bytes read before sniffing (default 1 MiB). */
  sniffBytes?: number;
  /** Blocks out at once (default 2 per lane). */
  maxInFlight?: number;
  onProgress?: (progress: Progress) => void;
  /** Milliseconds between progress calls (default 200). */
  progressEveryMs?: number;
  signal?: AbortSignal | undefined;
  /** Start with one lane in sequential mode (tests, tiny files). */
  sequential?: boolean;
}

export interface RunResult {
  report: CleanReport;
  setup: EngineSetup;
  /**
   * Rows already handed to the sink whose number a later row claimed: [row, row it repeats].
   * Their Reasons need "duplicate:row N" (applyLateDuplicates); buckets and counts are final.
   */
  lateDuplicates: Array<[row: number, duplicateOf: number]>;
}

type Mode = CleanReport['split']['mode'];

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

async function* chunksOf(source: ChunkSource): AsyncGenerator<Uint8Array> {
  const input = source.open();
  if (Symbol.asyncIterator in input) yield* input;
  else yield* input;
}

/** Concatenates chunks until `min` bytes or the end. */
export async function readFirst(
  iterator: AsyncIterator<Uint8Array>,
  min: number,
): Promise<{ bytes: Uint8Array; done: boolean }> {
  const parts: Uint8Array[] = [];
  let size = 0;
  while (size < min) {
    const next = await iterator.next();
    if (next.done) return { bytes: concat(parts, size), done: true };
    parts.push(next.value);
    size += next.value.length;
  }
  return { bytes: concat(parts, size), done: false };
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ContactsError('cancelled', 'cleaning was cancelled');
}

interface Attempt {
  sniffed: Sniffed;
  counts: MergeCounts;
  late: Array<[number, number]>;
  mode: Mode;
  reason: string | null;
  lanes: number;
}

async function attempt(
  source: ChunkSource,
  choices: CleanChoices,
  createExecutor: (setup: EngineSetup) => Promise<Executor> | Executor,
  sink: CleanSink,
  options: RunOptions,
  sequentialReason: string | null,
): Promise<Attempt> {
  const iterator = chunksOf(source)[Symbol.asyncIterator]();
  try {
    return await attemptWith(iterator, source, choices, createExecutor, sink, options, sequentialReason);
  } finally {
    await iterator.return?.(undefined); // closes the file if we stopped early
  }
}

async function attemptWith(
  iterator: AsyncIterator<Uint8Array>,
  source: ChunkSource,
  choices: CleanChoices,
  createExecutor: (setup: EngineSetup) => Promise<Executor> | Executor,
  sink: CleanSink,
  options: RunOptions,
  sequentialReason: string | null,
): Promise<Attempt> {
  const { signal } = options;
  const first = await readFirst(iterator, options.sniffBytes ?? 1 << 20);
  const sniffed = sniff(first.bytes, first.done, choices);
  const { setup } = sniffed;
  await sink.begin(setup);
  const executor = await createExecutor(setup);
  try {
    // ~100 bytes a row is typical of contact exports; the table grows if there are more.
    const merger = createMerger(setup, {
      expectedRows: source.totalBytes ? Math.ceil(source.totalBytes / 100) : undefined,
      firstLine: sniffed.dataLine,
    });
    const maxInFlight = options.maxInFlight ?? executor.lanes * 2;
    const inFlight = new Set<Promise<void>>();
    let failure: unknown = null;
    let writes: Promise<void> = Promise.resolve();
    let pendingWrites = 0;
    let rows = 0;
    let bytes = first.bytes.length;
    const started = now();
    let lastProgress = started;
    const progress = (force: boolean): void => {
      const t = now();
      if (!options.onProgress || (!force && t - lastProgress < (options.progressEveryMs ?? 200))) return;
      lastProgress = t;
      const seconds = Math.max((t - started) / 1000, 1e-3);
      const total = source.totalBytes ?? null;
      const bytesPerSecond = bytes / seconds;
      options.onProgress({
        rows,
        bytes,
        totalBytes: total,
        rowsPerSecond: rows / seconds,
        etaSeconds:
          total !== null && bytesPerSecond > 0 ? Math.max(0, (total - bytes) / bytesPerSecond) : null,
      });
    };

    const dispatch = async (work: Promise<BlockResult>, source?: ByteBlock): Promise<void> => {
      const done: Promise<void> = work.then((result) => {
        for (const merged of merger.add(result, source)) {
          rows += merged.rowNumbers.length;
          // Nothing reaches the sink once the run has failed (it is being discarded).
          pendingWrites++;
          writes = writes.then(() => {
            const written = failure === null ? sink.block(merged) : undefined;
            if (!(written instanceof Promise)) {
              pendingWrites--;
              return undefined;
            }
            return written.finally(() => pendingWrites--);
          });
          writes.catch((error: unknown) => {
            failure ??= error;
          });
        }
        progress(false);
      });
      inFlight.add(done);
      done.then(
        () => inFlight.delete(done),
        (error: unknown) => {
          inFlight.delete(done);
          failure ??= error;
        },
      );
      while (inFlight.size >= maxInFlight && failure === null)
        await Promise.race(inFlight).catch(() => undefined);
      // A slow sink (a disk, SQLite) holds reading back too: memory stays bounded.
      if (pendingWrites > maxInFlight) await writes.catch(() => undefined);
      if (failure !== null) throw failure;
      checkAbort(signal);
    };

    let mode: Mode = sequentialReason ? 'sequential' : 'parallel';
    let reason = sequentialReason;
    const splitter = createBlockSplitter({
      delimiter: setup.delimiter,
      newline: setup.newline,
      blockBytes: options.blockBytes ?? 1 << 20,
    });
    let streaming = sequentialReason !== null;
    let seq = 0;

    /** Quoting made splitting unsafe: the rest of the file goes through one lane, in order. */
    const toStream = async (): Promise<void> => {
      streaming = true;
      mode = seq > 0 ? 'parallel-then-sequential' : 'sequential';
      reason = splitter.irregular;
      const rest = splitter.takeRest();
      seq = rest.seq;
      if (rest.bytes.length > 0) await dispatch(executor.streamPush(rest.bytes, seq++));
    };
    const sendBlocks = async (blocks: ByteBlock[]): Promise<void> => {
      for (const block of blocks) {
        seq = block.seq + 1;
        await dispatch(executor.block(block), block);
      }
      if (splitter.irregular) await toStream();
    };
    const feed = async (bytes: Uint8Array): Promise<void> => {
      if (bytes.length === 0) return;
      if (!streaming) return sendBlocks(splitter.push(bytes));
      await dispatch(executor.streamPush(bytes, seq++));
    };

    try {
      // UTF-8 and Windows-1252 bytes go to the workers as they are; UTF-16 is re-encoded as UTF-8.
      const encoder = new TextEncoder();
      const wire = (chunk: Uint8Array): Uint8Array =>
        sniffed.dataOffset === null ? encoder.encode(sniffed.decoder.push(chunk)) : chunk;
      await feed(
        sniffed.dataOffset === null ? encoder.encode(sniffed.rest) : first.bytes.subarray(sniffed.dataOffset),
      );
      for (;;) {
        checkAbort(signal);
        const next = await iterator.next();
        if (next.done) break;
        bytes += next.value.length;
        await feed(wire(next.value));
      }
      if (sniffed.dataOffset === null && !first.done) await feed(encoder.encode(sniffed.decoder.end()));
      if (!streaming) await sendBlocks(splitter.end());
      if (streaming) await dispatch(executor.streamEnd(seq++));
      while (inFlight.size > 0) await Promise.race(inFlight).catch(() => undefined);
      if (failure !== null) throw failure;
      await writes;
      if (merger.pending > 0) throw new Error(`internal: ${merger.pending} blocks never merged`);
    } catch (error) {
      // Let work in flight and queued writes settle before the caller discards the sink.
      failure ??= error;
      await Promise.allSettled([...inFlight]);
      await writes.catch(() => undefined);
      throw error;
    }
    progress(true);
    return {
      sniffed,
      counts: merger.counts(),
      late: merger.lateDuplicates(),
      mode,
      reason,
      lanes: mode === 'sequential' ? 1 : executor.lanes,
    };
  } finally {
    await executor.close();
  }
}

/** Cleans one input end to end. Throws ContactsError for files that cannot be cleaned. */
export async function runClean(
  source: ChunkSource,
  choices: CleanChoices,
  createExecutor: (setup: EngineSetup) => Promise<Executor> | Executor,
  sink: CleanSink,
  options: RunOptions = {},
): Promise<RunResult> {
  let effective = choices;
  let encodingNote: string | null = null;
  let sequentialReason = options.sequential ? 'sequential mode requested' : null;
  let result: Attempt | null = null;
  for (let tries = 0; result === null; tries++) {
    try {
      result = await attempt(source, effective, createExecutor, sink, options, sequentialReason);
    } catch (error) {
      if (!(error instanceof ContactsError) || tries >= 2) throw error;
      if (error.code === 'invalid_utf8' && effective.encoding === undefined) {
        encodingNote = `${error.message}; read as windows-1252 instead: check the names before uploading`;
        effective = { ...effective, encoding: 'windows-1252' };
      } else if (error.code === 'split_mismatch' && sequentialReason === null) {
        sequentialReason = `a worker disagreed with the splitter (${error.message})`;
      } else {
        throw error;
      }
      await sink.reset();
    }
  }
  const { sniffed, counts, mode, reason, lanes } = result;
  if (counts.rows === 0) throw new ContactsError('no_data_rows', 'the file has a header but no data rows');
  const { setup } = sniffed;
  const report = cleanReportSchema.parse({
    rows: counts.rows,
    valid: counts.valid,
    invalid: counts.invalid,
    duplicates: counts.duplicates,
    encoding: sniffed.encoding.encoding,
    delimiter: setup.delimiter,
    phone_column: setup.header[setup.phoneIndex],
    issues: counts.issues,
    blank_rows: counts.blankRows,
    encoding_source: encodingNote ? 'detected' : sniffed.encoding.source,
    encoding_note: encodingNote ?? sniffed.encoding.note,
    encoding_confidence: encodingNote ? null : sniffed.encoding.confidence,
    // Read as Windows-1252 after invalid UTF-8 further in: a fallback, not a detection.
    encoding_uncertain: encodingNote !== null || sniffed.encoding.uncertain,
    delimiter_source: sniffed.delimiterSource,
    newline: newlineName(setup.newline),
    country: setup.country,
    calling_code: setup.callingCode,
    header: setup.header,
    header_row: setup.headerRow,
    header_note: sniffed.headerNote,
    name_column: setup.nameIndex >= 0 ? setup.header[setup.nameIndex] : null,
    variables: setup.variables.map((v) => ({ variable: v.variable, column: v.column, optional: v.optional })),
    upload_columns: uploadColumnNames(setup),
    duplicate_columns: duplicateColumns(setup.header),
    phone_validation: { fast_path: counts.phoneFast, library: counts.phoneLibrary },
    split: { workers: lanes, mode, reason },
  });
  return { report, setup, lateDuplicates: result.late };
}
