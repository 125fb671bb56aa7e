// Bulk changes, undo and rollback of contact lists, a chunk at a time. Each `contacts.bulkStep`
// call is one short transaction (a time budget of rows), so the database worker answers the grid's
// page reads between chunks. The rule that keeps every chunk boundary consistent: before a row is
// first changed, its state goes to the undo's snapshot (in the same transaction; contact_undo_rows,
// or contact_undo_states for a change of the number columns or the exclusion alone), and the list's
// counts move by the changed rows' deltas. So Cancel is always possible by swapping the snapshot
// back, and an undo is the same swap. The job (phase, cursor) is saved with the list's undo slot
// in every step, so a crash mid-way is rolled back at the next start (`recoveryJob`).
import type { EngineSetup } from '../../../../shared/domain/contacts/index.ts';
import { resolveDefaultCountry } from '../../../../shared/domain/phone/index.ts';
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import {
  addRow,
  bulkBusy,
  flagsOf,
  holderOf,
  listCounts,
  ROW_COLUMNS,
  withDuplicateOf,
} from '../../contacts/rowState.ts';
import type { StoredCounts, StoredRow } from '../../contacts/rowState.ts';
import { numberOrder } from '../../contacts/numberOrder.ts';
import { insertMany } from './insertMany.ts';
import { blankCellSql } from './blankCell.ts';
import type { Db } from '../define.ts';
import { prepared, query, txQuery, writeTransaction } from '../define.ts';
import { ISSUE_BITS } from '../migrations/0130-contacts-formula-bidi-codes.ts';
import {
  getList,
  getRow,
  hasCountryCode,
  phoneRechecked,
  readyList,
  recomputeNumber,
  revalidated,
  RowChanges,
  deleteFirst,
} from './contacts.ts';
import type { ListState, StoredList } from './contacts.ts';
import { formatCount } from '../../../../shared/domain/formatCount.ts';

export type BulkAction =
  | { kind: 'exclude-invalid' }
  | { kind: 'exclude-landline' }
  /** Rows the upload carries with any of these columns blank (the service would refuse them). */
  | { kind: 'exclude-empty'; columns: number[] }
  | { kind: 'include-all' }
  | { kind: 'apply-country'; country: string; scope: 'invalid' | 'all' };

/**
 * A running job. mode 'apply': a bulk change (phases clear → main → [numbers] → done);
 * 'undo': swap the snapshot in (swap → drop → done); 'revert': the same swap, for a cancelled or
 * crashed change; 'unswap': a cancelled undo swaps its rows (row <= until) back and keeps the undo.
 */
export interface BulkJob {
  listId: number;
  mode: 'apply' | 'undo' | 'revert' | 'unswap';
  action: BulkAction | null;
  phase:
    | 'clear'
    | 'main'
    | 'renumber-clear'
    | 'renumber-scan'
    | 'renumber-fill'
    | 'numbers'
    | 'swap'
    | 'drop'
    | 'done';
  /**
   * Set for apply-a-country-to-all and its undo and rollbacks: rows are written without keeping
   * contact_numbers in step (random writes into that index cost more than the row itself), and
   * contact_numbers is rebuilt (the renumber phases: clear it, read the list's numbers into memory
   * a row range at a time, sort them there, then append them in number order) before `after`.
   */
  renumber?: boolean;
  /**
   * 'state': the snapshot keeps only the rows' state (contact_undo_states: number columns and
   * exclusion), because the change moves nothing else: apply-a-country-to-all, exclude and include,
   * their undo and rollbacks. Otherwise whole rows.
   */
  snapshot?: 'state';
  /** The phase after renumbering (unswap: its own finish, then done). */
  after?: 'numbers' | 'drop' | 'done';
  label: string;
  /** Keyset: the last row done (numbers and renumber-fill phases: with `e164`). */
  cursor: number;
  e164: number;
  /** Numbers phase: the first row of the current number. */
  winner: number;
  /** unswap: the last row the undo had swapped. */
  until: number;
  done: number;
  total: number;
  /** Rows whose number or issues changed (what the operator is told). */
  affected: number;
  /** Rows put in the snapshot so far (the undo's total, without counting a million rows). */
  saved: number;
}

/** Cancel turns a change (any phase) or an undo still swapping into its rollback. */
export const isCancellable = (job: BulkJob): boolean =>
  job.mode === 'apply' || (job.mode === 'undo' && job.phase === 'swap');

/** The job that puts a list back as it was when `job` is cancelled (or found unfinished at start). */
export function rollbackJob(job: BulkJob): BulkJob {
  const base = { ...job, cursor: 0, e164: 0, winner: 0, done: 0 };
  if (job.mode === 'apply') {
    // Nothing changed while the old undo was being cleared: just finish clearing.
    return job.phase === 'clear'
      ? { ...base, mode: 'revert', phase: 'drop', label: 'Cancelling' }
      : { ...base, mode: 'revert', phase: 'swap', label: 'Cancelling', until: 0, total: job.saved };
  }
  if (job.mode === 'undo' && job.phase === 'swap')
    return { ...base, mode: 'unswap', phase: 'swap', label: 'Cancelling the undo', until: job.cursor };
  return job;
}

// ---- the undo slot ----

interface SlotState extends ListState {
  job: BulkJob | null;
  /** Rows in the snapshot, once a bulk change is complete. */
  saved?: number;
  /** The change rewrote numbers in bulk: its undo renumbers too (BulkJob.renumber). */
  renumber?: boolean;
  /** Where the snapshot is (BulkJob.snapshot). */
  snapshot?: 'state';
}

