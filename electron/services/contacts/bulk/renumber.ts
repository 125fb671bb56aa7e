// Renumbering: contact_numbers rebuilt in number order after a job that wrote numbers in bulk
// (renumber-clear → renumber-scan → renumber-fill), then duplicates decided again from the same
// scan (the numbers phase).
import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';
import { insertMany } from '../../db/queries/insertMany.ts';
import { numberOrder } from '../numberOrder.ts';
import { deleteFirst, getRow, RowChanges } from '../rowStore.ts';
import { holderOf, withDuplicateOf } from '../rowState.ts';
import type { StoredRow } from '../rowState.ts';
import { afterRenumber, finishApply, listOf } from './finish.ts';
import { restageFromStart } from './job.ts';
import type { BulkJob, BulkWork } from './job.ts';
import { commitChunk, snapshotOf } from './snapshot.ts';

/** Entries deleted per renumber-clear chunk (sequential work: large chunks stay short). */
const RENUMBER_CHUNK = 20_000;
/** Rows read per renumber-scan chunk (four narrow columns of wide rows: ~20 ms on the bench's machine). */
export const SCAN_CHUNK = 20_000;
/** Entries appended per renumber-fill chunk. */
export const FILL_CHUNK = 20_000;
/** Numbers per chunk of the numbers phase (read from memory: only the rows that change are written). */
const NUMBERS_CHUNK = 20_000;

/**
 * A list's numbers as the renumber-scan phase read them, in row order (one per list, in the
 * database worker's memory, BulkWork.scans; ~18 bytes a number). Inserting a row range's numbers
 * into contact_numbers directly put them at random places in its b-tree (1M rows 7-8 s); staging
 * them in a TEMP table to sort them took ~3.5 s for 1M rows, most of it the temp b-tree's inserts.
 * Here the numbers are sorted in memory (numberOrder, ~0.3 s) and appended in number order, and
 * the numbers phase decides duplicates from the same arrays. Gone with the worker: a phase that
 * finds no scan (or one that is not its job's) clears and scans again.
 */
export interface NumberScan {
  e164: Float64Array;
  row: Int32Array;
  /** Stored issue bits (up to 256, quote_unbalanced: eight bits would drop it). */
  issues: Uint16Array;
  dup: Int32Array;
  n: number;
  /** The last row read (the scan phase's cursor). */
  lastRow: number;
  /** Indexes by number, then row: set when the scan is complete. */
  order: Uint32Array | null;
}

function newScan(capacity: number): NumberScan {
  const size = Math.max(1024, capacity);
  return {
    e164: new Float64Array(size),
    row: new Int32Array(size),
    issues: new Uint16Array(size),
    dup: new Int32Array(size),
    n: 0,
    lastRow: 0,
    order: null,
  };
}

/** Room for `more` numbers (the list's row count is only an estimate of them). */
function grow(scan: NumberScan, more: number): void {
  if (scan.n + more <= scan.e164.length) return;
  const size = Math.max(scan.n + more, scan.e164.length * 2);
  const copy = <T extends Float64Array | Int32Array | Uint16Array>(from: T, to: T): T => {
    to.set(from.subarray(0, scan.n));
    return to;
  };
  scan.e164 = copy(scan.e164, new Float64Array(size));
  scan.row = copy(scan.row, new Int32Array(size));
  scan.issues = copy(scan.issues, new Uint16Array(size));
  scan.dup = copy(scan.dup, new Int32Array(size));
}

export function renumberClearChunk(db: Db, work: BulkWork, job: BulkJob): BulkJob {
  const deleted = deleteFirst(db, 'contact_numbers', job.listId, RENUMBER_CHUNK);
  if (deleted >= RENUMBER_CHUNK) return job;
  work.scans.set(job.listId, newScan(job.total));
  return { ...job, phase: 'renumber-scan', cursor: 0, e164: 0, done: 0 };
}

type ScannedRow = [row: number, e164: number | null, issues: number, duplicateOf: number];

