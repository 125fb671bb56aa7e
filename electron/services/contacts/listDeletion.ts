// Deleting a list: hidden at once, then (after a Cancel window) its rows removed a chunk at a
// time in the background, so the database worker stays responsive and page reads never wait.
import type { BulkProgress } from '../../../shared/ipc/channels/contacts.ts';
import type { DbClient } from '../db/client.ts';
import type { Logger } from '../logging/logger.ts';
import type { BackgroundWork } from './backgroundWork.ts';
import { toContactList } from './listView.ts';

/**
 * Entries deleted per database call when a list goes away (rows, their numbers, their undo): other
 * writes wait at most one call (page reads go to the read lane and wait for none). Key-range
 * deletes of 20,000 took up to ~140 ms on a 2-core machine; 1M rows with their numbers 4.7 s,
 * against 5.8 s in calls of 5,000.
 */
export const DELETE_CHUNK = 20_000;

/**
 * A deleted list disappears at once, but its rows stay this long with Cancel on the progress bar:
 * once removal starts, the rows are gone for good, so that is the moment Cancel can still act.
 */
const DELETE_GRACE_MS = 6000;

export interface ListDeletionOptions {
  db: DbClient;
  logger: Logger;
  progress: (p: BulkProgress) => void;
  background: BackgroundWork;
  /** The list is going: its paging anchors and any bulk job on it stop. */
  leaving: (listId: number) => void;
  /** Rows deleted per database call (tests make it small). */
  deleteChunk?: number | undefined;
  /** How long a deleted list's rows wait, with Cancel, before they are removed. */
  deleteGraceMs?: number | undefined;
  /** Time budget of one step of giving the file's space back. */
  stepMs: number;
}

export function createListDeletion(options: ListDeletionOptions) {
  const { db, logger, progress } = options;
  const deleteChunk = options.deleteChunk ?? DELETE_CHUNK;
  const deleteGraceMs = options.deleteGraceMs ?? DELETE_GRACE_MS;
  /** Deletions in their Cancel window: end(true) cancels, end(false) starts the removal now. */
  const graces = new Map<number, (cancel: boolean) => void>();
  /** settle() runs: deletions start their removal without a Cancel window. */
  let settling = 0;

  /** The Cancel window of a deleted list; true (and the list is back) when the operator cancelled. */
  const cancelledInGrace = async (listId: number, label: string, total: number): Promise<boolean> => {
    if (settling > 0 || deleteGraceMs <= 0) return false;
    const base = { listId, action: 'delete', label, done: 0, total } as const;
    progress({ ...base, state: 'running', cancellable: true });
    const cancel = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), deleteGraceMs);
      graces.set(listId, (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    graces.delete(listId);
    if (!cancel) return false;
    await db.call('contacts.restoreDeleted', { listId });
    progress({ ...base, state: 'cancelled', cancellable: false });
    return true;
  };

  /**
   * Marks a list deleted at once, then (once `after` settles) removes its rows a chunk at a time
   * in the background. Resolves once the mark is committed: read queries go to the read lane and
   * may overtake a write still in flight, so an answer that says "deleted" awaits it.
   */
  const deleteList = (
    listId: number,
    after: Promise<unknown> = Promise.resolve(),
    cancellable = false,
  ): Promise<void> => {
    options.leaving(listId);
    let hidden = () => {};
    const marked = new Promise<void>((resolve) => (hidden = resolve));
    const work = (async () => {
      // Marked first, removed afterwards.
      const read = db.call('contacts.list', { listId });
      const marking = db.call('contacts.markDeleting', { listId });
      const stored = await read;
      await marking.finally(hidden);
      await after.catch(() => undefined);
      const total = stored ? toContactList(stored).counts.rows : 0;
      const label = stored ? `Delete ${stored.name}` : 'Delete a list';
      if (cancellable && stored?.status === 'ready' && (await cancelledInGrace(listId, label, total))) return;
      let done = 0;
      for (;;) {
        const n = await db.call('contacts.clearRows', { listId, limit: deleteChunk });
        if (n === 0) break;
        // Next chunk: other queries get their turn between calls.
        done += n;
        progress({
          listId,
          action: 'delete',
          label,
          state: 'running',
          done: Math.min(done, total),
          total,
          cancellable: false,
        });
      }
      await db.call('contacts.removeList', { listId });
      // The file gives the space back, one time-bounded step per call so the worker keeps answering.
      while (await db.call('db.reclaimSpace', { budgetMs: options.stepMs })) {
        // Next chunk.
      }
      progress({ listId, action: 'delete', label, state: 'done', done: total, total, cancellable: false });
    })().catch((error: unknown) => logger.error('deleting a contact list failed', error, { listId }));
    options.background.add(work.finally(hidden));
    return marked;
  };

  return {
    deleteList,

    /** Cancels a deletion still in its Cancel window; false when there is none. */
    cancel(listId: number): boolean {
      const grace = graces.get(listId);
      if (!grace) return false;
      grace(true);
      return true;
    },

    /** Waits for background work, ending Cancel windows now (tests, shutdown). */
    async settle(): Promise<void> {
      settling++;
      try {
        for (const end of graces.values()) end(false);
        await options.background.idle();
      } finally {
        settling--;
      }
    },
  };
}

export type ListDeletion = ReturnType<typeof createListDeletion>;