function slot(db: Db, listId: number): { label: string; state: SlotState } | null {
  const saved = prepared<[number], { label: string; list_state: string }>(
    db,
    `SELECT label, list_state FROM contact_undo WHERE list_id = ?`,
  ).get(listId);
  if (!saved) return null;
  const state = JSON.parse(saved.list_state) as SlotState;
  return { label: saved.label, state: { ...state, job: state.job ?? null } };
}

const saveJob = (db: Db, job: BulkJob | null, listId: number, saved?: number): void => {
  const current = slot(db, listId);
  if (!current) return;
  const state: SlotState = { ...current.state, job, ...(saved === undefined ? {} : { saved }) };
  prepared(db, `UPDATE contact_undo SET list_state = ? WHERE list_id = ?`).run(JSON.stringify(state), listId);
};

const moveCounts = (db: Db, listId: number, counts: StoredCounts, now: string): void =>
  void prepared(
    db,
    `UPDATE contact_lists SET counts = ?, revision = revision + 1, updated_at = ? WHERE id = ?`,
  ).run(JSON.stringify(counts), now, listId);

/** Ends a chunk: first states of changed rows to the job's snapshot, counts moved by the deltas. */
function commitChunk(
  db: Db,
  list: StoredList,
  changes: RowChanges,
  now: string,
  snapshot: SnapshotTable,
): number {
  if (changes.rows.size === 0) return 0;
  let saved = 0;
  const counts = JSON.parse(list.counts) as StoredCounts;
  // Positional parameters (cheaper per call than named ones on a million rows).
  const insert = prepared(
    db,
    `INSERT OR IGNORE INTO ${snapshot.table} (${snapshot.keeps.join(', ')}) VALUES (${snapshot.keeps.map(() => '?').join(', ')})`,
  );
  for (const { before, after } of changes.rows.values()) {
    // Kept only if the row has no earlier snapshot in this job.
    saved += insert.run(snapshot.keeps.map((c) => before[c])).changes;
    addRow(counts, before, -1);
    addRow(counts, after, 1);
  }
  moveCounts(db, list.id, counts, now);
  return saved;
}

// ---- begin ----

/** Rows read per chunk of a bulk step (a step runs chunks until its time budget is spent). */
export const ROWS_PER_READ = 200;

function targetSetup(list: StoredList, country: string): EngineSetup {
  const resolved = resolveDefaultCountry(country);
  if (!resolved) {
    throw new DeskFailure(
      'invalid_request',
      `Unknown country "${country}": use an ISO code such as IN or a prefix such as +91.`,
      'country',
    );
  }
  const setup = JSON.parse(list.setup) as EngineSetup;
  return { ...setup, country: resolved.country, callingCode: resolved.callingCode };
}

const countWhere = (db: Db, listId: number, index: string, where: string): number =>
  prepared<[number], { n: number }>(
    db,
    `SELECT count(*) AS n FROM contacts ${indexedBy(index)} WHERE list_id = ? AND ${where}`,
  ).get(listId)!.n;

/** `INDEXED BY` an index, or nothing for the table's own row order (''). */
const indexedBy = (index: string): string => (index ? `INDEXED BY ${index}` : '');

interface Exclusion {
  /** '' = the table's own order (valid rows, most of a list, have no partial index). */
  index: string;
  where: string;
  /** The value `excluded` takes. */
  excluded: 0 | 1;
}
const EXCLUDE: Exclusion = { index: 'contacts_invalid', where: 'bucket = 1 AND excluded = 0', excluded: 1 };
const EXCLUDE_LANDLINE: Exclusion = {
  index: 'contacts_issue_phone_landline',
  where: `issues & ${ISSUE_BITS.phone_landline} != 0 AND excluded = 0`,
  excluded: 1,
};
/** Rows the upload carries (valid, not excluded) with any of `columns` blank. */
const excludeEmpty = (columns: number[]): Exclusion => ({
  index: '',
  where: `bucket = 0 AND excluded = 0 AND (${columns.map((c) => blankCellSql(c)).join(' OR ')})`,
  excluded: 1,
});
const INCLUDE: Exclusion = { index: 'contacts_excluded', where: 'excluded = 1', excluded: 0 };
const PHONE_INVALID = {
  index: 'contacts_issue_phone_invalid',
  where: `issues & ${ISSUE_BITS.phone_invalid} != 0`,
};

