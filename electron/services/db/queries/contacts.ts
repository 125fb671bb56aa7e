// Contact lists in SQLite: import batches, keyset-paged windows, edits revalidated with the engine's
// row revalidator (duplicates recomputed for the old and the new number), bulk actions with one
// level of undo, and the export read. Everything runs in the database worker, each mutation in one
// transaction, so the list's counts always match its rows.
import {
  BUCKET,
  bucketOf,
  createPhoneRecheck,
  createRowRevalidator,
  ISSUE,
  REASON_SEPARATOR,
  withDuplicateReason,
} from '../../../../shared/domain/contacts/index.ts';
import type { EngineSetup } from '../../../../shared/domain/contacts/index.ts';
import { phoneText, resolveDefaultCountry } from '../../../../shared/domain/phone/index.ts';
import { formatCount } from '../../../../shared/domain/formatCount.ts';
import type {
  ContactFilter,
  Detected,
  EmptyColumnFilter,
  ImportReport,
  VariableMapping,
} from '../../../../shared/ipc/channels/contacts.ts';
import { emptyFilterColumns } from '../../../../shared/ipc/channels/contacts.ts';
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import { decodeBatch } from '../../contacts/batchData.ts';
import {
  addRow,
  bulkBusy,
  e164Digits,
  emptyCounts,
  flagsOf,
  holderOf,
  issueBits,
  ownReasons,
  ROW_COLUMNS,
  withDuplicateOf,
} from '../../contacts/rowState.ts';
import type { StoredCounts, StoredRow } from '../../contacts/rowState.ts';
import type { Db } from '../define.ts';
import { prepared, query, read, readStream, txQuery } from '../define.ts';
import { suppressedSql } from '../../suppression/suppressedSql.ts';
import { ISSUE_BITS } from '../migrations/0130-contacts-formula-bidi-codes.ts';
import { MARK_EVERY } from '../migrations/0110-contact-position-marks.ts';
import { blankCellSql } from './blankCell.ts';

/** A contact_lists row with the label of its undoable action. */
export interface StoredList {
  id: number;
  name: string;
  file_name: string;
  file_bytes: number;
  status: 'importing' | 'ready' | 'deleting';
  encoding: string;
  delimiter: string;
  phone_column: string;
  country: string;
  detected: string;
  mapping: string;
  headers: string;
  setup: string;
  counts: string;
  report: string | null;
  revision: number;
  created_at: string;
  updated_at: string;
  undo_label: string | null;
}

const LIST_SELECT = `SELECT l.*, u.label AS undo_label FROM contact_lists l LEFT JOIN contact_undo u ON u.list_id = l.id`;

export function getList(db: Db, listId: number): StoredList | null {
  return prepared<[number], StoredList>(db, `${LIST_SELECT} WHERE l.id = ?`).get(listId) ?? null;
}

/** The list, ready for review and changes (not importing, not being deleted), its number index built. */
export function readyList(db: Db, listId: number): StoredList {
  const list = getList(db, listId);
  if (!list || list.status === 'deleting')
    throw new DeskFailure('not_found', 'This contact list no longer exists.', 'listId');
  if (list.status !== 'ready')
    throw new DeskFailure('conflict', 'This contact list is still being imported.', 'listId');
  ensureNumbers(db, listId); // a change may re-decide duplicates: it needs the number index
  return list;
}

export const getRow = (db: Db, listId: number, row: number): StoredRow | null =>
  prepared<[number, number], StoredRow>(db, `SELECT * FROM contacts WHERE list_id = ? AND row = ?`).get(
    listId,
    row,
  ) ?? null;

// Positional parameters: bulk changes write a million rows, and named ones cost more per call.
const UPDATE_ROW = `UPDATE contacts SET cells = ?, phone_raw = ?, e164 = ?, bucket = ?, issues = ?, reasons = ?,
  duplicate_of = ?, excluded = ?, edited = ?, tail = ?, country = ? WHERE list_id = ? AND row = ?`;
const writeRow = (db: Db, r: StoredRow): void =>
  void prepared(db, UPDATE_ROW).run(
    r.cells,
    r.phone_raw,
    r.e164,
    r.bucket,
    r.issues,
    r.reasons,
    r.duplicate_of,
    r.excluded,
    r.edited,
    r.tail,
    r.country,
    r.list_id,
    r.row,
  );

/** Only the exclusion differs (exclude / include): SQLite then maintains one index, not all of them. */
const onlyExclusionMoved = (a: StoredRow, b: StoredRow): boolean =>
  a.excluded !== b.excluded &&
  a.cells === b.cells &&
  a.phone_raw === b.phone_raw &&
  a.e164 === b.e164 &&
  a.bucket === b.bucket &&
  a.issues === b.issues &&
  a.reasons === b.reasons &&
  a.duplicate_of === b.duplicate_of &&
  a.edited === b.edited &&
  a.tail === b.tail &&
  a.country === b.country;

