// Which windows a pass reads: a time range in adaptive windows (sized by the totals of the ones
// before), or fixed windows (the revisit of calls left open). Each window is handed to the store
// loop through a WindowQueue as soon as its first page has answered.
import type { HistoryWindow, WindowPager } from './windowPaging.ts';
import type { WindowQueue } from './windowQueue.ts';
import type { SyncPolicy } from './syncPolicy.ts';
import type { PassProgress } from './syncProgress.ts';

export interface WindowPlanner {
  planRange(
    fromMs: number,
    toMs: number,
    bulkListId: string | null,
    out: WindowQueue<HistoryWindow>,
  ): Promise<void>;
  planFixed(
    windows: ReadonlyArray<readonly [number, number]>,
    out: WindowQueue<HistoryWindow>,
  ): Promise<void>;
}

export function windowPlanner(
  policy: SyncPolicy,
  pager: WindowPager,
  progress: PassProgress,
  checkAbort: () => void,
): WindowPlanner {
  const counters = progress.counters;

  /**
   * Windows from fromMs to toMs, oldest first, adaptive in size: each window's first page gives its
   * total, which sizes the next one (about targetWindowCalls calls) and asks for the rest of its
   * pages, so the next window's first page is asked for while this one's pages are still coming.
   * A window reporting more than maxWindowCalls is halved first (down to minWindowMs).
   */
  async function planRange(
    fromMs: number,
    toMs: number,
    bulkListId: string | null,
    out: WindowQueue<HistoryWindow>,
  ): Promise<void> {
    let cursor = fromMs;
    let size = policy.initialWindowMs;
    let planned = 0;
    counters.windowsTotal += Math.max(1, Math.ceil((toMs - fromMs) / size));
    progress.report();
    while (cursor < toMs) {
      checkAbort();
      const end = Math.min(toMs, cursor + size);
      const canSplit = end - cursor > policy.minWindowMs;
      const w = pager.open(cursor, end, bulkListId);
      const first = await w.pages[0]!;
      if (canSplit && (first.total === null || first.total > policy.maxWindowCalls)) {
        size = Math.max(policy.minWindowMs, Math.floor((end - cursor) / 2));
        counters.windowsTotal++;
        continue;
      }
      // The first page is asked before there is room (one page ahead at most), so its pages are
      // asked the moment the store loop takes a window, not a round trip later (measured: when the
      // store loop lagged, each window's first page then ran alone for ~0.4 s).
      await out.hasRoom();
      checkAbort();
      pager.askRest(w, first.total);
      out.push(w);
      planned++;
      const span = end - cursor;
      cursor = end;
      const calls = first.total ?? first.items;
      // At most 4× the window before: a sparse start (the first day of a range holding a handful of
      // calls) otherwise sized the next window at the 14-day maximum, which was halved three times,
      // each a full page asked alone while nothing else was in flight.
      const sized = calls === 0 ? span * 4 : Math.floor((span * policy.targetWindowCalls) / calls);
      size = Math.min(policy.maxWindowMs, Math.max(policy.minWindowMs, Math.min(span * 4, sized)));
      counters.windowsTotal = Math.max(counters.windowsTotal, planned + Math.ceil((toMs - cursor) / size));
    }
    out.end();
  }

  /** Fixed windows (no split, no resizing): each first page asked at once, the rest once there is room. */
  async function planFixed(
    windows: ReadonlyArray<readonly [number, number]>,
    out: WindowQueue<HistoryWindow>,
  ): Promise<void> {
    for (const [start, end] of windows) {
      checkAbort();
      const w = pager.open(start, end, null);
      const first = await w.pages[0]!;
      await out.hasRoom();
      checkAbort();
      pager.askRest(w, first.total);
      out.push(w);
    }
    out.end();
  }

  return { planRange, planFixed };
}