/** Starts a bulk change (its undo slot replaces the list's), or null when there is nothing to do. */
function bulkBegin(db: Db, a: { listId: number; action: BulkAction; now: string }): BulkJob | null {
  const list = readyList(db, a.listId);
  if (slot(db, a.listId)?.state.job) throw bulkBusy();
  const { action } = a;
  let label: string;
  let total: number;
  if (action.kind === 'exclude-invalid') {
    total = countWhere(db, a.listId, EXCLUDE.index, EXCLUDE.where);
    label = `Exclude ${formatCount(total)} invalid rows`;
  } else if (action.kind === 'exclude-landline') {
    total = countWhere(db, a.listId, EXCLUDE_LANDLINE.index, EXCLUDE_LANDLINE.where);
    label = `Exclude ${formatCount(total)} landline-only numbers`;
  } else if (action.kind === 'exclude-empty') {
    const f = excludeEmpty(action.columns);
    total = countWhere(db, a.listId, f.index, f.where);
    label = `Exclude ${formatCount(total)} rows with an empty variable`;
  } else if (action.kind === 'include-all') {
    total = countWhere(db, a.listId, INCLUDE.index, INCLUDE.where);
    label = `Include ${formatCount(total)} excluded rows`;
  } else {
    targetSetup(list, action.country); // refuses an unknown country before anything changes
    total =
      action.scope === 'invalid'
        ? countWhere(db, a.listId, PHONE_INVALID.index, PHONE_INVALID.where)
        : (JSON.parse(list.counts) as StoredCounts).byBucket.reduce((n, [kept, out]) => n + kept + out, 0);
    label = `Apply ${action.country} to ${action.scope === 'invalid' ? 'invalid numbers' : 'numbers'} without a country code`;
  }
  if (total === 0) return null;
  const renumber = action.kind === 'apply-country' && action.scope === 'all';
  // Re-reading every number, or excluding, moves only the rows' state: the snapshot keeps just that
  // (applying a country to invalid numbers also sets the row's own country: whole rows).
  const kept = {
    ...(renumber ? { renumber } : {}),
    ...(action.kind !== 'apply-country' || renumber ? { snapshot: 'state' as const } : {}),
  };
  const job: BulkJob = { ...newJob(a.listId, 'apply', action, 'clear', label, total), ...kept };
  const state: SlotState = { counts: list.counts, setup: list.setup, country: list.country, job, ...kept };
  prepared(
    db,
    `INSERT INTO contact_undo (list_id, label, list_state, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (list_id) DO UPDATE SET label = excluded.label, list_state = excluded.list_state, created_at = excluded.created_at`,
  ).run(a.listId, label, JSON.stringify(state), a.now);
  moveCounts(db, a.listId, JSON.parse(list.counts) as StoredCounts, a.now); // the undo label changed
  return job;
}

const newJob = (
  listId: number,
  mode: BulkJob['mode'],
  action: BulkAction | null,
  phase: BulkJob['phase'],
  label: string,
  total: number,
): BulkJob => ({
  listId,
  mode,
  action,
  phase,
  label,
  cursor: 0,
  e164: 0,
  winner: 0,
  until: 0,
  done: 0,
  total,
  affected: 0,
  saved: 0,
});

/** Starts undoing the list's last change, a chunk at a time. */
function undoBegin(db: Db, a: { listId: number }): BulkJob {
  readyList(db, a.listId);
  const saved = slot(db, a.listId);
  if (!saved) throw new DeskFailure('conflict', 'There is nothing to undo.', 'listId');
  if (saved.state.job) throw bulkBusy();
  // A bulk change recorded its snapshot's size; an edit's few rows are counted.
  const total =
    saved.state.saved ??
    prepared<[number], { n: number }>(
      db,
      `SELECT count(*) AS n FROM contact_undo_rows WHERE list_id = ?`,
    ).get(a.listId)!.n;
  const job: BulkJob = {
    ...newJob(a.listId, 'undo', null, 'swap', saved.label, total),
    ...(saved.state.renumber ? { renumber: true } : {}),
    ...(saved.state.snapshot ? { snapshot: saved.state.snapshot } : {}),
  };
  saveJob(db, job, a.listId);
  return job;
}

// ---- steps ----

/**
 * What committing one chunk of a list's phase cost lately, in ms. A chunk that rewrites rows spread
 * over the list (exclude / include: a row or two per page) dirties a page per row, and the commit
 * that writes those pages to the WAL took over twice as long as the chunks themselves (48 ms of
 * chunks, 120 ms of commit on a slow machine), all of it while the grid's page reads waited. So a
 * step counts its commit into its budget.
 */
const commitMsPerChunk = new Map<string, number>();
const commitKey = (job: BulkJob): string => `${job.listId}:${job.mode}:${job.phase}`;

/**
 * One phase's worth of rows, until the time budget (commit included) is spent; returns the job as
 * it now stands and how many chunks it took.
 */
function bulkStep(
  db: Db,
  a: { job: BulkJob; cancel: boolean; budgetMs: number; now: string },
): { job: BulkJob; chunks: number } {
  let job = a.cancel && isCancellable(a.job) ? rollbackJob(a.job) : a.job;
  const list = getList(db, job.listId);
  if (!list || list.status !== 'ready')
    throw new DeskFailure('not_found', 'This contact list no longer exists.', 'listId');
  // A chunk starts only when one like the last, and the commit of every chunk so far and of that
  // one, still end by the deadline: a step overshoots its budget by at most one chunk when that
  // chunk alone is longer (a slow machine, a slow disk).
  const deadline = performance.now() + a.budgetMs;
  const commitMs = commitMsPerChunk.get(commitKey(job)) ?? 0;
  let lastMs: number;
  let chunks = 0;
  do {
    const started = performance.now();
    job = stepOnce(db, job, a.now);
    chunks++;
    lastMs = performance.now() - started;
  } while (job.phase !== 'done' && performance.now() + lastMs + (chunks + 1) * commitMs < deadline);
  if (job.phase !== 'done') saveJob(db, job, job.listId);
  return { job, chunks };
}