/** Writes `after` over the stored `before`, keeping contact_numbers in step with its number. */
export function saveRow(db: Db, before: StoredRow, after: StoredRow): void {
  if (onlyExclusionMoved(before, after)) {
    prepared(db, `UPDATE contacts SET excluded = ? WHERE list_id = ? AND row = ?`).run(
      after.excluded,
      after.list_id,
      after.row,
    );
    return;
  }
  writeRow(db, after);
  if (before.e164 === after.e164) return;
  if (before.e164 !== null) {
    prepared(db, `DELETE FROM contact_numbers WHERE list_id = ? AND e164 = ? AND row = ?`).run(
      before.list_id,
      before.e164,
      before.row,
    );
  }
  if (after.e164 !== null) {
    prepared(db, `INSERT INTO contact_numbers (list_id, e164, row) VALUES (?, ?, ?)`).run(
      after.list_id,
      after.e164,
      after.row,
    );
  }
}

/** contact_numbers for a whole list again, filled in number order (after an import or a big change). */
export function rebuildNumbers(db: Db, listId: number): void {
  prepared(db, `DELETE FROM contact_numbers WHERE list_id = ?`).run(listId);
  prepared(
    db,
    `INSERT INTO contact_numbers (list_id, e164, row)
     SELECT list_id, e164, row FROM contacts WHERE list_id = ? AND e164 IS NOT NULL ORDER BY e164, row`,
  ).run(listId);
}

/**
 * Builds the list's contact_numbers when an import left it owed (contact_numbers_pending, see
 * migration 0100); answers whether it did. Runs in the caller's transaction.
 */
export function ensureNumbers(db: Db, listId: number): boolean {
  if (prepared(db, `DELETE FROM contact_numbers_pending WHERE list_id = ?`).run(listId).changes === 0)
    return false;
  rebuildNumbers(db, listId);
  return true;
}

/**
 * The engine streams rows before it knows whether a later, otherwise valid row will claim their
 * number: such rows arrive invalid, holding it (or repeating the row that held it for now). At the
 * end the engine lists them with the row that claimed it (merger.lateDuplicates, the same list the
 * CLI applies to its rejects file); each is checked against the stored rows, then pointed there.
 */
function applyLateClaims(db: Db, listId: number, late: ReadonlyArray<readonly [number, number]>): void {
  for (const [row, holder] of late) {
    const stored = getRow(db, listId, row);
    const claimer = getRow(db, listId, holder);
    if (
      !stored ||
      !claimer ||
      holder <= row ||
      stored.e164 === null ||
      stored.e164 !== claimer.e164 ||
      claimer.duplicate_of !== 0 ||
      holderOf([stored, claimer]) !== holder
    ) {
      throw new DeskFailure(
        'invalid_request',
        `The import says row ${row} repeats row ${holder}, which the stored rows do not show.`,
        'lateDuplicates',
      );
    }
    const next = withDuplicateOf(stored, holder);
    if (next !== stored) writeRow(db, next);
  }
}

const touch = (db: Db, listId: number, counts: StoredCounts, now: string): void =>
  void prepared(
    db,
    `UPDATE contact_lists SET counts = ?, revision = revision + 1, updated_at = ? WHERE id = ?`,
  ).run(JSON.stringify(counts), now, listId);

// ---- revalidation ----

/**
 * One `make(setup)` per setup, of the last eight: compiling the phone fast path is worth caching.
 * A bulk change passes the same setup object for every row (the key's JSON is skipped then), or an
 * equal one per chunk.
 */
function perSetup<T>(make: (setup: EngineSetup) => T): (setup: EngineSetup) => T {
  const byKey = new Map<string, T>();
  const byObject = new WeakMap<EngineSetup, T>();
  return (setup) => {
    const known = byObject.get(setup);
    if (known) return known;
    const key = JSON.stringify(setup);
    let made = byKey.get(key);
    if (!made) {
      if (byKey.size >= 8) byKey.delete(byKey.keys().next().value as string);
      made = make(setup);
      byKey.set(key, made);
    }
    byObject.set(setup, made);
    return made;
  };
}
const revalidatorFor = perSetup(createRowRevalidator);
const phoneRecheckFor = perSetup(createPhoneRecheck);

function setupWithCountry(setup: EngineSetup, country: string | null): EngineSetup {
  if (country === null) return setup;
  const resolved = resolveDefaultCountry(country);
  return resolved ? { ...setup, country: resolved.country, callingCode: resolved.callingCode } : setup;
}

/** The smallest row other than `row` whose valid phone is `digits`, or 0. */
const earliestWith = (db: Db, listId: number, digits: number, row: number): number =>
  prepared<[number, number, number], { first: number | null }>(
    db,
    `SELECT min(row) AS first FROM contact_numbers WHERE list_id = ? AND e164 = ? AND row != ?`,
  ).get(listId, digits, row)?.first ?? 0;

