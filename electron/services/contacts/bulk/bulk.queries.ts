// Bulk changes, undo and rollback of contact lists, a chunk at a time. Each `contacts.bulkStep`
// call is one short transaction (a time budget of rows), so the database worker answers the grid's
// page reads between chunks. The rule that keeps every chunk boundary consistent: before a row is
// first changed, its state goes to the undo's snapshot (in the same transaction; contact_undo_rows,
// or contact_undo_states for a change of the number columns or the exclusion alone), and the list's
// counts move by the changed rows' deltas. So Cancel is always possible by swapping the snapshot
// back, and an undo is the same swap. The job (phase, cursor) is saved with the list's undo slot
// in every step, so a crash mid-way is rolled back at the next start (`unfinishedJobs`).
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import type { Db } from '../../db/define.ts';
import { prepared, query, txQuery, writeTransaction } from '../../db/define.ts';
import { getList } from '../storedList.ts';
import { saveJob, slotStateJson } from '../undoSlot.ts';
import { bulkBegin, mainChunk, undoBegin } from './actions.ts';
import { BulkWork, commitKey, isCancellable, rollbackJob } from './job.ts';
import type { BulkJob } from './job.ts';
import { numbersChunk, renumberClearChunk, renumberFillChunk, renumberScanChunk } from './renumber.ts';
import { clearChunk, dropChunk, swapChunk } from './snapshot.ts';

interface StepArgs {
  job: BulkJob;
  cancel: boolean;
  budgetMs: number;
  now: string;
}

function stepOnce(db: Db, work: BulkWork, job: BulkJob, now: string): BulkJob {
  switch (job.phase) {
    case 'clear':
      return clearChunk(db, job);
    case 'main':
      return mainChunk(db, work, job, now);
    case 'renumber-clear':
      return renumberClearChunk(db, work, job);
    case 'renumber-scan':
      return renumberScanChunk(db, work, job);
    case 'renumber-fill':
      return renumberFillChunk(db, work, job, now);
    case 'numbers':
      return numbersChunk(db, work, job, now);
    case 'swap':
      return swapChunk(db, work, job, now);
    case 'drop':
      return dropChunk(db, job, now);
    case 'done':
      return job;
  }
}

/**
 * One phase's worth of rows, until the time budget (commit included) is spent; returns the job as
 * it now stands and how many chunks it took.
 */
function bulkStep(db: Db, work: BulkWork, a: StepArgs): { job: BulkJob; chunks: number } {
  let job = a.cancel && isCancellable(a.job) ? rollbackJob(a.job) : a.job;
  const list = getList(db, job.listId);
  if (!list || list.status !== 'ready')
    throw new DeskFailure('not_found', 'This contact list no longer exists.', 'listId');
  // A chunk starts only when one like the last, and the commit of every chunk so far and of that
  // one, still end by the deadline: a step overshoots its budget by at most one chunk when that
  // chunk alone is longer (a slow machine, a slow disk).
  const deadline = performance.now() + a.budgetMs;
  const commitMs = work.commitMsPerChunk.get(commitKey(job)) ?? 0;
  let lastMs: number;
  let chunks = 0;
  do {
    const started = performance.now();
    job = stepOnce(db, work, job, a.now);
    chunks++;
    lastMs = performance.now() - started;
  } while (job.phase !== 'done' && performance.now() + lastMs + (chunks + 1) * commitMs < deadline);
  if (job.phase !== 'done') saveJob(db, job, job.listId);
  return { job, chunks };
}

/** bulkStep in its transaction; the commit's cost per chunk is remembered for the next step. */
function timedBulkStep(db: Db, work: BulkWork, a: StepArgs): BulkJob {
  const key = commitKey(a.job);
  let workEnd = 0;
  const { job, chunks } = writeTransaction(db, () => {
    const step = bulkStep(db, work, a);
    workEnd = performance.now();
    return step;
  });
  const perChunk = (performance.now() - workEnd) / chunks;
  const commitMs = work.commitMsPerChunk;
  // Smoothed: one quick commit (a chunk that found little to change) does not undo the estimate.
  const before = commitMs.get(key);
  commitMs.set(key, before === undefined ? perChunk : (before + perChunk) / 2);
  // A finished job forgets its list's estimates (of every phase it went through).
  if (job.phase === 'done')
    for (const k of commitMs.keys()) if (k.startsWith(`${job.listId}:`)) commitMs.delete(k);
  return job;
}

/** Jobs left unfinished by an earlier run, as the jobs that roll them back (run at start-up). */
function unfinishedJobs(db: Db): BulkJob[] {
  const out: BulkJob[] = [];
  for (const r of prepared<[], { list_state: string }>(
    db,
    `SELECT u.list_state FROM contact_undo u JOIN contact_lists l ON l.id = u.list_id WHERE l.status = 'ready'`,
  ).all()) {
    const job = slotStateJson(r.list_state).job;
    if (job) out.push(rollbackJob(job));
  }
  return out;
}

/** The bulk queries with the running jobs' state they own (`work`). */
export const bulkQueries = (work: BulkWork) => ({
  'contacts.bulkBegin': txQuery(bulkBegin),
  'contacts.undoBegin': txQuery(undoBegin),
  'contacts.bulkStep': query((db, a: StepArgs) => timedBulkStep(db, work, a)),
  'contacts.unfinishedJobs': query((db, _args: Record<string, never>) => unfinishedJobs(db)),
});

/** The database worker's bulk queries: one BulkWork per worker (this module loads once per worker). */
export const contactBulkQueries = bulkQueries(new BulkWork());