/** bulkStep in its transaction; the commit's cost per chunk is remembered for the next step. */
function timedBulkStep(db: Db, a: { job: BulkJob; cancel: boolean; budgetMs: number; now: string }): BulkJob {
  const key = commitKey(a.job);
  let workEnd = 0;
  const { job, chunks } = writeTransaction(db, () => {
    const step = bulkStep(db, a);
    workEnd = performance.now();
    return step;
  });
  const perChunk = (performance.now() - workEnd) / chunks;
  // Smoothed: one quick commit (a chunk that found little to change) does not undo the estimate.
  const before = commitMsPerChunk.get(key);
  commitMsPerChunk.set(key, before === undefined ? perChunk : (before + perChunk) / 2);
  // A finished job forgets its list's estimates (of every phase it went through).
  if (job.phase === 'done')
    for (const k of commitMsPerChunk.keys()) if (k.startsWith(`${job.listId}:`)) commitMsPerChunk.delete(k);
  return job;
}

function stepOnce(db: Db, job: BulkJob, now: string): BulkJob {
  switch (job.phase) {
    case 'clear':
      return clearSnapshot(db, job);
    case 'main':
      return mainChunk(db, job, now);
    case 'renumber-clear':
      return renumberClearChunk(db, job);
    case 'renumber-scan':
      return renumberScanChunk(db, job);
    case 'renumber-fill':
      return renumberFillChunk(db, job, now);
    case 'numbers':
      return numbersChunk(db, job, now);
    case 'swap':
      return swapChunk(db, job, now);
    case 'drop':
      return dropChunk(db, job, now);
    case 'done':
      return job;
    default:
      // A phase of an earlier version (renumber-sort, staged in a TEMP table): renumber again.
      return restageFromStart(job);
  }
}

/** Deletes the old undo's rows, a chunk at a time. */
function clearSnapshot(db: Db, job: BulkJob): BulkJob {
  const deleted = deleteSnapshotRows(db, job.listId);
  return deleted < ROWS_PER_DELETE ? { ...job, phase: 'main', cursor: 0 } : job;
}

const ROWS_PER_DELETE = 2000;
/** Deletes up to about ROWS_PER_DELETE entries of the list's snapshot (either table). */
function deleteSnapshotRows(db: Db, listId: number): number {
  const rows = deleteFirst(db, 'contact_undo_rows', listId, ROWS_PER_DELETE);
  return rows >= ROWS_PER_DELETE
    ? rows
    : rows + deleteFirst(db, 'contact_undo_states', listId, ROWS_PER_DELETE);
}

/** The `n`th row of a list in `table` after `after` (and up to `upTo`), or null when fewer follow: a chunk's keyset end. */
const nthRowAfter = (
  db: Db,
  table: 'contacts' | SnapshotTable['table'],
  listId: number,
  after: number,
  n: number,
  upTo = Number.MAX_SAFE_INTEGER,
): number | null =>
  prepared<[number, number, number], { row: number }>(
    db,
    `SELECT row FROM ${table} WHERE list_id = ? AND row > ? AND row <= ? ORDER BY row LIMIT 1 OFFSET ${n - 1}`,
  ).get(listId, after, upTo)?.row ?? null;

const nextRows = (
  db: Db,
  listId: number,
  from: number,
  filter: { index: string; where: string } | null,
  limit = ROWS_PER_READ,
) =>
  prepared<[number, number, number], StoredRow>(
    db,
    filter
      ? `SELECT * FROM contacts INDEXED BY ${filter.index} WHERE list_id = ? AND ${filter.where} AND row > ? ORDER BY row LIMIT ?`
      : `SELECT * FROM contacts WHERE list_id = ? AND row > ? AND country IS NULL ORDER BY row LIMIT ?`,
  ).all(listId, from, limit);

/** Rows per chunk of exclude / include, done in SQL (only `excluded` moves). */
export const EXCLUSION_CHUNK = 500;

/**
 * Exclude or include a chunk of rows in three statements: snapshot, count per bucket, update.
 * Only the exclusion moves, so only the bucket pairs of the counts move (issue and edit counts
 * count excluded rows too).
 */
function exclusionChunk(db: Db, job: BulkJob, f: Exclusion, now: string): BulkJob {
  const { excluded } = f;
  const snapshot = snapshotOf(job);
  const upper =
    prepared<[number, number], { row: number }>(
      db,
      `SELECT row FROM contacts ${indexedBy(f.index)} WHERE list_id = ? AND ${f.where} AND row > ? ORDER BY row LIMIT 1 OFFSET ${EXCLUSION_CHUNK - 1}`,
    ).get(job.listId, job.cursor)?.row ?? Number.MAX_SAFE_INTEGER;
  const range = `list_id = ? AND ${f.where} AND row > ? AND row <= ?`;
  const args: [number, number, number] = [job.listId, job.cursor, upper];
  const perBucket = prepared<[number, number, number], { bucket: 0 | 1 | 2; n: number }>(
    db,
    `SELECT bucket, count(*) AS n FROM contacts ${indexedBy(f.index)} WHERE ${range} GROUP BY bucket`,
  ).all(...args);
  const saved = prepared<[number, number, number]>(
    db,
    `INSERT OR IGNORE INTO ${snapshot.table} SELECT ${snapshot.keeps.join(', ')} FROM contacts ${indexedBy(f.index)} WHERE ${range}`,
  ).run(...args).changes;
  const n = prepared<[number, number, number]>(
    db,
    `UPDATE contacts SET excluded = ${excluded} WHERE ${range}`,
  ).run(...args).changes;
  const list = getList(db, job.listId) as StoredList;
  const counts = JSON.parse(list.counts) as StoredCounts;
  for (const { bucket, n: moved } of perBucket) {
    counts.byBucket[bucket][excluded ? 0 : 1] -= moved;
    counts.byBucket[bucket][excluded] += moved;
  }
  if (n > 0) moveCounts(db, job.listId, counts, now);
  const next = {
    ...job,
    cursor: upper,
    done: job.done + n,
    affected: job.affected + n,
    saved: job.saved + saved,
  };
  return upper === Number.MAX_SAFE_INTEGER ? finishApply(db, next, now) : next;
}