export function renumberScanChunk(db: Db, work: BulkWork, job: BulkJob): BulkJob {
  const scan = work.scanOf(job);
  if (!scan || scan.order || scan.lastRow !== job.cursor) return restageFromStart(job);
  const rows = prepared<[number, number, number], ScannedRow>(
    db,
    `SELECT row, e164, issues, duplicate_of FROM contacts WHERE list_id = ? AND row > ? ORDER BY row LIMIT ?`,
  )
    .raw()
    .all(job.listId, job.cursor, SCAN_CHUNK);
  grow(scan, rows.length);
  for (const [row, e164, issues, duplicateOf] of rows) {
    if (e164 === null) continue;
    scan.e164[scan.n] = e164;
    scan.row[scan.n] = row;
    scan.issues[scan.n] = issues;
    scan.dup[scan.n] = duplicateOf;
    scan.n++;
  }
  scan.lastRow = rows.at(-1)?.[0] ?? scan.lastRow;
  // Progress: the scan is the first half of the renumbering, the fill the second.
  const half = Math.floor(job.total / 2);
  if (rows.length === SCAN_CHUNK)
    return { ...job, cursor: scan.lastRow, done: Math.min(half, job.done + SCAN_CHUNK / 2) };
  scan.order = numberOrder(scan.e164, scan.n);
  return { ...job, phase: 'renumber-fill', cursor: 0, e164: 0, done: half };
}

export function renumberFillChunk(db: Db, work: BulkWork, job: BulkJob, now: string): BulkJob {
  const scan = work.scanOf(job);
  if (!scan?.order) return restageFromStart(job);
  const { order, e164, row } = scan;
  const end = Math.min(scan.n, job.cursor + FILL_CHUNK);
  const values: number[] = [];
  for (let i = job.cursor; i < end; i++) values.push(job.listId, e164[order[i]!]!, row[order[i]!]!);
  insertMany(db, `INSERT INTO contact_numbers (list_id, e164, row)`, 3, values);
  const half = Math.floor(job.total / 2);
  if (end < scan.n)
    return { ...job, cursor: end, done: half + Math.floor(((job.total - half) * end) / scan.n) };
  return afterRenumber(db, work, { ...job, cursor: 0, e164: 0, done: job.total }, job.after ?? 'drop', now);
}

/**
 * Every number in number order (the scan in memory): its holder (holderOf: the first row, in file
 * order, that is otherwise valid, else the first row) wins, the others repeat it. A number's rows
 * are settled together, so a chunk ends after the last row of a number.
 */
export function numbersChunk(db: Db, work: BulkWork, job: BulkJob, now: string): BulkJob {
  const scan = work.scanOf(job);
  if (!scan?.order) return restageFromStart(job);
  const { order, e164, row, issues, dup } = scan;
  const list = listOf(db, job);
  const changes = new RowChanges(db);
  let i = job.cursor;
  const stop = Math.min(scan.n, i + NUMBERS_CHUNK);
  while (i < scan.n && i < stop) {
    let j = i + 1;
    while (j < scan.n && e164[order[j]!] === e164[order[i]!]) j++;
    // Most numbers have one row: it holds its number.
    let winner = row[order[i]!]!;
    if (j - i > 1) {
      const group: Array<{ row: number; issues: number }> = [];
      for (let k = i; k < j; k++) group.push({ row: row[order[k]!]!, issues: issues[order[k]!]! });
      winner = holderOf(group);
    }
    for (let k = i; k < j; k++) {
      const at = order[k]!;
      const duplicateOf = row[at] === winner ? 0 : winner;
      if (duplicateOf !== dup[at]) {
        const stored = getRow(db, job.listId, row[at]!) as StoredRow;
        changes.set(stored, withDuplicateOf(stored, duplicateOf));
      }
    }
    i = j;
  }
  const saved = commitChunk(db, list, changes, now, snapshotOf(job));
  const next = { ...job, cursor: i, done: i, saved: job.saved + saved };
  if (i < scan.n) return next;
  work.scans.delete(job.listId);
  return finishApply(db, next, now);
}
