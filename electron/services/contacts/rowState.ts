// A stored contact row and the pure rules that move it between states: the issue bits, the
// duplicate part of its Reasons cell, and the list's counts. The database queries
// (contacts/*.queries.ts, contacts/bulk/) use these so every path (import, edit, bulk, undo) counts the same way.
import {
  BUCKET,
  BUCKET_NAMES,
  bucketOf,
  ISSUE,
  ISSUE_CODES,
  isClean,
  safeCell,
} from '../../../shared/domain/contacts/index.ts';
import { withDuplicateReason } from '../../../shared/domain/contacts/lateDuplicates.ts';
import type { IssueCode } from '../../../shared/domain/contacts/index.ts';
import type { ContactRow, ListCounts } from '../../../shared/ipc/channels/contacts.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { ISSUE_BITS } from '../db/migrations/0130-contacts-formula-bidi-codes.ts';
import { cellsJson } from '../db/storedCells.ts';

/** One row of the `contacts` table, as better-sqlite3 returns it. */
export interface StoredRow {
  list_id: number;
  row: number;
  pos: number;
  /** JSON array of strings. */
  cells: string;
  phone_raw: string;
  /** E.164 digits, null when the phone is not valid. */
  e164: number | null;
  bucket: number;
  issues: number;
  reasons: string;
  duplicate_of: number;
  excluded: number;
  edited: number;
  tail: string | null;
  country: string | null;
}

export const ROW_COLUMNS = [
  'list_id',
  'row',
  'pos',
  'cells',
  'phone_raw',
  'e164',
  'bucket',
  'issues',
  'reasons',
  'duplicate_of',
  'excluded',
  'edited',
  'tail',
  'country',
] as const;

/** The columns that hold a row's content and state: all but its keys and `pos`, which never change. */
export const ROW_VALUE_COLUMNS = ROW_COLUMNS.filter(
  (c): c is Exclude<(typeof ROW_COLUMNS)[number], 'list_id' | 'row' | 'pos'> =>
    c !== 'list_id' && c !== 'row' && c !== 'pos',
);

// Stored bits and engine flags agree for the first six codes; later codes moved (0035, 0130).
const SAME_BITS = ISSUE_BITS.duplicate - 1;
const MOVED = [
  [ISSUE.phone_landline, ISSUE_BITS.phone_landline],
  [ISSUE.quote_unbalanced, ISSUE_BITS.quote_unbalanced],
  [ISSUE.formula_cell, ISSUE_BITS.formula_cell],
  [ISSUE.phone_bidi_control, ISSUE_BITS.phone_bidi_control],
] as const;

/** A change refused while a bulk change or undo runs on the list. */
export const bulkBusy = (): DeskFailure =>
  new DeskFailure('conflict', 'A bulk change is running on this list: wait for it or cancel it.', 'listId');

/** The engine's flags of a row (everything but the duplicate bit). */
export function flagsOf(issues: number): number {
  let flags = issues & SAME_BITS;
  for (const [flag, bit] of MOVED) if (issues & bit) flags |= flag;
  return flags;
}
/** The stored issue bits of a row with these engine flags, repeating `duplicateOf` (or 0). */
export function issueBits(flags: number, duplicateOf: number): number {
  let issues = (flags & SAME_BITS) | (duplicateOf > 0 ? ISSUE_BITS.duplicate : 0);
  for (const [flag, bit] of MOVED) if (flags & flag) issues |= bit;
  return issues;
}

/** Issue codes of a stored row, in the engine's report order. */
export const issueCodes = (issues: number): IssueCode[] =>
  ISSUE_CODES.filter((code) => (issues & ISSUE_BITS[code]) !== 0);

/** The Reasons cell without its leading "duplicate:row N" entry. */
export const ownReasons = (reasons: string): string => withDuplicateReason(reasons, 0);

/** The same row repeating `duplicateOf` (0 = no longer a duplicate): bucket, bits and Reasons follow. */
export function withDuplicateOf(row: StoredRow, duplicateOf: number): StoredRow {
  if (row.duplicate_of === duplicateOf) return row;
  const flags = flagsOf(row.issues);
  return {
    ...row,
    duplicate_of: duplicateOf,
    bucket: BUCKET[bucketOf(flags, duplicateOf)],
    issues: issueBits(flags, duplicateOf),
    reasons: withDuplicateReason(row.reasons, duplicateOf),
  };
}

/**
 * Who holds a number among its rows (in row order): the first row with no error of its own
 * (isClean), or the first row when none is clean. The others repeat it (merger.ts decides the same).
 */
export function holderOf(rows: ReadonlyArray<Pick<StoredRow, 'row' | 'issues'>>): number {
  for (const r of rows) if (isClean(flagsOf(r.issues))) return r.row;
  return rows[0]?.row ?? 0;
}

/** The rejects-file tail of cells as the engine renders it (rowRules.rejectTail). */
export const renderTail = (cells: readonly string[]): string => cells.map(safeCell).join(',');

export const e164Text = (digits: number | null): string | null => (digits === null ? null : `+${digits}`);
export const e164Digits = (e164: string | null): number | null =>
  e164 === null ? null : Number(e164.slice(1));

export function toContactRow(row: StoredRow): ContactRow {
  return {
    row: row.row,
    pos: row.pos,
    cells: cellsJson(row.cells),
    phoneRaw: row.phone_raw,
    e164: e164Text(row.e164),
    bucket: BUCKET_NAMES[row.bucket] ?? 'invalid',
    issues: issueCodes(row.issues),
    reasons: row.reasons,
    duplicateOf: row.duplicate_of,
    excluded: row.excluded === 1,
    edited: row.edited === 1,
    country: row.country,
  };
}

// ---- counts ----

/** What contact_lists.counts holds: rows by [bucket][excluded], rows per issue bit, edited rows. */
export interface StoredCounts {
  byBucket: [[number, number], [number, number], [number, number]];
  issues: Record<IssueCode, number>;
  edited: number;
}

export const emptyCounts = (): StoredCounts => ({
  byBucket: [
    [0, 0],
    [0, 0],
    [0, 0],
  ],
  issues: Object.fromEntries(Object.keys(ISSUE_BITS).map((c) => [c, 0])) as Record<IssueCode, number>,
  edited: 0,
});

// Counted per row on a million-row change: the entries once, not per call.
const ISSUE_BIT_ENTRIES = Object.entries(ISSUE_BITS) as Array<[IssueCode, number]>;

/** Adds (1) or removes (-1) one row's contribution, or that of n such rows (n, -n). */
export function addRow(
  counts: StoredCounts,
  row: Pick<StoredRow, 'bucket' | 'excluded' | 'issues' | 'edited'>,
  times: number,
): void {
  const pair = counts.byBucket[row.bucket as 0 | 1 | 2];
  pair[row.excluded ? 1 : 0] += times;
  if (row.issues !== 0)
    for (const [code, bit] of ISSUE_BIT_ENTRIES) if (row.issues & bit) counts.issues[code] += times;
  if (row.edited) counts.edited += times;
}

export function listCounts(counts: StoredCounts): ListCounts {
  const [valid, invalid, duplicate] = counts.byBucket;
  return {
    rows: valid[0] + valid[1] + invalid[0] + invalid[1] + duplicate[0] + duplicate[1],
    valid: valid[0] + valid[1],
    invalid: invalid[0] + invalid[1],
    duplicates: duplicate[0] + duplicate[1],
    excluded: valid[1] + invalid[1] + duplicate[1],
    edited: counts.edited,
    issues: { ...counts.issues },
    upload: valid[0],
    rejects: invalid[0] + duplicate[0],
  };
}