function mainChunk(db: Db, job: BulkJob, now: string): BulkJob {
  const action = job.action as BulkAction;
  if (action.kind === 'exclude-invalid') return exclusionChunk(db, job, EXCLUDE, now);
  if (action.kind === 'exclude-landline') return exclusionChunk(db, job, EXCLUDE_LANDLINE, now);
  if (action.kind === 'exclude-empty') return exclusionChunk(db, job, excludeEmpty(action.columns), now);
  if (action.kind === 'include-all') return exclusionChunk(db, job, INCLUDE, now);
  const list = getList(db, job.listId) as StoredList;
  if (action.scope === 'all') return applyAllChunk(db, job, list, action.country, now);
  // A number read with the new country wins or repeats like an edit: its number is recomputed.
  const changes = new RowChanges(db);
  const target = targetSetup(list, action.country);
  const rows = nextRows(db, job.listId, job.cursor, PHONE_INVALID);
  const numbers = new Set<number>();
  let affected = 0;
  for (const before of rows) {
    if (hasCountryCode(before.phone_raw)) continue;
    const checked = revalidated(db, before, null, target, true);
    if (checked.e164 === null) continue;
    changes.set(before, { ...checked, country: action.country });
    numbers.add(checked.e164);
    affected++;
  }
  for (const digits of numbers) recomputeNumber(db, job.listId, digits, changes);
  const saved = commitChunk(db, list, changes, now, snapshotOf(job));
  const next = {
    ...job,
    saved: job.saved + saved,
    cursor: rows.at(-1)?.row ?? job.cursor,
    done: job.done + rows.length,
    affected: job.affected + affected,
  };
  return rows.length === ROWS_PER_READ ? next : finishApply(db, next, now);
}

/** What apply-to-all reads of a row: all but its cells and tail (only the phone is read again). */
type NumberState = Omit<StoredRow, 'cells' | 'tail'>;
const NUMBER_STATE = ROW_COLUMNS.filter((c) => c !== 'cells' && c !== 'tail');

/**
 * Apply to all: every row without its own country, its phone read again without duplicates (the
 * numbers phase decides them; a row whose phone text alone decides its issue is checked whole).
 * Only the number columns move (the cells and the raw phone are the row's own): the rows that
 * change, and only those, go to the snapshot as they were (about half a list changes, and its
 * undo then reads and swaps only them), are written in one statement, and contact_numbers is
 * rebuilt after the pass.
 */
function applyAllChunk(db: Db, job: BulkJob, list: StoredList, country: string, now: string): BulkJob {
  const target = targetSetup(list, country);
  const rows = prepared<[number, number, number], NumberState>(
    db,
    `SELECT ${NUMBER_STATE.join(', ')} FROM contacts WHERE list_id = ? AND row > ? AND country IS NULL ORDER BY row LIMIT ?`,
  ).all(job.listId, job.cursor, NUMBER_CHUNK);
  const lastRow = rows.at(-1)?.row;
  const counts = JSON.parse(list.counts) as StoredCounts;
  const changed: NumberState[] = [];
  let affected = 0;
  for (const before of rows) {
    if (hasCountryCode(before.phone_raw)) continue;
    const checked =
      phoneRechecked(before, target) ??
      revalidated(db, getRow(db, job.listId, before.row) as StoredRow, null, target, false);
    if (checked.e164 !== before.e164 || flagsOf(checked.issues) !== flagsOf(before.issues)) affected++;
    if (
      checked.e164 === before.e164 &&
      checked.issues === before.issues &&
      checked.reasons === before.reasons
    )
      continue;
    const after: NumberState = {
      ...before,
      e164: checked.e164,
      bucket: checked.bucket,
      issues: checked.issues,
      reasons: checked.reasons,
      duplicate_of: checked.duplicate_of,
    };
    addRow(counts, before, -1);
    addRow(counts, after, 1);
    changed.push(after);
  }
  const saved = writeNumberColumns(db, job.listId, changed, snapshotOf(job));
  if (changed.length > 0) moveCounts(db, job.listId, counts, now);
  const next = {
    ...job,
    saved: job.saved + saved,
    cursor: lastRow ?? job.cursor,
    done: job.done + rows.length,
    affected: job.affected + affected,
  };
  if (rows.length === NUMBER_CHUNK) return next;
  // Rows with a valid number, about (counting contact_numbers would read a million entries).
  return renumberThen(db, { ...next, label: 'Finding duplicates' }, 'numbers', now);
}

/** Rows read per chunk of apply-a-country-to-all (written in one statement: larger chunks pay). */
const NUMBER_CHUNK = 1000;
const NUMBER_COLUMNS = ['e164', 'bucket', 'issues', 'reasons', 'duplicate_of'] as const;

/**
 * Writes the number columns of `rows` from a temp table (one statement per row costs more than
 * the write), after the rows as stored go to the job's snapshot from the same temp table (a row
 * kept earlier in this job keeps that first state). Returns the rows kept. contact_numbers is left
 * to the renumber phases.
 */