/**
 * Checks `cells` (null: the row's own, kept as stored) again with the engine's rules (for the
 * row's effective setup); duplicate_of as the revalidator decides it, or 0 when duplicates are left
 * to a later pass. How the file was read (quote_unbalanced) is not in the cells: it stays unless
 * the operator edited the row (`edited`).
 */
export function revalidated(
  db: Db,
  before: StoredRow,
  newCells: string[] | null,
  setup: EngineSetup,
  withDuplicates: boolean,
  edited = false,
): StoredRow {
  const revalidate = revalidatorFor(setup);
  const cells = newCells ?? (JSON.parse(before.cells) as string[]);
  const outcome = revalidate(cells, before.row, (e164) =>
    withDuplicates ? earliestWith(db, before.list_id, Number(e164.slice(1)), before.row) : 0,
  );
  let flags = 0;
  for (const code of outcome.issues) if (code !== 'duplicate') flags |= ISSUE[code];
  let reasons = outcome.reasons;
  const quote = edited ? undefined : ownReasons(before.reasons).split(REASON_SEPARATOR)[0];
  if (quote?.startsWith('quote_unbalanced:')) {
    flags |= ISSUE.quote_unbalanced;
    reasons = withDuplicateReason(
      [quote, ownReasons(outcome.reasons)].filter((r) => r !== '').join(REASON_SEPARATOR),
      outcome.duplicateOf,
    );
  }
  return {
    ...before,
    cells: newCells === null ? before.cells : JSON.stringify(newCells),
    phone_raw: outcome.phoneRaw,
    e164: e164Digits(outcome.e164),
    bucket: BUCKET[bucketOf(flags, outcome.duplicateOf)],
    issues: issueBits(flags, outcome.duplicateOf),
    reasons,
    duplicate_of: outcome.duplicateOf,
  };
}

/**
 * The row with its phone alone read again for `setup`'s country (createPhoneRecheck: the other
 * cells' issues stay as stored), duplicates left to a later pass; null when the whole row must be
 * checked (revalidated).
 */
export function phoneRechecked(
  before: Pick<StoredRow, 'phone_raw' | 'issues' | 'reasons'>,
  setup: EngineSetup,
): Pick<StoredRow, 'e164' | 'bucket' | 'issues' | 'reasons' | 'duplicate_of'> | null {
  const r = phoneRecheckFor(setup)(before.phone_raw, flagsOf(before.issues), ownReasons(before.reasons));
  if (!r) return null;
  return {
    e164: e164Digits(r.e164),
    bucket: BUCKET[bucketOf(r.flags, 0)],
    issues: issueBits(r.flags, 0),
    reasons: r.reasons,
    duplicate_of: 0,
  };
}

/** Rows changed by one action: the state before the first change and the latest state. */
export class RowChanges {
  readonly rows = new Map<number, { before: StoredRow; after: StoredRow }>();
  readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }
  set(before: StoredRow, after: StoredRow): void {
    const seen = this.rows.get(before.row);
    this.rows.set(before.row, { before: seen ? seen.before : before, after });
    saveRow(this.db, seen ? seen.after : before, after);
  }
  /** The latest state of a row this action has touched, else the stored one. */
  current(row: StoredRow): StoredRow {
    return this.rows.get(row.row)?.after ?? row;
  }
}

/**
 * Everyone with this number again: its holder (holderOf: the first otherwise valid row in file
 * order, else the first) wins, the others repeat it.
 * Needed after a number leaves or joins a row.
 */
export function recomputeNumber(db: Db, listId: number, digits: number, changes: RowChanges): void {
  const rows = prepared<[number, number], StoredRow>(
    db,
    `SELECT c.* FROM contact_numbers n JOIN contacts c ON c.list_id = n.list_id AND c.row = n.row
     WHERE n.list_id = ? AND n.e164 = ? ORDER BY n.row`,
  ).all(listId, digits);
  const winner = holderOf(rows.map((r) => changes.current(r)));
  for (const stored of rows) {
    const row = changes.current(stored);
    const next = withDuplicateOf(row, row.row === winner ? 0 : winner);
    if (next !== row) changes.set(stored, next);
  }
}

// ---- undo ----

export interface ListState {
  counts: string;
  setup: string;
  country: string;
}

/** True while a bulk change (or its undo) is recorded as running on the list (its undo slot holds the job). */
function bulkRunning(db: Db, listId: number): boolean {
  const slot = prepared<[number], { list_state: string }>(
    db,
    `SELECT list_state FROM contact_undo WHERE list_id = ?`,
  ).get(listId);
  return slot !== undefined && Boolean((JSON.parse(slot.list_state) as { job?: unknown }).job);
}

