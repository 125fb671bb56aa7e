// The pass's one store chain: pages are stored in order while the next pages are fetched (also
// across windows), and a window's cursor is saved on the same chain, so it never runs ahead of
// what is stored. Pages that wait while the worker writes are written together, in one transaction
// (one message, one commit, one search-index insert), so a slow disk batches more instead of
// falling behind. Refused records are quarantined in the same transaction, in order with the calls.
// Pages are fetched as text and read, checked and made into rows by the DB worker (`calls.storePages`): the main thread only fetches (issue 28: the rows' structured clone
// to the worker cost more than the worker reading the page's text).
import type { HistoryPageText } from '../../../shared/service/history.ts';
import type { DbClient } from '../db/client.ts';
import type { PassProgress } from './syncProgress.ts';

const MAX_QUEUED_PAGES = 16;
/**
 * Rows written in one transaction at most (pages waiting for the worker are joined up to this).
 * Its message is copied on the main thread while nothing else runs there: 16,000 rows (as row
 * objects, before they crossed as columns) took ~150 ms, and a Calls page read's answer waited
 * behind it; 4,000 ~40 ms. Write time per call was the same within noise.
 */
export const MAX_BATCH_ROWS = 4_000;

export interface PageStoreChain {
  /**
   * A page's text, read, stored and its refused records quarantined by the DB worker
   * (`calls.storePages`), after what is already on the chain.
   */
  storeText(bulkListId: string | null, page: HistoryPageText): void;
  /** Runs `step` on the chain, after everything stored so far. */
  then(step: () => Promise<void>): void;
  /** MAX_QUEUED_PAGES pages wait for the DB worker: fetching waits (`drained`) before storing more. */
  full(): boolean;
  /** Resolves when the worker took waiting pages (or the chain settled). */
  drained(): Promise<void>;
  /** Everything on the chain stored (rejects with the first store failure). */
  settled(): Promise<void>;
  /** The workspace holds quarantined records: each stored batch releases the ones now valid. */
  holdQuarantine(held: boolean): void;
}

export function pageStoreChain(db: DbClient, workspaceId: string, progress: PassProgress): PageStoreChain {
  const counters = progress.counters;
  let storing: Promise<void> = Promise.resolve();
  let queued = 0;
  const waiting: Array<{ bulkListId: string | null; text: string; items: number }> = [];
  let wakeFetcher: (() => void) | null = null;

  // A refused record is counted once per pass, however many windows carry it.
  const skippedKeys = new Set<string>();
  // While the workspace has quarantined records, each stored batch releases the ones now valid
  // (set from the sync state at the start of the pass, and by the first refusal).
  let quarantineHeld = false;

  const then = (step: () => Promise<void>) => {
    storing = storing.then(step);
    // Surface a store failure at the next await of `storing`, never as an unhandled rejection.
    storing.catch(() => undefined);
  };

  /** A refused record is counted once per pass, however many windows carry it. */
  function countSkipped(keys: readonly string[]): void {
    for (const key of keys) {
      if (skippedKeys.has(key)) continue;
      skippedKeys.add(key);
      counters.skipped++;
    }
  }

  /** Waiting pages' text (same campaign, up to MAX_BATCH_ROWS records) read and written by the worker. */
  async function writeTexts(bulkListId: string | null): Promise<void> {
    const pages: string[] = [];
    let items = 0;
    for (let next = waiting[0]; next && next.bulkListId === bulkListId; next = waiting[0]) {
      if (items >= MAX_BATCH_ROWS) break;
      waiting.shift();
      queued--;
      pages.push(next.text);
      items += next.items;
    }
    wakeFetcher?.();
    const r = await db.call('calls.storePages', {
      workspaceId,
      bulkListId,
      pages,
      nowIso: new Date().toISOString(),
      held: quarantineHeld,
    });
    counters.inserted += r.inserted;
    counters.updated += r.updated;
    countSkipped(r.rejectedKeys);
    quarantineHeld = r.held;
    progress.report();
  }

  async function writeWaiting(): Promise<void> {
    const first = waiting[0];
    if (!first) return; // an earlier link took these pages
    return writeTexts(first.bulkListId);
  }

  return {
    storeText(bulkListId, page) {
      if (page.items === 0) return;
      // Read by the worker: nothing of the page's records is made or copied on this thread.
      waiting.push({ bulkListId, text: page.text, items: page.items });
      queued++;
      then(writeWaiting);
    },
    then,
    full: () => queued >= MAX_QUEUED_PAGES,
    drained: () => Promise.race([new Promise<void>((wake) => (wakeFetcher = wake)), storing]),
    settled: () => storing,
    holdQuarantine(held) {
      quarantineHeld = held;
    },
  };
}
