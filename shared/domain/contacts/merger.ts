// Coordinator side: takes block results (in any order), applies them in file order, decides
// duplicates across the whole file (first row with a valid number wins), and produces the text of
// the upload and rejects files plus the counts for the report.
import { TAIL } from './blockProcessor.ts';
import type { BlockResult } from './blockProcessor.ts';
import { parseRecords } from './parseRecords.ts';
import { csvCell, csvLine, safeCell } from './csvWrite.ts';
import {
  BUCKET,
  bucketOf,
  duplicateReason,
  FLAG_ORDER,
  isClean,
  ISSUE,
  ISSUE_CODES,
  quoteReason,
  REASON_SEPARATOR,
} from './issues.ts';
import type { IssueCode } from './issues.ts';
import { createNumberTable } from './numberTable.ts';
import type { ByteBlock, EngineSetup } from './types.ts';

export const UPLOAD_PHONE_HEADER = 'Mobile Number';

/**
 * The upload file's column names: Mobile Number, then the upload columns' headers; a name already
 * taken (a header repeated in the file, or another "Mobile Number") gets its position: "Name #3".
 */
export function uploadColumnNames(setup: Pick<EngineSetup, 'header' | 'uploadColumns'>): string[] {
  const names = [UPLOAD_PHONE_HEADER];
  const taken = new Set(names);
  for (const i of setup.uploadColumns) {
    const header = setup.header[i] as string;
    const name = taken.has(header) ? `${header} #${i + 1}` : header;
    taken.add(name);
    names.push(name);
  }
  return names;
}

/** Header line of the upload file. */
export const uploadHeader = (setup: EngineSetup): string => csvLine(uploadColumnNames(setup));

/** Header line of the rejects file. */
export const rejectsHeader = (setup: EngineSetup): string =>
  ['Row', 'Reasons', ...setup.header.map(safeCell)].join(',') + '\n';

export interface MergedBlock {
  seq: number;
  /** Per data row of the block: spreadsheet row, final bucket (BUCKET), row it repeats (or 0). */
  rowNumbers: Int32Array;
  buckets: Uint8Array;
  duplicateOf: Int32Array;
  flags: Uint16Array;
  /** What to append to each file (no header): upload as UTF-8 bytes, rejects as text. */
  upload: Uint8Array;
  rejects: string;
  /** The block's parsed cells when the worker kept them. */
  cells?: string[][];
}

export interface MergeCounts {
  rows: number;
  valid: number;
  invalid: number;
  duplicates: number;
  blankRows: number;
  records: number;
  issues: Record<IssueCode, number>;
  phoneFast: number;
  phoneLibrary: number;
}

export interface Merger {
  /**
   * Adds a result with the block it came from (needed to render duplicates' tails: TAIL.rerender;
   * sequential-mode results need none). Returns the blocks that are now next in
   * file order, merged.
   */
  add(result: BlockResult, source?: ByteBlock): MergedBlock[];
  /** Results received but waiting for an earlier block. */
  readonly pending: number;
  /** The row holding this E.164 number ("+919876543210"), or 0. */
  firstRowOf(e164: string): number;
  counts(): MergeCounts;
  /**
   * Rows already merged whose number a later row claimed (the first otherwise valid row with it):
   * [row, the row it now repeats], in row order. Their bucket stays (they are invalid); their
   * `duplicate` code and the "duplicate:row N" entry of their Reasons change. Hosts apply these
   * at the end (applyLateDuplicates for the rejects text).
   */
  lateDuplicates(): Array<[row: number, duplicateOf: number]>;
}

export interface MergerOptions {
  /** About how many rows to expect (sizes the duplicate table up front). */
  expectedRows?: number | undefined;
  /** Physical line (1-based) where the first data record starts (names stray quotes' lines). */
  firstLine?: number | undefined;
}

