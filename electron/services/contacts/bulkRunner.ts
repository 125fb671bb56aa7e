// Bulk changes and undo run from the main process: a job a step at a time (each step one short
// transaction in the database worker, so page reads get their turn between steps), progress
// reported, Cancel turning it into its rollback. One job at a time per list.
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract.ts';
import type { BulkProgress, ContactList } from '../../../shared/ipc/channels/contacts.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { DbClient } from '../db/client.ts';
import { isCancellable } from './bulk/job.ts';
import type { BulkAction, BulkJob } from './bulk/job.ts';
import { bulkBusy } from './rowState.ts';

/**
 * Time budget of one bulk step in the database worker: a call on the writer waits at most about
 * this (plus one chunk); page reads go to the read lane and wait for no step. Longer steps write
 * each touched index page fewer times and commit less often: on a 2-core machine 150 ms made
 * `bench:bulk` 20-25% faster than 50 ms (apply to all 1M rows 29 -> 22 s, its undo 20.5 -> 15 s).
 */
export const STEP_MS = 150;

/** A bulk change or undo running on a list (one at a time per list). */
interface RunningJob {
  cancel: boolean;
  /** The list went away: stop without rolling back. */
  stopped: boolean;
}

const progressAction = (job: BulkJob): BulkProgress['action'] =>
  job.mode === 'undo' || job.mode === 'unswap' || !job.action ? 'undo' : job.action.kind;

export interface BulkRunnerOptions {
  db: DbClient;
  now: () => string;
  /** Time budget of one step (0: one chunk of rows per step, as tests use). */
  stepMs: number;
  progress: (p: BulkProgress) => void;
  /** A list's pages moved (every step): its paging anchors are stale. */
  changed: (listId: number) => void;
  /** The list as the renderer sees it (after a job). */
  list: (listId: number) => Promise<ContactList>;
}

export function createBulkRunner(options: BulkRunnerOptions) {
  const { db, now, progress } = options;
  const jobs = new Map<number, RunningJob>();

  const runJob = async (first: BulkJob): Promise<{ job: BulkJob; cancelled: boolean; list: ContactList }> => {
    const { listId } = first;
    const running: RunningJob = { cancel: false, stopped: false };
    jobs.set(listId, running);
    let job = first;
    let cancelled = false;
    const action = progressAction(first);
    try {
      while (job.phase !== 'done') {
        if (running.stopped)
          throw new DeskFailure('not_found', 'This contact list no longer exists.', 'listId');
        const cancel = running.cancel && isCancellable(job);
        if (cancel) cancelled = true;
        job = await db.call('contacts.bulkStep', { job, cancel, budgetMs: options.stepMs, now: now() });
        // Calls that arrived meanwhile (a page read's second query) go to the worker before the next step.
        await new Promise((resolve) => setImmediate(resolve));
        options.changed(listId);
        const rollingBack = job.mode === 'revert' || job.mode === 'unswap';
        progress({
          listId,
          action,
          label: job.label,
          state:
            job.phase === 'done'
              ? cancelled
                ? 'cancelled'
                : 'done'
              : rollingBack
                ? 'cancelling'
                : 'running',
          done: Math.min(job.done, job.total),
          total: job.total,
          cancellable: isCancellable(job),
        });
      }
      return { job, cancelled, list: await options.list(listId) };
    } catch (error) {
      progress({
        listId,
        action,
        label: job.label,
        state: 'failed',
        done: job.done,
        total: job.total,
        cancellable: false,
      });
      throw error;
    } finally {
      jobs.delete(listId);
    }
  };

  /** Refuses a change while a bulk change or undo runs on the list. */
  const idle = (listId: number): void => {
    if (jobs.has(listId)) throw bulkBusy();
  };

  return {
    runJob,
    idle,

    /** Whether a bulk change or undo runs on the list. */
    busy: (listId: number): boolean => jobs.has(listId),

    /** The list went away: its job stops at its next step, without rolling back. */
    stop(listId: number): void {
      const running = jobs.get(listId);
      if (running) running.stopped = true;
    },

    /** Asks the list's job to roll back; false when none runs or it is already cancelling. */
    cancel(listId: number): boolean {
      const running = jobs.get(listId);
      if (!running || running.cancel) return false;
      running.cancel = true;
      return true;
    },

    async bulk(req: ParsedRequestOf<'contacts:bulk'>): Promise<ResponseOf<'contacts:bulk'>> {
      idle(req.listId);
      const action: BulkAction =
        req.action === 'apply-country'
          ? { kind: 'apply-country', country: req.country, scope: req.scope }
          : req.action === 'exclude-empty'
            ? { kind: 'exclude-empty', columns: req.columns }
            : { kind: req.action };
      const job = await db.call('contacts.bulkBegin', { listId: req.listId, action, now: now() });
      if (!job) return { list: await options.list(req.listId), affected: 0, cancelled: false };
      const end = await runJob(job);
      return { list: end.list, affected: end.cancelled ? 0 : end.job.affected, cancelled: end.cancelled };
    },

    async undo(req: ParsedRequestOf<'contacts:undo'>): Promise<ResponseOf<'contacts:undo'>> {
      idle(req.listId);
      const job = await db.call('contacts.undoBegin', { listId: req.listId });
      const end = await runJob(job);
      return { list: end.list, undone: job.label, cancelled: end.cancelled };
    },
  };
}

export type BulkRunner = ReturnType<typeof createBulkRunner>;