function writeNumberColumns(
  db: Db,
  listId: number,
  rows: readonly NumberState[],
  snapshot: SnapshotTable,
): number {
  if (rows.length === 0) return 0;
  db.exec(
    `CREATE TEMP TABLE IF NOT EXISTS number_updates (row INTEGER PRIMARY KEY, ${NUMBER_COLUMNS.join(', ')})`,
  );
  prepared(db, `DELETE FROM temp.number_updates`).run();
  const values: unknown[] = [];
  for (const r of rows) {
    values.push(r.row);
    for (const c of NUMBER_COLUMNS) values.push(r[c]);
  }
  insertMany(db, `INSERT INTO temp.number_updates`, 1 + NUMBER_COLUMNS.length, values);
  const range = [listId, rows[0]!.row, rows[rows.length - 1]!.row] as const;
  // The row range keeps SQLite on the primary key (it knows nothing of the temp table's size).
  const kept = prepared<[number, number, number]>(
    db,
    `INSERT OR IGNORE INTO ${snapshot.table} (${snapshot.keeps.join(', ')})
     SELECT ${snapshot.keeps.map((c) => `c.${c}`).join(', ')} FROM temp.number_updates AS n
     JOIN contacts AS c ON c.list_id = ? AND c.row BETWEEN ? AND ? AND c.row = n.row`,
  ).run(...range).changes;
  prepared<[number, number, number]>(
    db,
    `UPDATE contacts AS c SET ${NUMBER_COLUMNS.map((col) => `${col} = n.${col}`).join(', ')}
     FROM temp.number_updates AS n WHERE c.list_id = ? AND c.row BETWEEN ? AND ? AND c.row = n.row`,
  ).run(...range);
  return kept;
}

/** Numbers per chunk of the numbers phase (read from memory: only the rows that change are written). */
const NUMBERS_CHUNK = 20_000;

/**
 * Every number in number order (the scan in memory): its holder (holderOf: the first row, in file
 * order, that is otherwise valid, else the first row) wins, the others repeat it. A number's rows
 * are settled together, so a chunk ends after the last row of a number.
 */
function numbersChunk(db: Db, job: BulkJob, now: string): BulkJob {
  const scan = scanOf(job);
  if (!scan?.order) return restageFromStart(job);
  const { order, e164, row, issues, dup } = scan;
  const list = getList(db, job.listId) as StoredList;
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
  scans.delete(job.listId);
  return finishApply(db, next, now);
}

/** The change is complete: apply-all sets the list's default country; the slot is a plain undo. */
function finishApply(db: Db, job: BulkJob, now: string): BulkJob {
  const action = job.action as BulkAction;
  if (action.kind === 'apply-country' && action.scope === 'all') {
    const list = getList(db, job.listId) as StoredList;
    prepared(db, `UPDATE contact_lists SET setup = ?, country = ? WHERE id = ?`).run(
      JSON.stringify(targetSetup(list, action.country)),
      action.country,
      job.listId,
    );
  }
  saveJob(db, null, job.listId, job.saved);
  const list = getList(db, job.listId) as StoredList;
  moveCounts(db, job.listId, JSON.parse(list.counts) as StoredCounts, now);
  return { ...job, phase: 'done' };
}

/** Snapshot rows swapped per step of an undo (set-based statements: larger ranges pay). */
export const SWAP_CHUNK = 1000;
/** The row columns a swap exchanges (not the keys, nor `pos`, which never changes). */
const SWAP_COLUMNS = ROW_COLUMNS.filter((c) => c !== 'list_id' && c !== 'row' && c !== 'pos');

/** A job's snapshot: its table, the columns it keeps, and those a swap exchanges. */
interface SnapshotTable {
  table: 'contact_undo_rows' | 'contact_undo_states';
  keeps: readonly (keyof StoredRow)[];
  swaps: readonly (keyof StoredRow)[];
  /** The connection's TEMP table of a swap's rows as the list had them. */
  temp: string;
}
const WHOLE_ROWS: SnapshotTable = {
  table: 'contact_undo_rows',
  keeps: ROW_COLUMNS,
  swaps: SWAP_COLUMNS,
  temp: 'swap_rows',
};
const ROW_STATES: SnapshotTable = {
  table: 'contact_undo_states',
  keeps: ['list_id', 'row', ...NUMBER_COLUMNS, 'excluded'],
  swaps: [...NUMBER_COLUMNS, 'excluded'],
  temp: 'swap_states',
};
const snapshotOf = (job: BulkJob): SnapshotTable => (job.snapshot === 'state' ? ROW_STATES : WHOLE_ROWS);

/**
 * Swaps the snapshot rows in (list, row > from, row <= to) with the rows they were taken from, in
 * SQL: the rows that differ go to a temp table, the list takes the snapshot's values, the snapshot
 * takes the temp table's; counts move by the swapped rows' deltas; contact_numbers follows the
 * numbers that moved unless the job renumbers.
 */
