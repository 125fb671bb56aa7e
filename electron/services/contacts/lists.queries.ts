// The saved lists: read (the panel, a page read, an export's check), marked deleted and removed a
// chunk at a time (so a million-row delete never blocks the worker long).
import type { Db } from '../db/define.ts';
import { prepared, query, read, txQuery } from '../db/define.ts';
import { deleteFirst } from './rowStore.ts';
import { getList, LIST_SELECT } from './storedList.ts';
import type { StoredList } from './storedList.ts';
import { bulkRunning } from './undoSlot.ts';

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

export const contactListsQueries = {
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
};
