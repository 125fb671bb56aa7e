// Worker side: parse a block of records and apply the row rules. The result is plain data with
// typed arrays (transferable) and pre-rendered text, so the coordinating thread only numbers rows,
// dedupes and writes. Runs unchanged in Node worker_threads and browser Web Workers.
import { createByteWriter } from './byteWriter.ts';
import { utf8Length } from './encoding.ts';
import { ContactsError } from './errors.ts';
import { countLines, eachRecord, readStrayLine } from './parseRecords.ts';
import { createBlockSplitter } from './splitBlocks.ts';
import { ISSUE, isClean } from './issues.ts';
import { createRowRules } from './rowRules.ts';
import type { RowRules } from './rowRules.ts';
import type { ByteBlock, EngineSetup } from './types.ts';

/**
 * Where the rejects-file tail (the original cells, neutralised, in canonical RFC 4180 form) of a
 * row comes from. Either way the text is the same, so every mode and host writes identical files.
 */
export const TAIL = {
  /** Rendered by the worker: the next entry of BlockResult.tails (flagged rows; all rows in sequential mode). */
  rendered: 1,
  /** Re-parsed from the source block and rendered by the merger, only if the row turns out a duplicate. */
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
  /** ISSUE flags (16 bits: flags above 128 exist, a Uint8Array would drop them). */
  flags: Uint16Array;
  /**
   * E.164 digits as a number, 0 when the phone is not valid. Numbers too long to be exact in a
   * float64 (more than 2^53: some 16- to 19-digit numbers are valid) are -1 here and listed in
   * `longE164`.
   */
  e164: Float64Array;
  /** [row index in this result, E.164] of the valid numbers too long for `e164`. */
  longE164: Array<[number, string]>;
  tailKinds: Uint8Array;
  /** Byte span of the record in its block, line break excluded (for TAIL.rerender rows). */
  spanStart: Int32Array;
  spanEnd: Int32Array;
  /** Upload lines (UTF-8) of the rows with a valid phone and no flags, in order; byte end of each. */
  upload: Uint8Array;
  uploadEnds: Int32Array;
  /** Rendered tails (TAIL.rendered rows), in order. */
  tails: string[];
  /** Reasons text of every flagged row, in order. */
  reasons: string[];
  /** Line breaks in the block's text (the merger numbers physical lines with it). */
  lines: number;
  /** Per quote_unbalanced row, in order: line breaks before it, from the block's first line. */
  quoteLines: number[];
  /** Phone answers by path, for this block. */
  phoneFast: number;
  phoneLibrary: number;
  /** The parsed cells of every data row, when asked for (the app stores them). */
  cells?: string[][];
}

/** Transferable buffers of a result (for postMessage). */
export const transferablesOf = (r: BlockResult): ArrayBuffer[] =>
  [r.recordIndex, r.flags, r.e164, r.tailKinds, r.spanStart, r.spanEnd, r.upload, r.uploadEnds].map(
    (a) => a.buffer as ArrayBuffer,
  );

export interface ProcessOptions {
  /** Keep the parsed cells in the result (for the in-app host, which stores rows). */
  includeCells?: boolean;
  /**
   * false: no upload text (the in-app host builds it from the stored rows when exporting; writing
   * it was a quarter of a lane's work). The line ends stay, all at 0, so merging works the same.
   */
  upload?: boolean;
}

/** Maps increasing character offsets of `text` to byte offsets of its encoding. */
function byteOffsets(text: string, identity: boolean): (charOffset: number) => number {
  if (identity) return (c) => c;
  let lastChar = 0;
  let lastByte = 0;
  return (c) => {
    if (c < lastChar) {
      lastChar = 0;
      lastByte = 0;
    }
    lastByte += utf8Length(text, lastChar, c);
    lastChar = c;
    return lastByte;
  };
}

