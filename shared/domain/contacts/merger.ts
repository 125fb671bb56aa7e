// Coordinator side: takes block results (in any order), applies them in file order, decides
// duplicates across the whole file (first row with a valid number wins), and produces the text of
// the upload and rejects files plus the counts for the report.
import { TAIL } from './blockProcessor.ts';
import type { BlockResult } from './blockProcessor.ts';
import { parseRecords } from './parseRecords.ts';
import { csvCell, csvLine, safeCell } from './csvWrite.ts';
import { BUCKET, bucketOf, duplicateReason, FLAG_ORDER, ISSUE, REASON_SEPARATOR } from './issues.ts';
import type { IssueCode } from './issues.ts';
import { createNumberTable } from './numberTable.ts';
import type { EngineSetup, TextBlock } from './types.ts';

export const UPLOAD_PHONE_HEADER = 'Mobile Number';

/** Header line of the upload file. */
export const uploadHeader = (setup: EngineSetup): string =>
  csvLine([UPLOAD_PHONE_HEADER, ...setup.uploadColumns.map((i) => setup.header[i] as string)]);

/** Header line of the rejects file. */
export const rejectsHeader = (setup: EngineSetup): string =>
  ['Row', 'Reasons', ...setup.header.map(safeCell)].join(',') + '\n';

export interface MergedBlock {
  seq: number;
  /** Per data row of the block: spreadsheet row, final bucket (BUCKET), row it repeats (or 0). */
  rowNumbers: Int32Array;
  buckets: Uint8Array;
  duplicateOf: Int32Array;
  flags: Uint8Array;
  /** Text to append to each file (no header). */
  upload: string;
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
   * Adds a result with the block it came from (needed for rows whose tail is TAIL.source or
   * TAIL.rerender; sequential-mode results need none). Returns the blocks that are now next in
   * file order, merged.
   */
  add(result: BlockResult, source?: TextBlock): MergedBlock[];
  /** Results received but waiting for an earlier block. */
  readonly pending: number;
  /** The E.164 digits (as a number, see BlockResult.e164) → first row with that number, or 0. */
  firstRowOf(e164: number): number;
  counts(): MergeCounts;
}

export function createMerger(setup: EngineSetup): Merger {
  const table = createNumberTable(1 << 16);
  const waiting = new Map<number, { result: BlockResult; source: TextBlock | undefined }>();
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
    issues: {
      row_ragged: 0,
      phone_missing: 0,
      phone_scientific_notation: 0,
      phone_excel_decimal: 0,
      phone_invalid: 0,
      duplicate: 0,
      variable_missing: 0,
    },
    phoneFast: 0,
    phoneLibrary: 0,
  };

  /** The record's text in its source block, without its line break. */
  const sourceText = (r: BlockResult, i: number, source: TextBlock | undefined): string => {
    if (!source) throw new Error('internal: a source tail without its source block');
    return source.text.slice(r.textStart[i], r.textEnd[i]);
  };

  const rerender = (record: string): string => {
    const cells = parseRecords(record, setup.delimiter, setup.newline)[0] ?? [''];
    return cells.map(safeCell).join(',');
  };

  const merge = (r: BlockResult, source: TextBlock | undefined): MergedBlock => {
    const n = r.recordIndex.length;
    const rowNumbers = new Int32Array(n);
    const buckets = new Uint8Array(n);
    const duplicateOf = new Int32Array(n);
    const dropped: number[] = []; // upload lines (by index) of rows found to be duplicates
    let rejects = '';
    let uploadIndex = 0;
    let reasonIndex = 0;
    let tailIndex = 0;
    for (let i = 0; i < n; i++) {
      const flags = r.flags[i] as number;
      const key = r.e164[i] as number;
      const row = baseRow + (r.recordIndex[i] as number);
      rowNumbers[i] = row;
      const kind = r.tailKinds[i] as number;
      const rendered = kind === TAIL.rendered ? (r.tails[tailIndex++] as string) : '';
      const first = key !== 0 ? table.claim(key, row) : 0;
      const ownReasons = flags !== 0 ? (r.reasons[reasonIndex++] as string) : '';
      if (flags !== 0) for (const code of FLAG_ORDER) if (flags & ISSUE[code]) counts.issues[code]++;
      const bucket = BUCKET[bucketOf(flags, first)];
      if (first > 0) {
        duplicateOf[i] = first;
        counts.issues.duplicate++;
      }
      if (flags === 0 && key !== 0) {
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
      const tail =
        kind === TAIL.rendered
          ? rendered
          : kind === TAIL.source
            ? sourceText(r, i, source)
            : rerender(sourceText(r, i, source));
      rejects += `${row},${csvCell(reasons)},${tail}\n`;
    }
    let upload = r.upload;
    if (dropped.length > 0) {
      upload = '';
      let from = 0;
      for (const k of dropped) {
        const start = k === 0 ? 0 : (r.uploadEnds[k - 1] as number);
        upload += r.upload.slice(from, start);
        from = r.uploadEnds[k] as number;
      }
      upload += r.upload.slice(from);
    }
    baseRow += r.records;
    counts.rows += n;
    counts.blankRows += r.blankRows;
    counts.records += r.records;
    counts.phoneFast += r.phoneFast;
    counts.phoneLibrary += r.phoneLibrary;
    const merged: MergedBlock = { seq: r.seq, rowNumbers, buckets, duplicateOf, flags: r.flags, upload, rejects };
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
    firstRowOf: (e164) => table.get(e164),
    counts: () => ({ ...counts, issues: { ...counts.issues } }),
  };
}
