// The bulk actions: starting one (its label, its row count, its undo slot), and the main phase of
// each, a chunk of rows at a time: exclude / include in SQL, a country applied to invalid numbers
// (each row checked again like an edit), or to all numbers (phones re-read, numbers written in bulk).
import { formatCount } from '../../../../shared/domain/formatCount.ts';
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';
import { ISSUE_BITS } from '../../db/migrations/0130-contacts-formula-bidi-codes.ts';
import { insertMany } from '../../db/queries/insertMany.ts';
import { anyBlankSql, indexed, UPLOAD_ROWS_SQL } from '../filters.ts';
import type { FilterSql } from '../filters.ts';
import { countsJson } from '../listJson.ts';
import { hasCountryCode, phoneRechecked, revalidated } from '../revalidate.ts';
import { getRow, recomputeNumber, RowChanges } from '../rowStore.ts';
import { addRow, bulkBusy, flagsOf, ROW_COLUMNS } from '../rowState.ts';
import type { StoredRow } from '../rowState.ts';
import { readyList, saveCounts } from '../storedList.ts';
import type { StoredList } from '../storedList.ts';
import { saveJob, slot, writeSlot } from '../undoSlot.ts';
import type { SlotState } from '../undoSlot.ts';
import { finishApply, listOf, renumberThen, targetSetup } from './finish.ts';
import { newJob } from './job.ts';
import type { BulkAction, BulkJob, BulkWork } from './job.ts';
import { commitChunk, NUMBER_COLUMNS, snapshotOf } from './snapshot.ts';
import type { SnapshotTable } from './snapshot.ts';

/** Rows read per chunk of a bulk step (a step runs chunks until its time budget is spent). */
export const ROWS_PER_READ = 200;
/** Rows per chunk of exclude / include, done in SQL (only `excluded` moves). */
export const EXCLUSION_CHUNK = 500;
/** Rows read per chunk of apply-a-country-to-all (written in one statement: larger chunks pay). */
const NUMBER_CHUNK = 1000;

/** Rows an exclusion moves ('' index = the table's own order: valid rows, most of a list, have no partial index). */
interface Exclusion extends FilterSql {
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
  where: `${UPLOAD_ROWS_SQL} AND ${anyBlankSql(columns)}`,
  excluded: 1,
});
const INCLUDE: Exclusion = { index: 'contacts_excluded', where: 'excluded = 1', excluded: 0 };
const PHONE_INVALID: FilterSql = {
  index: 'contacts_issue_phone_invalid',
  where: `issues & ${ISSUE_BITS.phone_invalid} != 0`,
};

/** The rows an exclusion action moves, or null for applying a country. */
function exclusionOf(action: BulkAction): Exclusion | null {
  if (action.kind === 'exclude-invalid') return EXCLUDE;
  if (action.kind === 'exclude-landline') return EXCLUDE_LANDLINE;
  if (action.kind === 'exclude-empty') return excludeEmpty(action.columns);
  if (action.kind === 'include-all') return INCLUDE;
  return null;
}

const countWhere = (db: Db, listId: number, f: FilterSql): number =>
  prepared<[number], { n: number }>(
    db,
    `SELECT count(*) AS n FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where}`,
  ).get(listId)!.n;

/** The action's undo label and the rows it goes through. */
function labelAndTotal(db: Db, list: StoredList, action: BulkAction): { label: string; total: number } {
  const exclusion = exclusionOf(action);
  if (exclusion) {
    const total = countWhere(db, list.id, exclusion);
    const what =
      action.kind === 'exclude-invalid'
        ? `Exclude ${formatCount(total)} invalid rows`
        : action.kind === 'exclude-landline'
          ? `Exclude ${formatCount(total)} landline-only numbers`
          : action.kind === 'exclude-empty'
            ? `Exclude ${formatCount(total)} rows with an empty variable`
            : `Include ${formatCount(total)} excluded rows`;
    return { label: what, total };
  }
  if (action.kind !== 'apply-country') throw new Error(`internal: unknown bulk action ${action.kind}`);
  targetSetup(list, action.country); // refuses an unknown country before anything changes
  const total =
    action.scope === 'invalid'
      ? countWhere(db, list.id, PHONE_INVALID)
      : countsJson(list.counts).byBucket.reduce((n, [kept, out]) => n + kept + out, 0);
  const label = `Apply ${action.country} to ${action.scope === 'invalid' ? 'invalid numbers' : 'numbers'} without a country code`;
  return { label, total };
}

/** Starts a bulk change (its undo slot replaces the list's), or null when there is nothing to do. */
export function bulkBegin(db: Db, a: { listId: number; action: BulkAction; now: string }): BulkJob | null {
  const list = readyList(db, a.listId);
  if (slot(db, a.listId)?.state.job) throw bulkBusy();
  const { action } = a;
  const { label, total } = labelAndTotal(db, list, action);
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
  writeSlot(db, a.listId, label, state, a.now);
  saveCounts(db, a.listId, countsJson(list.counts), a.now); // the undo label changed
  return job;
}

