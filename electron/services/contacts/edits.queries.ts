// The operator's fixes of single rows: a cell edited (the row checked again, duplicates of the old
// and the new number decided again) and rows excluded or included; each one undoable action.
import { formatCount } from '../../../shared/domain/formatCount.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { Db } from '../db/define.ts';
import { prepared, txQuery } from '../db/define.ts';
import { cellsJson } from '../db/storedCells.ts';
import { countsJson, setupJson } from './listJson.ts';
import { revalidated, setupWithCountry } from './revalidate.ts';
import { getRow, recomputeNumber, RowChanges } from './rowStore.ts';
import { addRow, bulkBusy, ROW_COLUMNS } from './rowState.ts';
import type { StoredCounts, StoredRow } from './rowState.ts';
import { getList, readyList, saveCounts } from './storedList.ts';
import type { StoredList } from './storedList.ts';
import { bulkRunning, writeSlot } from './undoSlot.ts';

const INSERT_UNDO_ROW = `INSERT INTO contact_undo_rows (${ROW_COLUMNS.join(', ')}) VALUES (${ROW_COLUMNS.map((c) => `@${c}`).join(', ')})`;

/** The list's undo is now `rows` as they were before this action (the previous undo is gone). */
function saveUndo(db: Db, list: StoredList, label: string, now: string, rows: Iterable<StoredRow>): void {
  if (bulkRunning(db, list.id)) throw bulkBusy();
  prepared(db, `DELETE FROM contact_undo_rows WHERE list_id = ?`).run(list.id);
  prepared(db, `DELETE FROM contact_undo_states WHERE list_id = ?`).run(list.id);
  writeSlot(db, list.id, label, { counts: list.counts, setup: list.setup, country: list.country }, now);
  const insert = prepared(db, INSERT_UNDO_ROW);
  for (const row of rows) insert.run(row);
}

function applyDelta(list: StoredList, changes: RowChanges): StoredCounts {
  const counts = countsJson(list.counts);
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
  saveCounts(db, list.id, applyDelta(list, changes), now);
}

function editCell(
  db: Db,
  a: { listId: number; row: number; column: number; value: string; now: string },
): { list: StoredList; changed: StoredRow[] } {
  const list = readyList(db, a.listId);
  const before = getRow(db, a.listId, a.row);
  if (!before) throw new DeskFailure('not_found', `Row ${a.row} is not in this list.`, 'row');
  const setup = setupJson(list.setup);
  const cells = cellsJson(before.cells);
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

export const contactEditsQueries = {
  'contacts.editCell': txQuery(editCell),
  'contacts.setExcluded': txQuery(setExcluded),
};