function swapRange(db: Db, job: BulkJob, range: [number, number, number], now: string): void {
  const { table, swaps, temp } = snapshotOf(job);
  // What the snapshot does not swap (a state snapshot: the edit mark) is read from the list, for the counts.
  const kept = (['excluded', 'edited'] as const).filter((c) => !swaps.includes(c));
  const differ = swaps.map((c) => `c.${c} IS NOT u.${c}`).join(' OR ');
  db.exec(
    `CREATE TEMP TABLE IF NOT EXISTS ${temp} AS SELECT list_id, row, ${[...swaps, ...kept].join(', ')} FROM main.contacts WHERE 0`,
  );
  prepared(db, `DELETE FROM temp.${temp}`).run();
  const moved = prepared<[number, number, number]>(
    db,
    `INSERT INTO temp.${temp} SELECT c.list_id, c.row, ${[...swaps, ...kept].map((c) => `c.${c}`).join(', ')}
     FROM ${table} u JOIN contacts c ON c.list_id = u.list_id AND c.row = u.row
     WHERE u.list_id = ? AND u.row > ? AND u.row <= ? AND (${differ})`,
  ).run(...range).changes;
  if (moved === 0) return;
  // Before anything moves, in one pass over the rows that differ (s: the list's, u: the
  // snapshot's): how many rows of each kind go and come (counts), and which columns differ
  // somewhere in the range: only those are written, because SQLite maintains the indexes of the
  // columns an UPDATE sets (an exclusion's undo touches one index, not fourteen).
  const from = (c: 'excluded' | 'edited') => (swaps.includes(c) ? 'u' : 's');
  const groups = prepared<[], SwapGroup>(
    db,
    `SELECT s.bucket AS ob, s.excluded AS oe, s.issues AS oi, s.edited AS od,
       u.bucket AS nb, ${from('excluded')}.excluded AS ne, u.issues AS ni, ${from('edited')}.edited AS nd,
       count(*) AS n, ${swaps.map((c) => `max(s.${c} IS NOT u.${c}) AS d_${c}`).join(', ')}
     FROM temp.${temp} s JOIN ${table} u ON u.list_id = s.list_id AND u.row = s.row
     GROUP BY ob, oe, oi, od, nb, ne, ni, nd`,
  ).all();
  const columns = swaps.filter((col) => groups.some((g) => g[`d_${col}`] === 1));
  prepared<[number, number, number]>(
    db,
    `UPDATE contacts AS c SET ${columns.map((col) => `${col} = u.${col}`).join(', ')}
     FROM ${table} AS u
     WHERE c.list_id = ? AND u.list_id = c.list_id AND u.row = c.row AND u.row > ? AND u.row <= ? AND (${differ})`,
  ).run(...range);
  prepared<[number]>(
    db,
    `UPDATE ${table} AS u SET ${columns.map((col) => `${col} = c.${col}`).join(', ')}
     FROM temp.${temp} AS c WHERE u.list_id = ? AND c.list_id = u.list_id AND u.row = c.row`,
  ).run(job.listId);
  if (!job.renumber) {
    const changedNumbers = `FROM temp.${temp} s JOIN contacts c ON c.list_id = s.list_id AND c.row = s.row WHERE s.e164 IS NOT c.e164`;
    prepared(
      db,
      `DELETE FROM contact_numbers WHERE (list_id, e164, row) IN (SELECT s.list_id, s.e164, s.row ${changedNumbers} AND s.e164 IS NOT NULL)`,
    ).run();
    prepared(
      db,
      `INSERT INTO contact_numbers (list_id, e164, row) SELECT c.list_id, c.e164, c.row ${changedNumbers} AND c.e164 IS NOT NULL`,
    ).run();
  }
  const list = getList(db, job.listId) as StoredList;
  const counts = JSON.parse(list.counts) as StoredCounts;
  for (const g of groups) {
    addRow(counts, { bucket: g.ob, excluded: g.oe, issues: g.oi, edited: g.od }, -g.n);
    addRow(counts, { bucket: g.nb, excluded: g.ne, issues: g.ni, edited: g.nd }, g.n);
  }
  moveCounts(db, job.listId, counts, now);
}

/** Rows of one kind a swap moves: the list's flags (o…) and the snapshot's (n…), `n` rows, and `d_<column>` 1 where a column differs. */
type SwapGroup = Record<`d_${string}`, number> & {
  ob: number;
  oe: number;
  oi: number;
  od: number;
  nb: number;
  ne: number;
  ni: number;
  nd: number;
  n: number;
};

/**
 * Swaps a chunk of snapshot rows with the rows they were taken from: the list gets the snapshot,
 * the snapshot gets what the list had (so the swap can be swapped back). undo/revert: every
 * snapshot row; unswap: those up to `until`.
 */
function swapChunk(db: Db, job: BulkJob, now: string): BulkJob {
  const upper = job.mode === 'unswap' ? job.until : Number.MAX_SAFE_INTEGER;
  const { table } = snapshotOf(job);
  const end = nthRowAfter(db, table, job.listId, job.cursor, SWAP_CHUNK, upper);
  const chunk: [number, number, number] = [job.listId, job.cursor, end ?? upper];
  const rows =
    end !== null
      ? SWAP_CHUNK
      : prepared<[number, number, number], { n: number }>(
          db,
          `SELECT count(*) AS n FROM ${table} WHERE list_id = ? AND row > ? AND row <= ?`,
        ).get(...chunk)!.n;
  swapRange(db, job, chunk, now);
  const next = { ...job, cursor: end ?? upper, done: job.done + rows };
  if (end !== null) return next;
  if (job.mode === 'unswap') return renumberThen(db, next, 'done', now);
  // Every row is back: the list's settings too; then the snapshot (now the undone state) goes.
  const saved = slot(db, job.listId);
  if (saved) {
    prepared(db, `UPDATE contact_lists SET setup = ?, country = ? WHERE id = ?`).run(
      saved.state.setup,
      saved.state.country,
      job.listId,
    );
  }
  return renumberThen(db, { ...next, cursor: 0, done: 0 }, 'drop', now);
}

/** Back as before the undo started: the undo is still there. */
function finishUnswap(db: Db, job: BulkJob, now: string): BulkJob {
  saveJob(db, null, job.listId);
  const list = getList(db, job.listId) as StoredList;
  moveCounts(db, job.listId, JSON.parse(list.counts) as StoredCounts, now);
  return { ...job, phase: 'done' };
}

