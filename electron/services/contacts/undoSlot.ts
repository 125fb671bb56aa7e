// The list's undo slot (contact_undo): the label of its undoable action, the list's state before it
// (counts, setup, country) and, while a bulk change or its undo runs, the job (saved every step, so
// a crash mid-way is rolled back at the next start).
import { z } from 'zod';
import type { Db } from '../db/define.ts';
import { prepared } from '../db/define.ts';
import { storedJson } from '../db/storedJson.ts';
import { bulkJobSchema } from './bulk/job.ts';
import type { BulkJob } from './bulk/job.ts';

const slotStateSchema = z.object({
  counts: z.string(),
  setup: z.string(),
  country: z.string(),
  job: bulkJobSchema.nullable().optional(),
  /** Rows in the snapshot, once a bulk change is complete. */
  saved: z.number().optional(),
  /** The change rewrote numbers in bulk: its undo renumbers too (BulkJob.renumber). */
  renumber: z.boolean().optional(),
  /** Where the snapshot is (BulkJob.snapshot). */
  snapshot: z.literal('state').optional(),
});
export type SlotState = z.output<typeof slotStateSchema>;
/** The list as it was before the undoable action (its stored JSON, kept as text). */
export type ListState = Pick<SlotState, 'counts' | 'setup' | 'country'>;

export const slotStateJson = storedJson(slotStateSchema, 'undo state');

export function slot(
  db: Db,
  listId: number,
): { label: string; state: SlotState & { job: BulkJob | null } } | null {
  const saved = prepared<[number], { label: string; list_state: string }>(
    db,
    `SELECT label, list_state FROM contact_undo WHERE list_id = ?`,
  ).get(listId);
  if (!saved) return null;
  const state = slotStateJson(saved.list_state);
  return { label: saved.label, state: { ...state, job: state.job ?? null } };
}

/** True while a bulk change (or its undo) is recorded as running on the list (its undo slot holds the job). */
export const bulkRunning = (db: Db, listId: number): boolean => Boolean(slot(db, listId)?.state.job);

/** The list's undo slot is now this action's (the previous undo is gone). */
export const writeSlot = (db: Db, listId: number, label: string, state: SlotState, now: string): void =>
  void prepared(
    db,
    `INSERT INTO contact_undo (list_id, label, list_state, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (list_id) DO UPDATE SET label = excluded.label, list_state = excluded.list_state, created_at = excluded.created_at`,
  ).run(listId, label, JSON.stringify(state), now);

/** The slot's job as it now stands (null: none runs), and the snapshot's size once complete. */
export const saveJob = (db: Db, job: BulkJob | null, listId: number, saved?: number): void => {
  const current = slot(db, listId);
  if (!current) return;
  const state: SlotState = { ...current.state, job, ...(saved === undefined ? {} : { saved }) };
  prepared(db, `UPDATE contact_undo SET list_state = ? WHERE list_id = ?`).run(JSON.stringify(state), listId);
};
