// A job's snapshot: the state of each row before the job first changed it (contact_undo_rows, or
// contact_undo_states for the number columns and the exclusion alone). Kept chunk by chunk as a
// change goes, swapped back by an undo or a rollback, dropped a chunk at a time.
import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';
import { countsJson } from '../listJson.ts';
import { deleteFirst } from '../rowStore.ts';
import type { RowChanges } from '../rowStore.ts';
import { addRow, ROW_COLUMNS, ROW_VALUE_COLUMNS } from '../rowState.ts';
import type { StoredRow } from '../rowState.ts';
import { saveCounts } from '../storedList.ts';
import type { StoredList } from '../storedList.ts';
import { slot } from '../undoSlot.ts';
import { finishDrop, listOf, renumberThen } from './finish.ts';
import type { BulkJob, BulkWork } from './job.ts';

/** The number columns: what re-reading a number moves (apply a country to all). */
export const NUMBER_COLUMNS = ['e164', 'bucket', 'issues', 'reasons', 'duplicate_of'] as const;

/** A job's snapshot: its table, the columns it keeps, and those a swap exchanges. */
export interface SnapshotTable {
  table: 'contact_undo_rows' | 'contact_undo_states';
  keeps: readonly (keyof StoredRow)[];
  swaps: readonly (keyof StoredRow)[];
  /** The connection's TEMP table of a swap's rows as the list had them. */
  temp: string;
}
const WHOLE_ROWS: SnapshotTable = {
  table: 'contact_undo_rows',
  keeps: ROW_COLUMNS,
  // Not the keys, nor `pos`, which never changes.
  swaps: ROW_VALUE_COLUMNS,
  temp: 'swap_rows',
};
const ROW_STATES: SnapshotTable = {
  table: 'contact_undo_states',
  keeps: ['list_id', 'row', ...NUMBER_COLUMNS, 'excluded'],
  swaps: [...NUMBER_COLUMNS, 'excluded'],
  temp: 'swap_states',
};
export const snapshotOf = (job: BulkJob): SnapshotTable =>
  job.snapshot === 'state' ? ROW_STATES : WHOLE_ROWS;

/** Ends a chunk: first states of changed rows to the job's snapshot, counts moved by the deltas. */
export function commitChunk(
  db: Db,
  list: StoredList,
  changes: RowChanges,
  now: string,
  snapshot: SnapshotTable,
): number {
  if (changes.rows.size === 0) return 0;
  let saved = 0;
  const counts = countsJson(list.counts);
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
  saveCounts(db, list.id, counts, now);
  return saved;
}

/** Snapshot rows swapped per step of an undo (set-based statements: larger ranges pay). */
export const SWAP_CHUNK = 1000;

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
  const counts = countsJson(listOf(db, job).counts);
  for (const g of groups) {
    addRow(counts, { bucket: g.ob, excluded: g.oe, issues: g.oi, edited: g.od }, -g.n);
    addRow(counts, { bucket: g.nb, excluded: g.ne, issues: g.ni, edited: g.nd }, g.n);
  }
  saveCounts(db, job.listId, counts, now);
}

/** The `n`th row of a list in `table` after `after` (and up to `upTo`), or null when fewer follow: a chunk's keyset end. */
const nthRowAfter = (
  db: Db,
  table: SnapshotTable['table'],
  listId: number,
  after: number,
  n: number,
  upTo: number,
): number | null =>
  prepared<[number, number, number], { row: number }>(
    db,
    `SELECT row FROM ${table} WHERE list_id = ? AND row > ? AND row <= ? ORDER BY row LIMIT 1 OFFSET ${n - 1}`,
  ).get(listId, after, upTo)?.row ?? null;

/**
 * Swaps a chunk of snapshot rows with the rows they were taken from: the list gets the snapshot,
 * the snapshot gets what the list had (so the swap can be swapped back). undo/revert: every
 * snapshot row; unswap: those up to `until`.
 */
export function swapChunk(db: Db, work: BulkWork, job: BulkJob, now: string): BulkJob {
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
  if (job.mode === 'unswap') return renumberThen(db, work, next, 'done', now);
  // Every row is back: the list's settings too; then the snapshot (now the undone state) goes.
  const saved = slot(db, job.listId);
  if (saved) {
    prepared(db, `UPDATE contact_lists SET setup = ?, country = ? WHERE id = ?`).run(
      saved.state.setup,
      saved.state.country,
      job.listId,
    );
  }
  return renumberThen(db, work, { ...next, cursor: 0, done: 0 }, 'drop', now);
}

const ROWS_PER_DELETE = 2000;
/** Deletes up to about ROWS_PER_DELETE entries of the list's snapshot (either table). */
function deleteSnapshotRows(db: Db, listId: number): number {
  const rows = deleteFirst(db, 'contact_undo_rows', listId, ROWS_PER_DELETE);
  return rows >= ROWS_PER_DELETE
    ? rows
    : rows + deleteFirst(db, 'contact_undo_states', listId, ROWS_PER_DELETE);
}

/** Deletes the old undo's rows, a chunk at a time (a change's first phase). */
export function clearChunk(db: Db, job: BulkJob): BulkJob {
  const deleted = deleteSnapshotRows(db, job.listId);
  return deleted < ROWS_PER_DELETE ? { ...job, phase: 'main', cursor: 0 } : job;
}

/** Deletes the undone snapshot, a chunk at a time, then the undo slot (an undo's last phase). */
export function dropChunk(db: Db, job: BulkJob, now: string): BulkJob {
  if (deleteSnapshotRows(db, job.listId) >= ROWS_PER_DELETE) return job;
  return finishDrop(db, job, now);
}