function saveUndo(
  db: Db,
  list: StoredList,
  label: string,
  now: string,
  rows: Iterable<StoredRow> | string,
): void {
  if (bulkRunning(db, list.id)) throw bulkBusy();
  prepared(db, `DELETE FROM contact_undo_rows WHERE list_id = ?`).run(list.id);
  prepared(db, `DELETE FROM contact_undo_states WHERE list_id = ?`).run(list.id);
  const state: ListState = { counts: list.counts, setup: list.setup, country: list.country };
  prepared(
    db,
    `INSERT INTO contact_undo (list_id, label, list_state, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (list_id) DO UPDATE SET label = excluded.label, list_state = excluded.list_state, created_at = excluded.created_at`,
  ).run(list.id, label, JSON.stringify(state), now);
  if (typeof rows === 'string') {
    // A predicate on contacts: the snapshot is taken in SQL (bulk actions).
    prepared(db, `INSERT INTO contact_undo_rows SELECT * FROM contacts WHERE list_id = ? AND (${rows})`).run(
      list.id,
    );
    return;
  }
  const insert = prepared(
    db,
    `INSERT INTO contact_undo_rows (${ROW_COLUMNS.join(', ')}) VALUES (${ROW_COLUMNS.map((c) => `@${c}`).join(', ')})`,
  );
  for (const row of rows) insert.run(row);
}

// ---- counts ----

/** Counts from the rows themselves (after an import or a bulk action), from the indexes. */
export function recount(db: Db, listId: number): StoredCounts {
  const counts = emptyCounts();
  const count = (sql: string): number => prepared<[number], { n: number }>(db, sql).get(listId)!.n;
  const rows = rowCount(db, listId);
  counts.byBucket[1][0] = count(
    `SELECT count(*) AS n FROM contacts INDEXED BY contacts_invalid WHERE list_id = ? AND bucket = 1`,
  );
  counts.byBucket[2][0] = count(
    `SELECT count(*) AS n FROM contacts INDEXED BY contacts_duplicate WHERE list_id = ? AND bucket = 2`,
  );
  counts.byBucket[0][0] = rows - counts.byBucket[1][0] - counts.byBucket[2][0];
  const excluded = prepared<[number], { bucket: number; n: number }>(
    db,
    `SELECT bucket, count(*) AS n FROM contacts INDEXED BY contacts_excluded WHERE list_id = ? AND excluded = 1 GROUP BY bucket`,
  ).all(listId);
  for (const { bucket, n } of excluded) {
    const pair = counts.byBucket[bucket as 0 | 1 | 2];
    pair[0] -= n;
    pair[1] = n;
  }
  for (const [code, bit] of Object.entries(ISSUE_BITS) as Array<[keyof typeof ISSUE_BITS, number]>) {
    counts.issues[code] = prepared<[number], { n: number }>(
      db,
      `SELECT count(*) AS n FROM contacts INDEXED BY contacts_issue_${code} WHERE list_id = ? AND issues & ${bit} != 0`,
    ).get(listId)!.n;
  }
  counts.edited = prepared<[number], { n: number }>(
    db,
    `SELECT count(*) AS n FROM contacts INDEXED BY contacts_edited WHERE list_id = ? AND edited = 1`,
  ).get(listId)!.n;
  return counts;
}

function applyDelta(list: StoredList, changes: RowChanges): StoredCounts {
  const counts = JSON.parse(list.counts) as StoredCounts;
  for (const { before, after } of changes.rows.values()) {
    addRow(counts, before, -1);
    addRow(counts, after, 1);
  }
  return counts;
}

/** Ends a row-by-row action: the rows' previous state becomes the undo, the counts move by their deltas. */
function commitChanges(db: Db, list: StoredList, label: string, now: string, changes: RowChanges): void {
  saveUndo(
    db,
    list,
    label,
    now,
    [...changes.rows.values()].map((c) => c.before),
  );
  touch(db, list.id, applyDelta(list, changes), now);
}

// ---- filters ----

interface FilterSql {
  /** The index whose range in row order is the filter ('' = the table's own order). */
  index: string;
  where: string;
}

const indexed = (f: FilterSql): string => (f.index ? `INDEXED BY ${f.index}` : '');

/** Rows the upload carries (valid, not excluded): what the agent lint counts. */
export const UPLOAD_ROWS_SQL = 'bucket = 0 AND excluded = 0';

export function filterSql(filter: Exclude<ContactFilter, 'all'>): FilterSql {
  // Valid rows are most of a list: their scan is the table's own, in row order.
  if (filter === 'bucket:valid') return { index: '', where: 'bucket = 0' };
  if (filter.startsWith('empty:')) {
    const blank = emptyFilterColumns(filter as EmptyColumnFilter).map((c) => blankCellSql(c));
    return { index: '', where: `${UPLOAD_ROWS_SQL} AND (${blank.join(' OR ')})` };
  }
  // Suppression is not stored on the row: the do-not-call list of the active workspace decides it
  // at read time, so a change to that list shows in every open list at once.
  if (filter === 'suppressed') return { index: '', where: `${UPLOAD_ROWS_SQL} AND ${suppressedSql(null)}` };
  if (filter === 'bucket:invalid') return { index: 'contacts_invalid', where: 'bucket = 1' };
  if (filter === 'bucket:duplicate') return { index: 'contacts_duplicate', where: 'bucket = 2' };
  if (filter.startsWith('issue:')) {
    const code = filter.slice(6) as keyof typeof ISSUE_BITS;
    return { index: `contacts_issue_${code}`, where: `issues & ${ISSUE_BITS[code]} != 0` };
  }
  return filter === 'excluded'
    ? { index: 'contacts_excluded', where: 'excluded = 1' }
    : { index: 'contacts_edited', where: 'edited = 1' };
}

