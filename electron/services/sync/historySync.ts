// One history sync pass of one workspace: GET /calling/history in time windows and pages, stored
// by the DB worker while the next pages are fetched. Latency is hidden by asking for several pages
// at once: a window's first page gives its total, so the rest of its pages and the next window's
// first page are asked for at once, a few windows ahead, within an adaptive limit of requests in
// flight (adaptiveLimit.ts: default 4, halved on a 429 or rising latency). Pages are stored in
// order whatever order they arrive in. Newest first, so offset paging shifts when calls arrive
// during a pass: windows overlap, ids dedupe, and a window whose distinct ids fall short of its
// total is paged again. Calls not yet terminal are revisited; each campaign (bulk_list_id) is read
// with its filter to link its calls. Progress (a cursor in time) is saved after each stored window,
// so a pass killed half-way resumes where it stopped.
// This file runs the pass (resume, revisit, history, campaigns); its parts: syncPolicy.ts (the
// knobs), historyPageFetch.ts (one page with retries), windowPlanner.ts (which windows),
// windowQueue.ts (planner → store loop), windowPaging.ts (a window's pages, paged again if they
// shifted), pageStoreChain.ts (stored in order, batched), syncProgress.ts (counters, failures).
import type { DbClient } from '../db/client.ts';
import type { SyncPass } from '../calls/syncState.queries.ts';
import { AdaptiveLimit } from './adaptiveLimit.ts';
import type { LimitFigures } from './adaptiveLimit.ts';
import { abortableSleep, pageFetcher } from './historyPageFetch.ts';
import type { FetchHistory } from './historyPageFetch.ts';
import { pageStoreChain } from './pageStoreChain.ts';
import { defaultSyncPolicy } from './syncPolicy.ts';
import type { SyncPolicy } from './syncPolicy.ts';
import { passProgress, syncCancelled } from './syncProgress.ts';
import type { SyncCounters, SyncProgress } from './syncProgress.ts';
import { windowPager } from './windowPaging.ts';
import type { HistoryWindow } from './windowPaging.ts';
import { windowPlanner } from './windowPlanner.ts';
import { windowQueue } from './windowQueue.ts';
import type { WindowQueue } from './windowQueue.ts';

// The engine's public face stays here (the CLI, the poller, the bench and the tests import it).
export type { FetchHistory } from './historyPageFetch.ts';
export { defaultSyncPolicy } from './syncPolicy.ts';
export type { SyncPolicy } from './syncPolicy.ts';
export { SyncFailure } from './syncProgress.ts';
export type { SyncCounters, SyncProgress } from './syncProgress.ts';

export interface HistorySyncOptions {
  db: DbClient;
  workspaceId: string;
  fetchHistory: FetchHistory;
  signal: AbortSignal;
  /** Re-read from here (ignores the watermark and any unfinished pass). */
  sinceMs?: number;
  /**
   * A live pass of one running campaign: its calls read with `bulk_list_id` from `fromMs` to now,
   * nothing else; the watermark and the saved pass are left alone.
   */
  campaign?: { bulkListId: string; fromMs: number };
  now?: () => number;
  policy?: Partial<SyncPolicy>;
  onProgress?: (p: SyncProgress) => void;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Each change of the request limit (tests, the bench). */
  onConcurrency?: (limit: number, reason: 'rate_limited' | 'latency' | 'grow') => void;
}

export interface HistorySyncResult extends SyncCounters {
  fromMs: number;
  toMs: number;
  resumed: boolean;
  /** How the request limit went (adaptiveLimit.ts). */
  concurrency: LimitFigures;
}

/** Windows planned (their pages asked for) ahead of the one being stored. */
const WINDOWS_AHEAD = 2;