/** Starts undoing the list's last change, a chunk at a time. */
export function undoBegin(db: Db, a: { listId: number }): BulkJob {
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
      `SELECT row FROM contacts ${indexed(f)} WHERE list_id = ? AND ${f.where} AND row > ? ORDER BY row LIMIT 1 OFFSET ${EXCLUSION_CHUNK - 1}`,
    ).get(job.listId, job.cursor)?.row ?? Number.MAX_SAFE_INTEGER;
  const range = `list_id = ? AND ${f.where} AND row > ? AND row <= ?`;
  const args: [number, number, number] = [job.listId, job.cursor, upper];
  const perBucket = prepared<[number, number, number], { bucket: 0 | 1 | 2; n: number }>(
    db,
    `SELECT bucket, count(*) AS n FROM contacts ${indexed(f)} WHERE ${range} GROUP BY bucket`,
  ).all(...args);
  const saved = prepared<[number, number, number]>(
    db,
    `INSERT OR IGNORE INTO ${snapshot.table} SELECT ${snapshot.keeps.join(', ')} FROM contacts ${indexed(f)} WHERE ${range}`,
  ).run(...args).changes;
  const n = prepared<[number, number, number]>(
    db,
    `UPDATE contacts SET excluded = ${excluded} WHERE ${range}`,
  ).run(...args).changes;
  const counts = countsJson(listOf(db, job).counts);
  for (const { bucket, n: moved } of perBucket) {
    counts.byBucket[bucket][excluded ? 0 : 1] -= moved;
    counts.byBucket[bucket][excluded] += moved;
  }
  if (n > 0) saveCounts(db, job.listId, counts, now);
  const next = {
    ...job,
    cursor: upper,
    done: job.done + n,
    affected: job.affected + n,
    saved: job.saved + saved,
  };
  return upper === Number.MAX_SAFE_INTEGER ? finishApply(db, next, now) : next;
}

/** A change's main phase: one chunk of its rows. */
export function mainChunk(db: Db, work: BulkWork, job: BulkJob, now: string): BulkJob {
  const action = job.action;
  if (!action) throw new Error('internal: an undo has no main phase');
  const exclusion = exclusionOf(action);
  if (exclusion) return exclusionChunk(db, job, exclusion, now);
  if (action.kind !== 'apply-country') throw new Error(`internal: unknown bulk action ${action.kind}`);
  const list = listOf(db, job);
  if (action.scope === 'all') return applyAllChunk(db, work, job, list, action.country, now);
  // A number read with the new country wins or repeats like an edit: its number is recomputed.
  const changes = new RowChanges(db);
  const target = targetSetup(list, action.country);
  const rows = prepared<[number, number, number], StoredRow>(
    db,
    `SELECT * FROM contacts ${indexed(PHONE_INVALID)} WHERE list_id = ? AND ${PHONE_INVALID.where} AND row > ? ORDER BY row LIMIT ?`,
  ).all(job.listId, job.cursor, ROWS_PER_READ);
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
function applyAllChunk(
  db: Db,
  work: BulkWork,
  job: BulkJob,
  list: StoredList,
  country: string,
  now: string,
): BulkJob {
  const target = targetSetup(list, country);
  const rows = prepared<[number, number, number], NumberState>(
    db,
    `SELECT ${NUMBER_STATE.join(', ')} FROM contacts WHERE list_id = ? AND row > ? AND country IS NULL ORDER BY row LIMIT ?`,
  ).all(job.listId, job.cursor, NUMBER_CHUNK);
  const lastRow = rows.at(-1)?.row;
  const counts = countsJson(list.counts);
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
  if (changed.length > 0) saveCounts(db, job.listId, counts, now);
  const next = {
    ...job,
    saved: job.saved + saved,
    cursor: lastRow ?? job.cursor,
    done: job.done + rows.length,
    affected: job.affected + affected,
  };
  if (rows.length === NUMBER_CHUNK) return next;
  // Rows with a valid number, about (counting contact_numbers would read a million entries).
  return renumberThen(db, work, { ...next, label: 'Finding duplicates' }, 'numbers', now);
}

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
  const first = rows[0];
  const last = rows.at(-1);
  if (!first || !last) return 0;
  db.exec(
    `CREATE TEMP TABLE IF NOT EXISTS number_updates (row INTEGER PRIMARY KEY, ${NUMBER_COLUMNS.join(', ')})`,
  );
  prepared(db, `DELETE FROM temp.number_updates`).run();
  const values: unknown[] = [];
  for (const r of rows) {
    values.push(r.row);
    for (const c of NUMBER_COLUMNS) values.push(r[c]);
  }
  insertMany(
    db,
    `INSERT INTO temp.number_updates (row, ${NUMBER_COLUMNS.join(', ')})`,
    1 + NUMBER_COLUMNS.length,
    values,
  );
  const range = [listId, first.row, last.row] as const;
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