export interface PageArgs {
  listId: number;
  filter: ContactFilter;
  /** Keyset anchor: start at this spreadsheet row (0 = the start)… */
  fromRow: number;
  /** …after skipping this many rows of the filter (the distance from the nearest known anchor). */
  skip: number;
  limit: number;
}

/** The list's last marked position at or before `pos` (contact_marks, migration 0110), if any. */
const nearestMark = (db: Db, listId: number, pos: number) =>
  prepared<[number, number], { pos: number; row: number }>(
    db,
    `SELECT pos, row FROM contact_marks WHERE list_id = ? AND pos <= ? ORDER BY pos DESC LIMIT 1`,
  ).get(listId, pos);

/** Rows in a list: its last mark's position plus the rows from that mark on. */
function rowCount(db: Db, listId: number): number {
  const last = nearestMark(db, listId, Number.MAX_SAFE_INTEGER);
  if (!last) return 0;
  return (
    last.pos +
    prepared<[number, number], { n: number }>(
      db,
      `SELECT count(*) AS n FROM contacts WHERE list_id = ? AND row >= ?`,
    ).get(listId, last.row)!.n
  );
}

/** Marks every MARK_EVERY-th position of a list whose rows are all stored (a list made in one statement). */
export const markListPositions = (db: Db, listId: number): void =>
  void prepared(
    db,
    `INSERT INTO contact_marks (list_id, pos, row) SELECT list_id, pos, row FROM contacts WHERE list_id = ? AND pos % ${MARK_EVERY} = 0`,
  ).run(listId);

/** Marks every MARK_EVERY-th position among rows stored at positions `from`.. (in row order). */
export function markPositions(db: Db, listId: number, from: number, rows: readonly number[]): void {
  const mark = prepared(db, `INSERT INTO contact_marks (list_id, pos, row) VALUES (?, ?, ?)`);
  for (let p = Math.ceil(from / MARK_EVERY) * MARK_EVERY; p < from + rows.length; p += MARK_EVERY)
    mark.run(listId, p, rows[p - from]);
}

function page(db: Db, a: PageArgs): StoredRow[] {
  if (a.filter === 'all') {
    // Positions are dense (0..rows-1), in row order, and never change: start at the nearest mark
    // at or before the offset and skip the rest of the way (fewer than MARK_EVERY rows).
    const mark = nearestMark(db, a.listId, a.skip);
    if (!mark) return [];
    return prepared<[number, number, number, number], StoredRow>(
      db,
      `SELECT * FROM contacts WHERE list_id = ? AND row >= ? ORDER BY row LIMIT ? OFFSET ?`,
    ).all(a.listId, mark.row, a.limit, a.skip - mark.pos);
  }
  const f = filterSql(a.filter);
  let start = a.fromRow;
  if (a.skip > 0) {
    // Walk the (covering) index to the first row of the window, then read just the window.
    const found = prepared<[number, number, number], { row: number }>(
      db,
      `SELECT row FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where} AND row >= ? ORDER BY row LIMIT 1 OFFSET ?`,
    ).get(a.listId, a.fromRow, a.skip);
    if (!found) return [];
    start = found.row;
  }
  return prepared<[number, number, number], StoredRow>(
    db,
    `SELECT * FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where} AND row >= ? ORDER BY row LIMIT ?`,
  ).all(a.listId, start, a.limit);
}

function locate(db: Db, a: { listId: number; filter: ContactFilter; row: number }): number | null {
  const row = getRow(db, a.listId, a.row);
  if (!row) return null;
  if (a.filter === 'all') return row.pos;
  const f = filterSql(a.filter);
  const member = prepared<[number, number], { row: number }>(
    db,
    `SELECT row FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where} AND row = ?`,
  ).get(a.listId, a.row);
  if (!member) return null;
  return prepared<[number, number], { n: number }>(
    db,
    `SELECT count(*) AS n FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where} AND row < ?`,
  ).get(a.listId, a.row)!.n;
}

// ---- import ----

export interface CreateListArgs {
  name: string;
  fileName: string;
  fileBytes: number;
  country: string;
  detected: Detected;
  mapping: VariableMapping[];
  setup: EngineSetup;
  now: string;
}

