// A time window of the history and its pages: asked for as soon as the window is known (page i at
// offset i × pageSize, several at once), stored in order whatever order they arrive in. Newest
// first, so offset paging shifts when calls arrive during a pass: a window whose distinct ids fall
// short of its total is paged again.
import type { HistoryPageText, HistoryQuery } from '../../../shared/service/history.ts';
import type { PageStoreChain } from './pageStoreChain.ts';
import type { SyncPolicy } from './syncPolicy.ts';
import type { PassProgress } from './syncProgress.ts';

/** A window and its pages, asked for as soon as the window is known (page i at offset i × pageSize). */
export interface HistoryWindow {
  startMs: number;
  endMs: number;
  bulkListId: string | null;
  pages: Array<Promise<HistoryPageText>>;
}

export interface WindowPager {
  /** A window with its first page asked for (it gives the window's total). */
  open(startMs: number, endMs: number, bulkListId: string | null): HistoryWindow;
  /** Every page of the window the total announces (they queue for the slots in this order). */
  askRest(w: HistoryWindow, total: number | null): void;
  /** Stores the window's pages in order; answers the distinct calls seen. */
  storeWindow(planned: HistoryWindow): Promise<number>;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * One turn of the event loop with its poll (two setImmediate hops: the first runs in this turn's
 * check phase, the second after the next poll). Awaited before each page's rows are built, so what
 * waits behind the sync on the main thread (a Calls page read's answer from the read lane, an IPC
 * call) runs between a page's parsing and its rows, and between pages that arrived together (they
 * were built back to back, up to 16 in one task).
 */
const letOthersIn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

export function windowPager(
  policy: SyncPolicy,
  fetchPage: (q: HistoryQuery) => Promise<HistoryPageText>,
  chain: PageStoreChain,
  progress: PassProgress,
): WindowPager {
  const counters = progress.counters;

  const open = (startMs: number, endMs: number, bulkListId: string | null): HistoryWindow => {
    const w: HistoryWindow = { startMs, endMs, bulkListId, pages: [] };
    askPage(w, 0);
    return w;
  };

  function askPage(w: HistoryWindow, index: number): void {
    if (w.pages[index]) return;
    const page = fetchPage({
      start_date: iso(w.startMs - policy.windowOverlapMs),
      end_date: iso(w.endMs),
      limit: policy.pageSize,
      offset: index * policy.pageSize,
      ...(w.bulkListId ? { bulk_list_id: w.bulkListId } : {}),
    });
    // Awaited in order later; a failure meanwhile must not count as unhandled.
    page.catch(() => undefined);
    w.pages[index] = page;
  }

  function askRest(w: HistoryWindow, total: number | null): void {
    if (total === null) return; // unknown: paged one after another
    for (let i = 1; i * policy.pageSize < total; i++) askPage(w, i);
  }

  /**
   * Stores one window's pages in order (whatever order they arrive in). Calls that arrive while it
   * is paged shift the offsets: a window whose distinct ids fall short of its total is paged again.
   * Answers the distinct calls seen.
   */
  async function storeWindow(planned: HistoryWindow): Promise<number> {
    const seen = new Set<string>();
    let w = planned;
    for (let round = 0; round < 4; round++) {
      if (round > 0) {
        w = open(w.startMs, w.endMs, w.bulkListId);
        askRest(w, (await w.pages[0]!).total);
      }
      let maxTotal = 0;
      let totalKnown = true;
      for (let i = 0; ; i++) {
        // Pages wait for the DB worker a few at a time at most.
        while (chain.full()) await chain.drained();
        askPage(w, i);
        const page = await w.pages[i]!;
        // Refused records hold their place in the service's paging like the others.
        const items = page.items;
        const full = items >= policy.pageSize;
        // More than the total said (calls arrived): the next page is asked for before this one is stored.
        if (full) askPage(w, i + 1);
        counters.received += items;
        for (const k of page.keys) seen.add(k);
        if (page.total === null) totalKnown = false;
        else maxTotal = Math.max(maxTotal, page.total);
        await letOthersIn();
        chain.storeText(w.bulkListId, page);
        if (!full) break;
      }
      if (!totalKnown || seen.size >= maxTotal) break;
      progress.message = `Window ${iso(w.startMs)} changed during the pass; reading it again`;
      progress.report();
    }
    progress.message = null;
    return seen.size;
  }

  return { open, askRest, storeWindow };
}