/** Collects the rows of one block (or one stream chunk) as they are parsed. */
function createCollector(
  rules: RowRules,
  options: ProcessOptions,
  /** No source bytes on the coordinating side (sequential mode): render every tail here. */
  renderAll: boolean,
  capacity: number,
  toByte: (charOffset: number) => number,
) {
  let size = Math.max(16, capacity);
  let recordIndex = new Int32Array(size);
  let flags = new Uint16Array(size);
  let e164 = new Float64Array(size);
  let tailKinds = new Uint8Array(size);
  let spanStart = new Int32Array(size);
  let spanEnd = new Int32Array(size);
  let uploadEnds = new Int32Array(size);
  const upload = createByteWriter(capacity * 48);
  const longE164: Array<[number, string]> = [];
  const reasons: string[] = [];
  const tails: string[] = [];
  const quoteLines: number[] = [];
  const cells: string[][] | undefined = options.includeCells ? [] : undefined;
  const writeUploads = options.upload !== false;
  let rows = 0;
  let uploads = 0;
  let records = 0;
  let blankRows = 0;
  const fast0 = rules.phone.stats.fast;
  const library0 = rules.phone.stats.library;

  const grow = <T extends Int32Array | Uint8Array | Uint16Array | Float64Array>(a: T): T => {
    const b = new (a.constructor as new (n: number) => T)(size);
    b.set(a);
    return b;
  };

  return {
    /** A record; `strayLine` (line breaks before it in this block) marks a stray quote's line. */
    visit(record: string[], start: number, end: number, strayLine?: number): void {
      const index = records++;
      if (strayLine === undefined && rules.isBlank(record)) {
        blankRows++;
        return;
      }
      if (rows === size) {
        size *= 2;
        recordIndex = grow(recordIndex);
        spanStart = grow(spanStart);
        spanEnd = grow(spanEnd);
        uploadEnds = grow(uploadEnds);
        flags = grow(flags);
        tailKinds = grow(tailKinds);
        e164 = grow(e164);
      }
      const check = rules.check(record);
      if (strayLine !== undefined) {
        check.flags |= ISSUE.quote_unbalanced;
        quoteLines.push(strayLine);
      }
      recordIndex[rows] = index;
      flags[rows] = check.flags;
      if (check.e164 !== null) {
        const key = Number(check.e164.slice(1));
        if (Number.isSafeInteger(key)) e164[rows] = key;
        else {
          e164[rows] = -1;
          longE164.push([rows, check.e164]);
        }
        if (isClean(check.flags)) {
          if (writeUploads) rules.writeUpload(upload, check.e164, record);
          uploadEnds[uploads++] = upload.length;
        }
      }
      if (check.flags !== 0) reasons.push(rules.reasons(check.flags, check, record.length));
      if (check.flags !== 0 || renderAll) {
        tails.push(rules.rejectTail(record));
        tailKinds[rows] = TAIL.rendered;
      } else {
        // Only needed if the row turns out to repeat an earlier number.
        tailKinds[rows] = TAIL.rerender;
        spanStart[rows] = toByte(start);
        spanEnd[rows] = toByte(end);
      }
      if (cells) cells.push(record);
      rows++;
    },
    result(seq: number, lines: number): BlockResult {
      const result: BlockResult = {
        seq,
        records,
        blankRows,
        lines,
        quoteLines,
        recordIndex: recordIndex.slice(0, rows),
        flags: flags.slice(0, rows),
        e164: e164.slice(0, rows),
        longE164,
        tailKinds: tailKinds.slice(0, rows),
        spanStart: spanStart.slice(0, rows),
        spanEnd: spanEnd.slice(0, rows),
        upload: upload.bytes().slice(),
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

type Visit = ReturnType<typeof createCollector>['visit'];

export interface BlockProcessor {
  /** A block cut by the splitter (whole records). */
  processBlock(block: ByteBlock): BlockResult;
  /**
   * Sequential mode, for bytes that could not be split safely: feed consecutive chunks; each call
   * returns the records completed so far.
   */
  startStream(): { push(bytes: Uint8Array, seq: number): BlockResult; end(seq: number): BlockResult };
}

export function createBlockProcessor(setup: EngineSetup, options: ProcessOptions = {}): BlockProcessor {
  const rules = createRowRules(setup);
  const { delimiter, newline, wireEncoding } = setup;
  const fatal = wireEncoding === 'utf-8';
  const decoder = () => new TextDecoder(wireEncoding, { fatal, ignoreBOM: true });
  const blockDecoder = decoder();
  const decode = (run: () => string): string => {
    try {
      return run();
    } catch {
      throw new ContactsError('invalid_utf8', 'the file is not valid UTF-8');
    }
  };
  // About 100 bytes per record: a first guess for the arrays, which grow if needed.
  const guess = (bytes: number): number => Math.ceil(bytes / 64);
  /** Visits the records of a block of whole records (a stray quote's line read literally). */
  const readBlock = (block: ByteBlock, text: string, visit: Visit, lineBase: number): void => {
    if (block.strayQuote !== undefined) {
      // One line whose quote never closes (splitBlocks.ts): read with the quote as a character.
      const ascii = wireEncoding === 'windows-1252' || text.length === block.bytes.length;
      const quoteAt = ascii
        ? block.strayQuote
        : blockDecoder.decode(block.bytes.subarray(0, block.strayQuote)).length;
      const end = text.endsWith(newline) ? text.length - newline.length : text.length;
      visit(readStrayLine(text, quoteAt, delimiter, newline), 0, end, lineBase);
      return;
    }
    const { errors } = eachRecord(text, delimiter, newline, false, visit);
    if (errors > 0) {
      throw new ContactsError(
        'split_mismatch',
        `papaparse reported ${errors} quoting problems in block ${block.seq}`,
      );
    }
  };
  return {
    processBlock(block) {
      const text = decode(() => blockDecoder.decode(block.bytes));
      const identity = wireEncoding === 'windows-1252' || text.length === block.bytes.length;
      const collector = createCollector(
        rules,
        options,
        false,
        guess(block.bytes.length),
        byteOffsets(text, identity),
      );
      readBlock(block, text, collector.visit, 0);
      return collector.result(block.seq, countLines(text, newline));
    },
    startStream() {
      // The same cuts as parallel mode (so stray quotes are found the same way), except that a
      // bare quote inside an unquoted field is a plain character, as papaparse reads it.
      const splitter = createBlockSplitter({
        delimiter,
        newline,
        blockBytes: 64 * 1024,
        bareQuotes: 'literal',
      });
      const noSpans = (c: number): number => c;
      const run = (blocks: ByteBlock[], seq: number, capacity: number): BlockResult => {
        const collector = createCollector(rules, options, true, capacity, noSpans);
        let lines = 0;
        for (const block of blocks) {
          const text = decode(() => blockDecoder.decode(block.bytes));
          readBlock(block, text, collector.visit, lines);
          lines += countLines(text, newline);
        }
        return collector.result(seq, lines);
      };
      return {
        push: (bytes, seq) => run(splitter.push(bytes), seq, guess(bytes.length)),
        end: (seq) => run(splitter.end(), seq, 16),
      };
    },
  };
}