function createList(db: Db, a: CreateListArgs): StoredList {
  const info = prepared(
    db,
    `INSERT INTO contact_lists (name, file_name, file_bytes, status, encoding, delimiter, phone_column, country,
       detected, mapping, headers, setup, counts, created_at, updated_at)
     VALUES (?, ?, ?, 'importing', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    a.name,
    a.fileName,
    a.fileBytes,
    a.detected.encoding,
    a.detected.delimiter,
    a.setup.header[a.setup.phoneIndex] ?? '',
    a.country,
    JSON.stringify(a.detected),
    JSON.stringify(a.mapping),
    JSON.stringify(a.setup.header),
    JSON.stringify(a.setup),
    JSON.stringify(emptyCounts()),
    a.now,
    a.now,
  );
  return getList(db, Number(info.lastInsertRowid)) as StoredList;
}

const ROW_VALUES = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
const ROW_PARAMS = 11;
/**
 * Rows per INSERT statement: one statement call per 64 rows costs a third less than one per row,
 * and per 256 rows another ~10% less (500k rows in a scratch measurement: 4.8 against 5.4 µs a
 * row; 512 gained nothing). A batch's last rows go 64 at a time, then the rest in one statement,
 * so at most 65 statements are ever prepared.
 */
const ROWS_PER_INSERT = 256;
const ROWS_PER_TAIL_INSERT = 64;
const insertRows = (n: number): string =>
  `INSERT INTO contacts (list_id, row, pos, cells, phone_raw, e164, bucket, issues, reasons, duplicate_of, tail)
  VALUES ${new Array<string>(n).fill(ROW_VALUES).join(', ')}`;

interface InsertBatchArgs {
  listId: number;
  seq: number;
  /** The batch as it arrived (text or UTF-8 bytes): checked here by decodeBatch. */
  data: string | Uint8Array;
  phoneIndex: number;
  /** Where the batch must start: the next position, after the last spreadsheet row stored. */
  pos: number;
  afterRow: number;
}

/** Checks one batch and stores it in one transaction; answers its row count and last row. */
function insertBatch(db: Db, a: InsertBatchArgs): { rows: number; lastRow: number | null } {
  const plan = decodeBatch(a.data, a.phoneIndex);
  if (plan.pos !== a.pos) {
    throw new DeskFailure(
      'invalid_request',
      `Import batch ${a.seq} starts at row position ${plan.pos}, expected ${a.pos}.`,
      'data',
    );
  }
  const first = plan.rows[0];
  if (first !== undefined && first <= a.afterRow)
    throw new DeskFailure('invalid_request', `Import batch ${a.seq} repeats row ${first}.`, 'data');
  const rejects = new Map<number, readonly [string, string | null]>();
  for (const [index, reasons, tail] of plan.rejects) rejects.set(index, [reasons, tail]);
  const n = plan.rows.length;
  const many = prepared(db, insertRows(ROWS_PER_INSERT));
  const params: unknown[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = plan.cellEnds[i] as number;
    const e164 = plan.e164[i] as number;
    const reject = rejects.get(i);
    params.push(
      a.listId,
      plan.rows[i],
      plan.pos + i,
      plan.cellsText.slice(start, end),
      plan.phoneRaw[i],
      e164 === 0 ? null : e164,
      plan.buckets[i],
      plan.issues[i],
      reject ? reject[0] : '',
      plan.duplicateOf[i],
      reject ? reject[1] : null,
    );
    start = end + 1;
    if (params.length === ROWS_PER_INSERT * ROW_PARAMS) {
      many.run(params);
      params.length = 0;
    }
  }
  const tail = ROWS_PER_TAIL_INSERT * ROW_PARAMS;
  const fewer = prepared(db, insertRows(ROWS_PER_TAIL_INSERT));
  let at = 0;
  for (; params.length - at >= tail; at += tail) fewer.run(params.slice(at, at + tail));
  if (at < params.length) prepared(db, insertRows((params.length - at) / ROW_PARAMS)).run(params.slice(at));
  markPositions(db, a.listId, plan.pos, plan.rows);
  return { rows: n, lastRow: plan.rows[n - 1] ?? null };
}

/** The tables that hold a list's rows by key, and their keys after list_id. */
const LIST_TABLE_KEYS = {
  contacts: ['row'],
  contact_undo_rows: ['row'],
  contact_undo_states: ['row'],
  contact_numbers: ['e164', 'row'],
  contact_marks: ['pos'],
} as const;
type ListTable = keyof typeof LIST_TABLE_KEYS;

/**
 * Deletes a list's first `limit` entries of `table` in key order (all that are left when fewer
 * remain) and answers how many. The `limit`th key is found first and the delete is a key range:
 * `key IN (SELECT … LIMIT n)` built a temporary table of the keys and took twice as long (1M
 * contact_numbers entries 1.1–1.3 s against 2.0–2.8 s; 1M rows 4.7–5.4 s against 6.1–6.8 s).
 */
export function deleteFirst(db: Db, table: ListTable, listId: number, limit: number): number {
  const keys = LIST_TABLE_KEYS[table].join(', ');
  const last = prepared<[number, number], Record<string, number>>(
    db,
    `SELECT ${keys} FROM ${table} WHERE list_id = ? ORDER BY ${keys} LIMIT 1 OFFSET ?`,
  ).get(listId, limit - 1);
  if (!last) return prepared(db, `DELETE FROM ${table} WHERE list_id = ?`).run(listId).changes;
  const bound = LIST_TABLE_KEYS[table].map((k) => last[k] as number);
  return prepared(
    db,
    `DELETE FROM ${table} WHERE list_id = ? AND (${keys}) <= (${bound.map(() => '?').join(', ')})`,
  ).run(listId, ...bound).changes;
}

/** Deletes up to `limit` entries of a list (numbers, undo, rows, marks), so big deletes never block the worker long. */
function clearRows(db: Db, a: { listId: number; limit: number }): number {
  let deleted = 0;
  for (const table of [
    'contact_numbers',
    'contact_undo_rows',
    'contact_undo_states',
    'contacts',
    'contact_marks',
  ] as const) {
    if (deleted >= a.limit) break;
    deleted += deleteFirst(db, table, a.listId, a.limit - deleted);
  }
  return deleted;
}

function finishImport(
  db: Db,
  a: { listId: number; report: ImportReport; lateDuplicates: Array<[number, number]>; now: string },
): StoredList {
  const list = getList(db, a.listId);
  if (!list || list.status !== 'importing')
    throw new DeskFailure('conflict', 'This import is not in progress.', 'importId');
  applyLateClaims(db, a.listId, a.lateDuplicates);
  // The number index is owed, not built: the service builds it right after (contacts.buildNumbers).
  prepared(db, `INSERT OR IGNORE INTO contact_numbers_pending (list_id) VALUES (?)`).run(a.listId);
  const counts = recount(db, a.listId);
  prepared(
    db,
    `UPDATE contact_lists SET status = 'ready', counts = ?, report = ?, encoding = ?, updated_at = ?, revision = revision + 1 WHERE id = ?`,
  ).run(JSON.stringify(counts), JSON.stringify(a.report), a.report.encoding, a.now, a.listId);
  return getList(db, a.listId) as StoredList;
}

// ---- fixes ----

function editCell(
  db: Db,
  a: { listId: number; row: number; column: number; value: string; now: string },
): { list: StoredList; changed: StoredRow[] } {
  const list = readyList(db, a.listId);
  const before = getRow(db, a.listId, a.row);
  if (!before) throw new DeskFailure('not_found', `Row ${a.row} is not in this list.`, 'row');
  const setup = JSON.parse(list.setup) as EngineSetup;
  const cells = JSON.parse(before.cells) as string[];
  const width = Math.max(cells.length, setup.header.length);
  if (a.column >= width)
    throw new DeskFailure('invalid_request', `Row ${a.row} has no column ${a.column + 1}.`, 'column');
  if (cells[a.column] === a.value) return { list, changed: [] };
  const next = cells.slice();
  while (next.length <= a.column) next.push(''); // filling a missing cell of a short row
  next[a.column] = a.value;

  const changes = new RowChanges(db);
  const after = {
    ...revalidated(db, before, next, setupWithCountry(setup, before.country), true, true),
    edited: 1,
    tail: null,
  };
  changes.set(before, after);
  for (const digits of new Set([before.e164, after.e164])) {
    if (digits !== null) recomputeNumber(db, a.listId, digits, changes);
  }
  commitChanges(db, list, `Edit of row ${a.row}`, a.now, changes);
  return {
    list: getList(db, a.listId) as StoredList,
    changed: [...changes.rows.values()].map((c) => c.after),
  };
}

function setExcluded(
  db: Db,
  a: { listId: number; rows: number[]; excluded: boolean; now: string },
): StoredList {
  const list = readyList(db, a.listId);
  const changes = new RowChanges(db);
  for (const row of new Set(a.rows)) {
    const before = getRow(db, a.listId, row);
    if (!before) throw new DeskFailure('not_found', `Row ${row} is not in this list.`, 'rows');
    if ((before.excluded === 1) !== a.excluded)
      changes.set(before, { ...before, excluded: a.excluded ? 1 : 0 });
  }
  if (changes.rows.size === 0) return list;
  const label = `${a.excluded ? 'Exclude' : 'Include'} ${changes.rows.size === 1 ? `row ${[...changes.rows.keys()][0]}` : `${formatCount(changes.rows.size)} rows`}`;
  commitChanges(db, list, label, a.now, changes);
  return getList(db, a.listId) as StoredList;
}

/** A number that carries its own country code ("+1 …", "0044 …") ignores the default country. */
export const hasCountryCode = (raw: string): boolean => {
  const text = phoneText(raw);
  return text.startsWith('+') || text.startsWith('00');
};

// ---- export ----

export interface ExportRow {
  row: number;
  cells: string;
  e164: number | null;
  reasons: string;
  tail: string | null;
}

/** The rows of one export file in file order, excluded (and, in the upload, suppressed) rows left out, a keyset page per step. */
function* exportRows(
  db: Db,
  /** `workspaceId`: whose do-not-call list holds rows back from the upload (absent = the active one's). */
  a: { listId: number; kind: 'upload' | 'rejects'; batch: number; workspaceId?: string },
): Iterator<ExportRow[], void, undefined> {
  const sql =
    a.kind === 'upload'
      ? `SELECT row, cells, e164, reasons, tail FROM contacts
         WHERE list_id = ? AND row > ? AND bucket = 0 AND excluded = 0
           AND NOT ${suppressedSql(a.workspaceId ?? null)} ORDER BY row LIMIT ?`
      : `SELECT row, cells, e164, reasons, tail FROM contacts
         WHERE list_id = ? AND row > ? AND bucket != 0 AND excluded = 0 ORDER BY row LIMIT ?`;
  let from = 0;
  for (;;) {
    const rows = prepared<[number, number, number], ExportRow>(db, sql).all(a.listId, from, a.batch);
    if (rows.length === 0) return;
    from = (rows[rows.length - 1] as ExportRow).row;
    yield rows;
  }
}

export const contactsQueries = {
  /** Saved lists (the read lane: the panel reloads during a bulk change without waiting for its steps). */
  'contacts.lists': read((db, _args: Record<string, never>) =>
    prepared<[], StoredList>(
      db,
      `${LIST_SELECT} WHERE l.status != 'deleting' ORDER BY l.created_at DESC, l.id DESC`,
    ).all(),
  ),
  'contacts.list': query((db, a: { listId: number }) => getList(db, a.listId)),
  'contacts.bulkRunning': query((db, a: { listId: number }) => bulkRunning(db, a.listId)),
  /** The list as a page read sees it (the read lane: never waits behind a bulk change's step). */
  'contacts.listForPage': read((db, a: { listId: number }) => getList(db, a.listId)),
  /** Lists left half-imported or half-deleted by an earlier run (removed at start-up). */
  'contacts.unfinished': query((db, _args: Record<string, never>) =>
    prepared<[], { id: number }>(db, `SELECT id FROM contact_lists WHERE status != 'ready'`)
      .all()
      .map((r) => r.id),
  ),
  'contacts.createList': txQuery(createList),
  'contacts.insertBatch': txQuery(insertBatch),
  'contacts.finishImport': txQuery(finishImport),
  /** The number index an import left owed (a no-op once built); answers whether it built it. */
  'contacts.buildNumbers': txQuery((db, a: { listId: number }) => ensureNumbers(db, a.listId)),
  'contacts.markDeleting': query(
    (db, a: { listId: number }) =>
      prepared(db, `UPDATE contact_lists SET status = 'deleting' WHERE id = ?`).run(a.listId).changes > 0,
  ),
  /** A deletion cancelled before its rows went: the list is back as it was. */
  'contacts.restoreDeleted': query(
    (db, a: { listId: number }) =>
      prepared(db, `UPDATE contact_lists SET status = 'ready' WHERE id = ? AND status = 'deleting'`).run(
        a.listId,
      ).changes > 0,
  ),
  'contacts.clearRows': txQuery(clearRows),
  'contacts.removeList': txQuery((db, a: { listId: number }) => {
    prepared(db, `DELETE FROM contact_undo WHERE list_id = ?`).run(a.listId);
    return prepared(db, `DELETE FROM contact_lists WHERE id = ?`).run(a.listId).changes > 0;
  }),
  'contacts.page': read(page),
  /** The service's reasons for the rows among `rows` a launch of the list had refused (latest campaign wins). */
  'contacts.refusals': read((db, a: { listId: number; rows: number[] }) =>
    prepared<[number, string], { row: number; reason: string }>(
      db,
      `SELECT r.row, r.reason FROM contact_refusals r
       WHERE r.list_id = ? AND r.row IN (SELECT value FROM json_each(?))
       ORDER BY r.row, (SELECT l.created_at FROM campaign_launches l
         WHERE coalesce(l.bulk_list_id, l.service_list_id) = r.bulk_list_id LIMIT 1)`,
    ).all(a.listId, JSON.stringify(a.rows)),
  ),
  'contacts.locate': read(locate),
  /** Rows of a filter the list's counts do not hold (empty:<column>). */
  'contacts.filterCount': read((db, a: { listId: number; filter: Exclude<ContactFilter, 'all'> }) => {
    const f = filterSql(a.filter);
    return prepared<[number], { n: number }>(
      db,
      `SELECT count(*) AS n FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where}`,
    ).get(a.listId)!.n;
  }),
  'contacts.editCell': txQuery(editCell),
  'contacts.setExcluded': txQuery(setExcluded),
  'contacts.exportRows': readStream(exportRows),
};
