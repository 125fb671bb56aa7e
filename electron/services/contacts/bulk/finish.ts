// How a job's phases hand over: a change complete, an undo's swap reversed, the renumber phases
// entered or left. Shared by the phases of actions.ts, snapshot.ts and renumber.ts.
import type { EngineSetup } from '../../../../shared/domain/contacts/index.ts';
import { resolveDefaultCountry } from '../../../../shared/domain/phone/index.ts';
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import type { Db } from '../../db/define.ts';
import { prepared } from '../../db/define.ts';
import { countsJson, setupJson } from '../listJson.ts';
import { listCounts } from '../rowState.ts';
import { getList, saveCounts } from '../storedList.ts';
import type { StoredList } from '../storedList.ts';
import { saveJob } from '../undoSlot.ts';
import type { BulkJob, BulkWork } from './job.ts';

/** The list's setup with `country` as its default (apply a country). */
export function targetSetup(list: StoredList, country: string): EngineSetup {
  const resolved = resolveDefaultCountry(country);
  if (!resolved) {
    throw new DeskFailure(
      'invalid_request',
      `Unknown country "${country}": use an ISO code such as IN or a prefix such as +91.`,
      'country',
    );
  }
  return { ...setupJson(list.setup), country: resolved.country, callingCode: resolved.callingCode };
}

/** A list that exists (the step checked it at its start). */
export const listOf = (db: Db, job: BulkJob): StoredList => getList(db, job.listId) as StoredList;

/** A new revision for the list (its undo label or its state changed) with its counts as they are. */
const touchList = (db: Db, listId: number, now: string): void =>
  saveCounts(db, listId, countsJson((getList(db, listId) as StoredList).counts), now);

/** The change is complete: apply-all sets the list's default country; the slot is a plain undo. */
export function finishApply(db: Db, job: BulkJob, now: string): BulkJob {
  const action = job.action;
  if (action?.kind === 'apply-country' && action.scope === 'all') {
    prepared(db, `UPDATE contact_lists SET setup = ?, country = ? WHERE id = ?`).run(
      JSON.stringify(targetSetup(listOf(db, job), action.country)),
      action.country,
      job.listId,
    );
  }
  saveJob(db, null, job.listId, job.saved);
  touchList(db, job.listId, now);
  return { ...job, phase: 'done' };
}

/** Back as before the undo started: the undo is still there. */
export function finishUnswap(db: Db, job: BulkJob, now: string): BulkJob {
  saveJob(db, null, job.listId);
  touchList(db, job.listId, now);
  return { ...job, phase: 'done' };
}

/** The undo slot is gone (its snapshot rows were dropped): the list has no undo. */
export function finishDrop(db: Db, job: BulkJob, now: string): BulkJob {
  prepared(db, `DELETE FROM contact_undo WHERE list_id = ?`).run(job.listId);
  touchList(db, job.listId, now);
  return { ...job, phase: 'done' };
}

/** Goes to `after`, through the renumber phases when the job writes rows without contact_numbers. */
export function renumberThen(
  db: Db,
  work: BulkWork,
  job: BulkJob,
  after: NonNullable<BulkJob['after']>,
  now: string,
): BulkJob {
  if (job.renumber) {
    const rows = listCounts(countsJson(listOf(db, job).counts)).rows;
    return { ...job, phase: 'renumber-clear', after, cursor: 0, e164: 0, winner: 0, done: 0, total: rows };
  }
  return afterRenumber(db, work, job, after, now);
}

export function afterRenumber(
  db: Db,
  work: BulkWork,
  job: BulkJob,
  after: NonNullable<BulkJob['after']>,
  now: string,
): BulkJob {
  if (after !== 'numbers') work.scans.delete(job.listId);
  if (after === 'done') return finishUnswap(db, job, now);
  if (after === 'drop') return { ...job, phase: 'drop', cursor: 0, done: 0 };
  return {
    ...job,
    phase: 'numbers',
    cursor: 0,
    e164: 0,
    winner: 0,
    done: 0,
    total: work.scanOf(job)?.n ?? 0,
  };
}
