// Worker side: parse a block of records and apply the row rules. The result is plain data with
// typed arrays (transferable) and pre-rendered text, so the coordinating thread only numbers rows,
// dedupes and writes. Runs unchanged in Node worker_threads and browser Web Workers.
import { ContactsError } from './errors.ts';
import { createRecordStream, eachRecord } from './parseRecords.ts';
import { createRowRules } from './rowRules.ts';
import type { RowRules } from './rowRules.ts';
import type { EngineSetup, TextBlock } from './types.ts';

/** Where the rejects-file tail (the original cells) of a row comes from. */
export const TAIL = {
  /** Copy the record's text from the source block (comma-delimited, nothing to neutralise). */
  source: 0,
  /** Rendered by the worker: the next entry of BlockResult.tails. */
  rendered: 1,
  /** Re-parse the record from the source block and render it (only needed if it is rejected). */
  rerender: 2,
} as const;

export interface BlockResult {
  seq: number;
  /** Physical records parsed (blank lines included): the merger numbers rows with it. */
  records: number;
  blankRows: number;
  /** Per data row (blank lines excluded), in file order: */
  /** Index of the row's record in the block (0 = the block's first record). */
  recordIndex: Int32Array;
  flags: Uint8Array;
  /** E.164 digits as a number (exact: at most 15 digits), 0 when the phone is not valid. */
  e164: Float64Array;
  tailKinds: Uint8Array;
  /** Span of the record's text in the source block (TAIL.source / TAIL.rerender rows). */
  textStart: Int32Array;
  textEnd: Int32Array;
  /** Upload lines of the rows with a valid phone and no flags, concatenated; ends per line. */
  upload: string;
  uploadEnds: Int32Array;
  /** Rendered tails (TAIL.rendered rows), in order. */
  tails: string[];
  /** Reasons text of every flagged row, in order. */
  reasons: string[];
  /** Phone answers by path, for this block. */
  phoneFast: number;
  phoneLibrary: number;
  /** The parsed cells of every data row, when asked for (the app stores them). */
  cells?: string[][];
}

/** Transferable buffers of a result (for postMessage). */
export const transferablesOf = (r: BlockResult): ArrayBuffer[] =>
  [r.recordIndex, r.flags, r.e164, r.tailKinds, r.textStart, r.textEnd, r.uploadEnds].map(
    (a) => a.buffer as ArrayBuffer,
  );

export interface ProcessOptions {
  /** Keep the parsed cells in the result (for the in-app host, which stores rows). */
  includeCells?: boolean;
}

/** Collects the rows of one block (or one stream chunk) as they are parsed. */
function createCollector(rules: RowRules, options: ProcessOptions, renderAll: boolean, capacity: number) {
  let size = Math.max(16, capacity);
  let recordIndex = new Int32Array(size);
  let flags = new Uint8Array(size);
  let e164 = new Float64Array(size);
  let tailKinds = new Uint8Array(size);
  let textStart = new Int32Array(size);
  let textEnd = new Int32Array(size);
  let uploadEnds = new Int32Array(size);
  const reasons: string[] = [];
  const tails: string[] = [];
  const cells: string[][] | undefined = options.includeCells ? [] : undefined;
  let upload = '';
  let rows = 0;
  let uploads = 0;
  let records = 0;
  let blankRows = 0;
  const fast0 = rules.phone.stats.fast;
  const library0 = rules.phone.stats.library;

  const grow = <T extends Int32Array | Uint8Array | Float64Array>(a: T): T => {
    const b = new (a.constructor as new (n: number) => T)(size);
    b.set(a);
    return b;
  };

  return {
    visit(record: string[], start: number, end: number): void {
      const index = records++;
      if (rules.isBlank(record)) {
        blankRows++;
        return;
      }
      if (rows === size) {
        size *= 2;
        recordIndex = grow(recordIndex);
        textStart = grow(textStart);
        textEnd = grow(textEnd);
        uploadEnds = grow(uploadEnds);
        flags = grow(flags);
        tailKinds = grow(tailKinds);
        e164 = grow(e164);
      }
      const check = rules.check(record);
      recordIndex[rows] = index;
      flags[rows] = check.flags;
      textStart[rows] = start;
      textEnd[rows] = end;
      if (check.e164 !== null) {
        e164[rows] = Number(check.e164.slice(1));
        if (check.flags === 0) {
          upload += rules.uploadLine(check.e164, record);
          uploadEnds[uploads++] = upload.length;
        }
      }
      let kind: number = renderAll || !rules.sourceTailOk(record) ? TAIL.rendered : TAIL.source;
      if (check.flags !== 0) reasons.push(rules.reasons(check.flags, check, record.length));
      else if (kind === TAIL.rendered && !renderAll) kind = TAIL.rerender; // only if it turns out a duplicate
      if (kind === TAIL.rendered) tails.push(rules.rejectTail(record));
      tailKinds[rows] = kind;
      if (cells) cells.push(record);
      rows++;
    },
    result(seq: number): BlockResult {
      const result: BlockResult = {
        seq,
        records,
        blankRows,
        recordIndex: recordIndex.slice(0, rows),
        flags: flags.slice(0, rows),
        e164: e164.slice(0, rows),
        tailKinds: tailKinds.slice(0, rows),
        textStart: textStart.slice(0, rows),
        textEnd: textEnd.slice(0, rows),
        upload,
        uploadEnds: uploadEnds.slice(0, uploads),
        tails,
        reasons,
        phoneFast: rules.phone.stats.fast - fast0,
        phoneLibrary: rules.phone.stats.library - library0,
      };
      if (cells) result.cells = cells;
      return result;
    },
  };
}

export interface BlockProcessor {
  /** A block cut by the splitter (whole records). */
  processBlock(block: TextBlock): BlockResult;
  /**
   * Sequential mode, for text that could not be split safely: feed consecutive chunks; each call
   * returns the records completed so far.
   */
  startStream(): { push(text: string, seq: number): BlockResult; end(seq: number): BlockResult };
}

export function createBlockProcessor(setup: EngineSetup, options: ProcessOptions = {}): BlockProcessor {
  const rules = createRowRules(setup);
  const { delimiter, newline } = setup;
  // About 100 characters per record: a first guess for the arrays, which grow if needed.
  const guess = (chars: number): number => Math.ceil(chars / 64);
  return {
    processBlock(block) {
      const collector = createCollector(rules, options, false, guess(block.text.length));
      const { errors } = eachRecord(block.text, delimiter, newline, false, collector.visit);
      if (errors > 0) {
        throw new ContactsError('split_mismatch', `papaparse reported ${errors} quoting problems in block ${block.seq}`);
      }
      return collector.result(block.seq);
    },
    startStream() {
      const stream = createRecordStream(delimiter, newline);
      return {
        push(text, seq) {
          const collector = createCollector(rules, options, true, guess(text.length));
          stream.push(text, collector.visit);
          return collector.result(seq);
        },
        end(seq) {
          const collector = createCollector(rules, options, true, 16);
          stream.end(collector.visit);
          return collector.result(seq);
        },
      };
    },
  };
}
