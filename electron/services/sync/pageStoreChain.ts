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
 * Records written in one transaction at most: the message is the pages' strings (a copy, not a
 * clone of rows). Pages join a batch only while they wait for the worker, so batches grow where
 * the writer is slow: on a big file (issue 28: a b-tree keyed at random dirties a page per insert
 * once it has more leaves than a commit has rows; on a million-call file 16,000-call commits wrote
 * 3.1 WAL pages a call against 5.5 at 4,000, 26 against 45 KB; the writer's and checkpoint's CPU
 * 190–195 against 209–223 µs a call; bench/syncStoreMargin.ts).
 */
export const MAX_BATCH_ROWS = 16_000;

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
  const waiting: Array<{ bulkListId: string | null; text: string; items: number }> = [];
  let wakeFetcher: (() => void) | null = null;

  // A refused record is counted once per pass, however many windows carry it.
  const skippedKeys = new Set<string>();
  // While the workspace has quarantined records, each stored batch releases the ones now valid
  // (set from the sync state at the start of the pass, and by the first refusal).
  let quarantineHeld = false;

  // Pages pushed so far and written so far (`waiting` holds the ones in between, in push order).
  let pushed = 0;
  let written = 0;
  // The chain's last link, when it writes pages: a page pushed now is written by it (no link of
  // its own). `upTo`: once another step follows, the link writes the pages before that step only.
  let tail: { upTo: number } | null = null;

  const append = (step: () => Promise<void>) => {
    storing = storing.then(step);
    // Surface a store failure at the next await of `storing`, never as an unhandled rejection.
    storing.catch(() => undefined);
  };
  const then = (step: () => Promise<void>) => {
    if (tail) tail.upTo = pushed;
    tail = null;
    append(step);
  };
  /**
   * A page waits for the worker. One write link per run of pages between two other steps, not one
   * per page: each link wrote every page waiting (up to a batch), so links piled up behind
   * the writes and a window's saved cursor, a step behind them, lagged further the longer the pass
   * (400,000 calls behind at half a million, all read again after a kill).
   */
  const pushPage = () => {
    pushed++;
    if (tail) return;
    const link = { upTo: Infinity };
    tail = link;
    append(async () => {
      // While this link is the last, pages arriving during a batch go in the next one. A batch
      // takes every page waiting (across windows: one commit), so a step after this link may find
      // pages pushed after it written already: a cursor lags at most one batch.
      while (written < link.upTo && waiting.length > 0) await writeWaiting();
      if (tail === link) tail = null;
    });
  };

  /** A refused record is counted once per pass, however many windows carry it. */
  function countSkipped(keys: readonly string[]): void {
    for (const key of keys) {
      if (skippedKeys.has(key)) continue;
      skippedKeys.add(key);
      counters.skipped++;
    }
  }

  /**
   * Waiting pages from the first (same campaign, up to MAX_BATCH_ROWS records), read and written by
   * the worker in one transaction.
   */
  async function writeWaiting(): Promise<void> {
    const bulkListId = waiting[0]?.bulkListId;
    if (bulkListId === undefined) return;
    const pages: string[] = [];
    let items = 0;
    for (let next = waiting[0]; next && next.bulkListId === bulkListId; next = waiting[0]) {
      if (items >= MAX_BATCH_ROWS) break;
      waiting.shift();
      written++;
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

  return {
    storeText(bulkListId, page) {
      if (page.items === 0) return;
      // Read by the worker: nothing of the page's records is made or copied on this thread.
      waiting.push({ bulkListId, text: page.text, items: page.items });
      pushPage();
    },
    then,
    full: () => waiting.length >= MAX_QUEUED_PAGES,
    drained: () => Promise.race([new Promise<void>((wake) => (wakeFetcher = wake)), storing]),
    settled: () => storing,
    holdQuarantine(held) {
      quarantineHeld = held;
    },
  };
}