export async function runHistorySync(o: HistorySyncOptions): Promise<HistorySyncResult> {
  const policy = { ...defaultSyncPolicy, ...o.policy };
  const now = o.now ?? Date.now;
  const progress = passProgress(o.onProgress);
  const counters = progress.counters;

  const checkAbort = () => {
    if (o.signal.aborted) throw syncCancelled();
  };
  // Requests end on Cancel, or when the pass fails (what was asked for ahead is not needed then).
  const stopAll = new AbortController();
  const signal = AbortSignal.any([o.signal, stopAll.signal]);
  const limiter = new AdaptiveLimit({
    max: policy.maxInFlight,
    growAfterPages: policy.growAfterPages,
    latencyRiseFactor: policy.latencyRiseFactor,
    now,
    ...(o.onConcurrency ? { onChange: o.onConcurrency } : {}),
  });
  const fetchPage = pageFetcher({
    policy,
    progress,
    limiter,
    fetchHistory: o.fetchHistory,
    signal,
    checkAbort,
    now,
    sleep: o.sleep ?? abortableSleep,
    random: o.random ?? Math.random,
  });
  const chain = pageStoreChain(o.db, o.workspaceId, progress);
  const pager = windowPager(policy, fetchPage, chain, progress);
  const planner = windowPlanner(policy, pager, progress, checkAbort);

  /**
   * Runs a planner and stores its windows in order; `onCursor` after each window, on the store
   * chain, so a saved cursor never runs ahead of what is stored.
   */
  async function syncWindows(
    plan: (out: WindowQueue<HistoryWindow>) => Promise<void>,
    onCursor?: (cursorMs: number) => Promise<void>,
  ): Promise<void> {
    const queue = windowQueue<HistoryWindow>(WINDOWS_AHEAD);
    const planning = plan(queue).catch((error: unknown) => {
      queue.fail(error);
    });
    try {
      for (;;) {
        const w = await queue.next();
        if (!w) break;
        await pager.storeWindow(w);
        counters.windowsDone++;
        progress.report();
        if (onCursor) {
          const at = w.endMs;
          chain.then(() => onCursor(at));
        }
      }
    } catch (error) {
      // Requests the planner still has out end now; its own failure is this one or a consequence.
      stopAll.abort(error);
      queue.close();
      await planning;
      throw error;
    }
    await planning;
  }

  const syncRange = (
    fromMs: number,
    toMs: number,
    bulkListId: string | null,
    onCursor?: (cursorMs: number) => Promise<void>,
  ) => syncWindows((out) => planner.planRange(fromMs, toMs, bulkListId, out), onCursor);

  if (o.campaign) {
    progress.phase = 'campaigns';
    // Up to a day ahead: a retry the service schedules is a new call, and its clock may run ahead
    // of this computer's; the window past the last call is empty and costs one request.
    const toMs = now() + 86_400_000;
    await syncRange(o.campaign.fromMs, toMs, o.campaign.bulkListId);
    await chain.settled();
    progress.report();
    return { ...counters, fromMs: o.campaign.fromMs, toMs, resumed: false, concurrency: limiter.stats() };
  }

  // ---- the pass
  const state = await o.db.call('calls.syncState', { workspaceId: o.workspaceId });
  chain.holdQuarantine(state.quarantined > 0);
  let pass: SyncPass;
  let resumed = false;
  if (o.sinceMs === undefined && state.pass) {
    pass = state.pass;
    resumed = true;
  } else {
    const toMs = now() + 60_000;
    const fromMs =
      o.sinceMs ??
      (state.watermarkMs !== null
        ? state.watermarkMs - policy.incrementalOverlapMs
        : toMs - policy.firstLookbackMs);
    pass = { fromMs, toMs, cursorMs: fromMs };
    await o.db.call('calls.saveSync', { workspaceId: o.workspaceId, pass });
  }

  // Calls left non-terminal before this pass's range: narrow windows around each (grouped).
  progress.phase = 'revisit';
  const open = await o.db.call('calls.openTimes', { workspaceId: o.workspaceId, beforeMs: pass.fromMs });
  const around = groupTimes(open, 10 * 60_000).map(([start, end]) => [start - 1000, end + 1000] as const);
  await syncWindows((out) => planner.planFixed(around, out));

  progress.phase = 'history';
  await syncRange(pass.cursorMs, pass.toMs, null, async (cursorMs) => {
    pass = { ...pass, cursorMs };
    await o.db.call('calls.saveSync', { workspaceId: o.workspaceId, pass });
  });

  await chain.settled();
  progress.phase = 'campaigns';
  const campaignIds = await o.db.call('calls.campaignIds', { workspaceId: o.workspaceId });
  for (const id of campaignIds) await syncRange(pass.fromMs, pass.toMs, id);
  await chain.settled();

  await o.db.call('calls.saveSync', {
    workspaceId: o.workspaceId,
    pass: null,
    finished: { watermarkMs: pass.toMs, at: new Date().toISOString() },
  });
  progress.report();
  return { ...counters, fromMs: pass.fromMs, toMs: pass.toMs, resumed, concurrency: limiter.stats() };
}

/** Sorted times → [start, end] groups whose neighbours are less than `gapMs` apart. */
export function groupTimes(times: readonly number[], gapMs: number): Array<[number, number]> {
  const groups: Array<[number, number]> = [];
  for (const t of times) {
    const last = groups[groups.length - 1];
    if (last && t - last[1] < gapMs) last[1] = t;
    else groups.push([t, t]);
  }
  return groups;
}