// ---- renumbering: contact_numbers rebuilt in number order ----

/** Entries deleted per renumber-clear chunk (sequential work: large chunks stay short). */
const RENUMBER_CHUNK = 20_000;
/** Rows read per renumber-scan chunk (four narrow columns of wide rows: ~20 ms on the bench's machine). */
export const SCAN_CHUNK = 20_000;
/** Entries appended per renumber-fill chunk. */
export const FILL_CHUNK = 20_000;

/**
 * A list's numbers as the renumber-scan phase read them, in row order (one per list, in the
 * database worker's memory; ~18 bytes a number). Inserting a row range's numbers into
 * contact_numbers directly put them at random places in its b-tree (1M rows 7-8 s); staging them
 * in a TEMP table to sort them took ~3.5 s for 1M rows, most of it the temp b-tree's inserts.
 * Here the numbers are sorted in memory (numberOrder, ~0.3 s) and appended in number order, and
 * the numbers phase decides duplicates from the same arrays. Gone with the worker: a phase that
 * finds no scan (or one that is not its job's) clears and scans again.
 */
interface NumberScan {
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
const scans = new Map<number, NumberScan>();
const scanOf = (job: BulkJob): NumberScan | undefined => scans.get(job.listId);

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

/** Goes to `after`, through the renumber phases when the job writes rows without contact_numbers. */
function renumberThen(db: Db, job: BulkJob, after: NonNullable<BulkJob['after']>, now: string): BulkJob {
  if (job.renumber) {
    const rows = listCounts(JSON.parse((getList(db, job.listId) as StoredList).counts) as StoredCounts).rows;
    return { ...job, phase: 'renumber-clear', after, cursor: 0, e164: 0, winner: 0, done: 0, total: rows };
  }
  return afterRenumber(db, job, after, now);
}

function afterRenumber(db: Db, job: BulkJob, after: NonNullable<BulkJob['after']>, now: string): BulkJob {
  if (after !== 'numbers') scans.delete(job.listId);
  if (after === 'done') return finishUnswap(db, job, now);
  if (after === 'drop') return { ...job, phase: 'drop', cursor: 0, done: 0 };
  return { ...job, phase: 'numbers', cursor: 0, e164: 0, winner: 0, done: 0, total: scanOf(job)?.n ?? 0 };
}

function renumberClearChunk(db: Db, job: BulkJob): BulkJob {
  const deleted = deleteFirst(db, 'contact_numbers', job.listId, RENUMBER_CHUNK);
  if (deleted >= RENUMBER_CHUNK) return job;
  scans.set(job.listId, newScan(job.total));
  return { ...job, phase: 'renumber-scan', cursor: 0, e164: 0, done: 0 };
}

/** The list's numbers cleared and read again from the start (the scan was lost with the worker). */
const restageFromStart = (job: BulkJob): BulkJob => ({
  ...job,
  phase: 'renumber-clear',
  cursor: 0,
  e164: 0,
  done: 0,
});

type ScannedRow = [row: number, e164: number | null, issues: number, duplicateOf: number];

function renumberScanChunk(db: Db, job: BulkJob): BulkJob {
  const scan = scanOf(job);
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

function renumberFillChunk(db: Db, job: BulkJob, now: string): BulkJob {
  const scan = scanOf(job);
  if (!scan?.order) return restageFromStart(job);
  const { order, e164, row } = scan;
  const end = Math.min(scan.n, job.cursor + FILL_CHUNK);
  const values: number[] = [];
  for (let i = job.cursor; i < end; i++) values.push(job.listId, e164[order[i]!]!, row[order[i]!]!);
  insertMany(db, `INSERT INTO contact_numbers (list_id, e164, row)`, 3, values);
  const half = Math.floor(job.total / 2);
  if (end < scan.n)
    return { ...job, cursor: end, done: half + Math.floor(((job.total - half) * end) / scan.n) };
  return afterRenumber(db, { ...job, cursor: 0, e164: 0, done: job.total }, job.after ?? 'drop', now);
}

function dropChunk(db: Db, job: BulkJob, now: string): BulkJob {
  if (deleteSnapshotRows(db, job.listId) >= ROWS_PER_DELETE) return job;
  prepared(db, `DELETE FROM contact_undo WHERE list_id = ?`).run(job.listId);
  const list = getList(db, job.listId) as StoredList;
  moveCounts(db, job.listId, JSON.parse(list.counts) as StoredCounts, now);
  return { ...job, phase: 'done' };
}

/** Jobs left unfinished by an earlier run, as the jobs that roll them back (run at start-up). */
function unfinishedJobs(db: Db): BulkJob[] {
  const out: BulkJob[] = [];
  for (const r of prepared<[], { list_state: string }>(
    db,
    `SELECT u.list_state FROM contact_undo u JOIN contact_lists l ON l.id = u.list_id WHERE l.status = 'ready'`,
  ).all()) {
    const job = (JSON.parse(r.list_state) as SlotState).job;
    if (job) out.push(rollbackJob(job));
  }
  return out;
}

export const contactsBulkQueries = {
  'contacts.bulkBegin': txQuery(bulkBegin),
  'contacts.undoBegin': txQuery(undoBegin),
  'contacts.bulkStep': query(timedBulkStep),
  'contacts.unfinishedJobs': query((db, _args: Record<string, never>) => unfinishedJobs(db)),
};