export function createMerger(setup: EngineSetup, options: MergerOptions = {}): Merger {
  // Who holds each valid number: a row > 0 once an otherwise valid row has it; -row while only
  // rows with errors of their own have had it (the first of them holds it for now).
  const table = createNumberTable(options.expectedRows);
  // Valid numbers too long to be exact as float64 keys (rare): by their text.
  const longTable = new Map<string, number>();
  /** Rows pointing at a provisional holder (the holder first), by number, until someone claims it. */
  const provisional = new Map<number | string, number[]>();
  const late = new Map<number, number>();
  /** The row this one repeats (0 = it holds the number now); keeps the tables up to date. */
  const claimLong = (key: string, value: number): number => {
    const held = longTable.get(key);
    if (held !== undefined) return held;
    longTable.set(key, value);
    return 0;
  };
  const place = (key: number | string, row: number, clean: boolean): number => {
    // One probe in the common case: takes the number when no row has it yet.
    const held =
      typeof key === 'number' ? table.claim(key, clean ? row : -row) : claimLong(key, clean ? row : -row);
    const hold = (value: number): void => {
      if (typeof key === 'number') table.set(key, value);
      else longTable.set(key, value);
    };
    if (held === 0) {
      if (!clean) provisional.set(key, [row]);
      return 0;
    }
    if (held > 0) return held;
    if (!clean) {
      provisional.get(key)?.push(row);
      return -held;
    }
    // The first otherwise valid row claims the number from the rows before it.
    hold(row);
    for (const earlier of provisional.get(key) ?? []) late.set(earlier, row);
    counts.issues.duplicate++; // the provisional holder now repeats this row too
    provisional.delete(key);
    return 0;
  };
  let baseLine = options.firstLine ?? setup.headerRow + 1;
  const waiting = new Map<number, { result: BlockResult; source: ByteBlock | undefined }>();
  const decoder = new TextDecoder(setup.wireEncoding, { ignoreBOM: true });
  let next = 0;
  /** Spreadsheet row of the next block's first record. */
  let baseRow = setup.headerRow + 1;
  const counts: MergeCounts = {
    rows: 0,
    valid: 0,
    invalid: 0,
    duplicates: 0,
    blankRows: 0,
    records: 0,
    issues: Object.fromEntries(ISSUE_CODES.map((code) => [code, 0])) as Record<IssueCode, number>,
    phoneFast: 0,
    phoneLibrary: 0,
  };

  /** The record's text in its source block, without its line break. */
  const sourceText = (r: BlockResult, i: number, source: ByteBlock | undefined): string => {
    if (!source) throw new Error('internal: a duplicate without its source block');
    return decoder.decode(source.bytes.subarray(r.spanStart[i], r.spanEnd[i]));
  };

  const rerender = (record: string): string => {
    // Without a quote a record is its cells joined by the delimiter, as papaparse reads it: a
    // parser per duplicate was most of the merger's time.
    const cells =
      record.indexOf('"') < 0
        ? record.split(setup.delimiter)
        : (parseRecords(record, setup.delimiter, setup.newline)[0] ?? ['']);
    return cells.map(safeCell).join(',');
  };

  const merge = (r: BlockResult, source: ByteBlock | undefined): MergedBlock => {
    const n = r.recordIndex.length;
    const rowNumbers = new Int32Array(n);
    const buckets = new Uint8Array(n);
    const duplicateOf = new Int32Array(n);
    const dropped: number[] = []; // upload lines (by index) of rows found to be duplicates
    let rejects = '';
    let uploadIndex = 0;
    let reasonIndex = 0;
    let tailIndex = 0;
    let longIndex = 0;
    let quoteIndex = 0;
    for (let i = 0; i < n; i++) {
      const flags = r.flags[i] as number;
      const key = r.e164[i] as number;
      const row = baseRow + (r.recordIndex[i] as number);
      rowNumbers[i] = row;
      const kind = r.tailKinds[i] as number;
      const rendered = kind === TAIL.rendered ? (r.tails[tailIndex++] as string) : '';
      const clean = isClean(flags);
      const first =
        key > 0
          ? place(key, row, clean)
          : key < 0
            ? place((r.longE164[longIndex++] as [number, string])[1], row, clean)
            : 0;
      let ownReasons = flags !== 0 ? (r.reasons[reasonIndex++] as string) : '';
      if (flags & ISSUE.quote_unbalanced) {
        const quote = quoteReason(baseLine + (r.quoteLines[quoteIndex++] as number));
        ownReasons = ownReasons ? quote + REASON_SEPARATOR + ownReasons : quote;
      }
      if (flags !== 0) for (const code of FLAG_ORDER) if (flags & ISSUE[code]) counts.issues[code]++;
      const bucket = BUCKET[bucketOf(flags, first)];
      if (first > 0) {
        duplicateOf[i] = first;
        counts.issues.duplicate++;
      }
      if (clean && key !== 0) {
        if (bucket === BUCKET.duplicate) dropped.push(uploadIndex);
        uploadIndex++;
      }
      buckets[i] = bucket;
      if (bucket === BUCKET.valid) {
        counts.valid++;
        continue;
      }
      if (bucket === BUCKET.duplicate) counts.duplicates++;
      else counts.invalid++;
      const reasons =
        first > 0 ? duplicateReason(first) + (ownReasons ? REASON_SEPARATOR + ownReasons : '') : ownReasons;
      const tail = kind === TAIL.rendered ? rendered : rerender(sourceText(r, i, source));
      rejects += `${row},${csvCell(reasons)},${tail}\n`;
    }
    let upload = r.upload;
    if (dropped.length > 0) {
      // Copy the kept lines (everything but the duplicates) into one buffer.
      const kept = new Uint8Array(r.upload.length);
      let size = 0;
      let from = 0;
      for (const k of dropped) {
        const start = k === 0 ? 0 : (r.uploadEnds[k - 1] as number);
        kept.set(r.upload.subarray(from, start), size);
        size += start - from;
        from = r.uploadEnds[k] as number;
      }
      kept.set(r.upload.subarray(from), size);
      size += r.upload.length - from;
      upload = kept.subarray(0, size);
    }
    baseRow += r.records;
    baseLine += r.lines;
    counts.rows += n;
    counts.blankRows += r.blankRows;
    counts.records += r.records;
    counts.phoneFast += r.phoneFast;
    counts.phoneLibrary += r.phoneLibrary;
    const merged: MergedBlock = {
      seq: r.seq,
      rowNumbers,
      buckets,
      duplicateOf,
      flags: r.flags,
      upload,
      rejects,
    };
    if (r.cells) merged.cells = r.cells;
    return merged;
  };

  return {
    add(result, source) {
      waiting.set(result.seq, { result, source });
      const ready: MergedBlock[] = [];
      for (let w = waiting.get(next); w; w = waiting.get(next)) {
        waiting.delete(next);
        ready.push(merge(w.result, w.source));
        next++;
      }
      return ready;
    },
    get pending() {
      return waiting.size;
    },
    firstRowOf(e164) {
      const key = Number(e164.slice(1));
      return Math.abs(Number.isSafeInteger(key) ? table.get(key) : (longTable.get(e164) ?? 0));
    },
    counts: () => ({ ...counts, issues: { ...counts.issues } }),
    lateDuplicates: () => [...late].sort((a, b) => a[0] - b[0]),
  };
}
