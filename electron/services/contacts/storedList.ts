// A contact_lists row as stored, read with the label of its undoable action, and the write every
// change of its rows ends with (counts moved, revision bumped).
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { Db } from '../db/define.ts';
import { prepared } from '../db/define.ts';
import { ensureNumbers } from './rowStore.ts';
import type { StoredCounts } from './rowState.ts';

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

export const LIST_SELECT = `SELECT l.*, u.label AS undo_label FROM contact_lists l LEFT JOIN contact_undo u ON u.list_id = l.id`;

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

/** The list's counts after a change of its rows (or of its undo label): a new revision. */
export const saveCounts = (db: Db, listId: number, counts: StoredCounts, now: string): void =>
  void prepared(
    db,
    `UPDATE contact_lists SET counts = ?, revision = revision + 1, updated_at = ? WHERE id = ?`,
  ).run(JSON.stringify(counts), now, listId);
