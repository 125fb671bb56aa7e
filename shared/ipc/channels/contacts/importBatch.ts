import { z } from 'zod';
import { ALL_FLAGS, BUCKET } from '../../../domain/contacts/issues.ts';
import type { MergedBlock } from '../../../domain/contacts/merger.ts';
import { count, rowNumber } from './fields.ts';
import { splitRejectLines } from './rejectLines.ts';

// The import batch: its schema and codec (the renderer's import worker encodes, the back end and the
// tests read it back).

/**
 * One batch of cleaned rows as the single string `contacts:import-batch` carries (one string
 * crosses the UI thread and the IPC hop cheaply): a JSON line with the columns below, then one
 * line per row with that row's cells as a JSON array (JSON text never holds a raw line break).
 * The back end stores each row's cells as that very text, so they are never re-encoded.
 * Columnar: entry i of each array is the batch's i-th data row, in file order.
 */
export const importBatchMetaSchema = z
  .object({
    /** Position of the first row among the list's data rows (batches are contiguous). */
    pos: count,
    rows: z.array(rowNumber),
    buckets: z.array(z.number().int().min(0).max(2)),
    /** The engine's issue flags (duplicate excluded), see shared/domain/contacts/issues.ts. */
    flags: z.array(z.number().int().min(0).max(ALL_FLAGS)),
    duplicateOf: z.array(count),
    /** E.164 digits as a number (0 = no valid phone). */
    e164: z.array(z.number().int().nonnegative().max(999_999_999_999_999)),
    /** Rows not valid: [index in batch, Reasons cell, rejects-file tail as the engine wrote it]. */
    rejects: z.array(z.tuple([count, z.string(), z.string()])),
  })
  .refine((b) => [b.buckets, b.flags, b.duplicateOf, b.e164].every((a) => a.length === b.rows.length), {
    message: 'every column of a batch has one entry per row',
  });
export type ImportBatchMeta = z.infer<typeof importBatchMetaSchema>;

const MAX_BATCH = 60 * 1024 * 1024;
/** A batch as text, or as its UTF-8 bytes (no copy: the same Uint8Array comes out). */
export const importBatchData = z.union([
  z.string().max(MAX_BATCH),
  z.custom<Uint8Array>(
    (v) => v instanceof Uint8Array && v.byteLength <= MAX_BATCH,
    'an import batch is text or bytes of at most 60 MiB',
  ),
]);

/** One row's cells (a line of the batch). */
export const rowCellsSchema = z.array(z.string().max(1_000_000)).max(10_000);

/** A merged block of the engine, with the columns the app stores. */
export interface BatchColumns {
  pos: number;
  rows: ArrayLike<number>;
  buckets: ArrayLike<number>;
  flags: ArrayLike<number>;
  duplicateOf: ArrayLike<number>;
  e164: ArrayLike<number>;
  /** Each row's cells as a JSON array, one per line, made where the cells were parsed. */
  cellLines: string;
  rejects: Array<[number, string, string]>;
}

const numbers = (values: ArrayLike<number>): string => `[${Array.prototype.join.call(values, ',')}]`;

/** One row's cells as a line of a batch. */
export const cellLine = (cells: readonly string[]): string => JSON.stringify(cells);

/** The first line of a batch: its columns as JSON. */
const batchMetaLine = (b: Omit<BatchColumns, 'cellLines'>): string =>
  `{"pos":${b.pos},"rows":${numbers(b.rows)},"buckets":${numbers(b.buckets)},"flags":${numbers(b.flags)},` +
  `"duplicateOf":${numbers(b.duplicateOf)},"e164":${numbers(b.e164)},"rejects":${JSON.stringify(b.rejects)}}`;

/** One batch as the single string `contacts:import-batch` carries (cells are not re-encoded). */
export const encodeImportBatch = (b: BatchColumns): string =>
  batchMetaLine(b) + (b.rows.length > 0 ? `\n${b.cellLines}` : '');

/** A merged block's columns, with each rejected row's Reasons and tail split from its rejects text. */
function mergedColumns(
  merged: Pick<MergedBlock, 'seq' | 'rowNumbers' | 'buckets' | 'flags' | 'duplicateOf' | 'rejects'>,
  e164: ArrayLike<number>,
  pos: number,
): Omit<BatchColumns, 'cellLines'> {
  const n = merged.rowNumbers.length;
  if (e164.length !== n)
    throw new Error(`internal: block ${merged.seq} has ${n} rows but ${e164.length} phones`);
  const rejectRows: number[] = [];
  const rejectIndex: number[] = [];
  for (let i = 0; i < n; i++) {
    if (merged.buckets[i] !== BUCKET.valid) {
      rejectRows.push(merged.rowNumbers[i] as number);
      rejectIndex.push(i);
    }
  }
  const lines = splitRejectLines(merged.rejects, rejectRows);
  return {
    pos,
    rows: merged.rowNumbers,
    buckets: merged.buckets,
    flags: merged.flags,
    duplicateOf: merged.duplicateOf,
    e164,
    rejects: lines.map(([reasons, tail], k) => [rejectIndex[k] as number, reasons, tail]),
  };
}

/**
 * One merged block of the engine as a batch: its columns, the E.164 digits and cell lines its lane
 * made, and each rejected row's Reasons and tail split from the block's rejects text.
 */
export function encodeMergedBlock(
  merged: Pick<MergedBlock, 'seq' | 'rowNumbers' | 'buckets' | 'flags' | 'duplicateOf' | 'rejects'>,
  lane: { e164: ArrayLike<number>; cellLines: string },
  pos: number,
): string {
  return encodeImportBatch({ ...mergedColumns(merged, lane.e164, pos), cellLines: lane.cellLines });
}

/**
 * The same batch as UTF-8 bytes, from the cell lines the lane already encoded (`cellBytes`): the
 * lanes encode in parallel, and the big text is never built or encoded again here.
 */
export function encodeMergedBlockBytes(
  merged: Pick<MergedBlock, 'seq' | 'rowNumbers' | 'buckets' | 'flags' | 'duplicateOf' | 'rejects'>,
  lane: { e164: ArrayLike<number>; cellBytes: Uint8Array },
  pos: number,
): Uint8Array<ArrayBuffer> {
  const meta = new TextEncoder().encode(batchMetaLine(mergedColumns(merged, lane.e164, pos)));
  if (merged.rowNumbers.length === 0) return meta;
  const out = new Uint8Array(meta.byteLength + 1 + lane.cellBytes.byteLength);
  out.set(meta, 0);
  out[meta.byteLength] = 10; // '\n'
  out.set(lane.cellBytes, meta.byteLength + 1);
  return out;
}

/** Reads a whole batch back (tests and tools; the back end reads it its own way, see batchData.ts). */
export function readImportBatch(batch: string | Uint8Array): { meta: ImportBatchMeta; cells: string[][] } {
  const data = typeof batch === 'string' ? batch : new TextDecoder('utf-8', { fatal: true }).decode(batch);
  const split = data.indexOf('\n');
  const meta = importBatchMetaSchema.parse(JSON.parse(split < 0 ? data : data.slice(0, split)));
  const cells =
    split < 0
      ? []
      : data
          .slice(split + 1)
          .split('\n')
          .map((line) => rowCellsSchema.parse(JSON.parse(line)));
  if (cells.length !== meta.rows.length)
    throw new Error(`the batch has ${meta.rows.length} rows but ${cells.length} cell lines`);
  return { meta, cells };
}
