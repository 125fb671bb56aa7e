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
import type { CallRecord, HistoryQuery, RejectedRecord } from '../../../shared/service/history.ts';
import { isApiError } from '../api/apiError.ts';
import type { DbClient } from '../db/client.ts';
import type { SyncPass } from '../calls/syncState.queries.ts';
import { AdaptiveLimit } from './adaptiveLimit.ts';
import type { LimitFigures } from './adaptiveLimit.ts';
import { callColumns } from './callRow.ts';
import type { CallColumns } from './callRow.ts';

export interface HistoryPageRecords {
  records: CallRecord[];
  /** Records of the page that failed their schema: quarantined, never stored as calls. */
  rejected: RejectedRecord[];
  count: number;
  total: number | null;
}

/** The one call the engine makes (the API client's listCallHistoryRecords, with no retries of its own). */
export type FetchHistory = (
  query: HistoryQuery,
  opts: { signal: AbortSignal },
) => Promise<HistoryPageRecords>;

export interface SyncPolicy {
  pageSize: number;
  /** Attempts per page before the pass fails. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured as given (longer ones are capped to this). */
  maxRetryAfterMs: number;
  /** A window reporting more calls than this is split in two (down to minWindowMs). */
  maxWindowCalls: number;
  /** Windows are sized for about this many calls (a few pages: small offsets, cheap rechecks). */
  targetWindowCalls: number;
  initialWindowMs: number;
  maxWindowMs: number;
  minWindowMs: number;
  /** Adjacent windows overlap by this much; an incremental pass starts this long before the watermark. */
  windowOverlapMs: number;
  incrementalOverlapMs: number;
  /** First pass of a workspace: this far back. */
  firstLookbackMs: number;
  /** History requests in flight at most (the limit halves on a 429 or rising latency). */
  maxInFlight: number;
  /** After this many pages in a row answered normally, one more request may be in flight. */
  growAfterPages: number;
  /** Full pages taking this many times the fastest one (median of the last 4): halve the limit. */
  latencyRiseFactor: number;
}

export const defaultSyncPolicy: SyncPolicy = {
  pageSize: 1000,
  maxAttempts: 8,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
  maxWindowCalls: 20_000,
  targetWindowCalls: 5000,
  initialWindowMs: 24 * 3600_000,
  maxWindowMs: 14 * 24 * 3600_000,
  minWindowMs: 60_000,
  windowOverlapMs: 1000,
  incrementalOverlapMs: 15 * 60_000,
  firstLookbackMs: 90 * 24 * 3600_000,
  maxInFlight: 4,
  growAfterPages: 8,
  latencyRiseFactor: 2,
};

export interface SyncCounters {
  received: number;
  inserted: number;
  updated: number;
  pages: number;
  retries: number;
  /** Distinct records of this pass refused by their schema (quarantined with the reason). */
  skipped: number;
  windowsDone: number;
  windowsTotal: number;
}

export interface SyncProgress extends SyncCounters {
  phase: 'history' | 'revisit' | 'campaigns';
  message: string | null;
}

/** Why a pass stopped without storing everything (the CLI prints `message`, the UI shows it). */
export class SyncFailure extends Error {
  readonly code: 'key_rejected' | 'unreachable' | 'rejected' | 'cancelled';
  constructor(code: SyncFailure['code'], message: string) {
    super(message);
    this.name = 'SyncFailure';
    this.code = code;
  }
}

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

const abortableSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

const MAX_QUEUED_PAGES = 16;
/** Windows planned (their pages asked for) ahead of the one being stored. */
const WINDOWS_AHEAD = 2;
/** Rows written in one transaction at most (pages waiting for the worker are joined up to this). */
const MAX_BATCH_ROWS = 16_000;

const RETRYABLE = new Set(['rate_limited', 'server', 'unreachable', 'timeout', 'invalid_response']);

const iso = (ms: number) => new Date(ms).toISOString();

export async function runHistorySync(o: HistorySyncOptions): Promise<HistorySyncResult> {
  const policy = { ...defaultSyncPolicy, ...o.policy };
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? abortableSleep;
  const random = o.random ?? Math.random;
  const counters: SyncCounters = {
    received: 0,
    inserted: 0,
    updated: 0,
    pages: 0,
    retries: 0,
    skipped: 0,
    windowsDone: 0,
    windowsTotal: 0,
  };
  let phase: SyncProgress['phase'] = 'history';
  let message: string | null = null;
  const progress = () => o.onProgress?.({ ...counters, phase, message });

  const cancelled = () => new SyncFailure('cancelled', 'Sync cancelled');
  const checkAbort = () => {
    if (o.signal.aborted) throw cancelled();
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

  // Stores run in order on one chain while the next pages are fetched (also across windows); a
  // window's cursor is saved on the same chain, so it never runs ahead of what is stored. Pages
  // that wait while the worker writes are written together, in one transaction (one message, one
  // commit, one search-index insert), so a slow disk batches more instead of falling behind.
  let storing: Promise<void> = Promise.resolve();
  let queued = 0;
  const waiting: Array<{ bulkListId: string | null; rows: CallColumns[] }> = [];
  let wakeFetcher: (() => void) | null = null;

  // A refused record is counted once per pass, however many windows carry it.
  const skippedKeys = new Set<string>();
  // While the workspace has quarantined records, each stored batch releases the ones now valid
  // (set from the sync state at the start of the pass, and by the first refusal).
  let quarantineHeld = false;
  const quarantine = (rejected: RejectedRecord[]) => {
    const fresh = rejected.filter((r) => {
      const key = r.callId ?? r.raw;
      if (skippedKeys.has(key)) return false;
      skippedKeys.add(key);
      return true;
    });
    counters.skipped += fresh.length;
    if (rejected.length === 0) return;
    // On the store chain: in order with the calls, so a valid arrival later in the pass releases it.
    storing = storing.then(async () => {
      await o.db.call('calls.quarantine', {
        workspaceId: o.workspaceId,
        records: rejected,
        nowIso: new Date().toISOString(),
      });
      quarantineHeld = true;
      progress();
    });
    storing.catch(() => undefined);
  };

  async function writeWaiting(): Promise<void> {
    const first = waiting[0];
    if (!first) return; // an earlier link took these pages
    const batch: CallColumns[] = [];
    while (waiting[0] && waiting[0].bulkListId === first.bulkListId && batch.length < MAX_BATCH_ROWS) {
      batch.push(...waiting.shift()!.rows);
      queued--;
    }
    wakeFetcher?.();
    const r = await o.db.call('calls.upsert', {
      workspaceId: o.workspaceId,
      bulkListId: first.bulkListId,
      rows: batch,
      nowIso: new Date().toISOString(),
    });
    counters.inserted += r.inserted;
    counters.updated += r.updated;
    if (quarantineHeld) {
      const released = await o.db.call('calls.releaseQuarantined', {
        workspaceId: o.workspaceId,
        callIds: batch.map((c) => c.id),
      });
      quarantineHeld = released.total > 0;
    }
    progress();
  }

  /**
   * One page with the engine's retry policy (capped exponential backoff with jitter, Retry-After),
   * each attempt holding one of the pass's request slots (adaptiveLimit.ts) while it is in flight.
   */
  async function fetchPage(q: HistoryQuery): Promise<HistoryPageRecords> {
    for (let attempt = 1; ; attempt++) {
      checkAbort();
      try {
        await limiter.acquire(signal);
      } catch {
        throw cancelled();
      }
      const started = now();
      let page: HistoryPageRecords;
      try {
        page = await o.fetchHistory(q, { signal });
      } catch (error) {
        limiter.release();
        if (signal.aborted) throw cancelled();
        if (isApiError(error) && error.kind === 'unauthorized')
          throw new SyncFailure('key_rejected', 'The calling service rejected the API key (key rejected).');
        const retryable = isApiError(error) && RETRYABLE.has(error.kind);
        const reason = error instanceof Error ? error.message : String(error);
        if (!retryable) throw new SyncFailure('rejected', `History request refused: ${reason}`);
        const retryAfterMs =
          isApiError(error) && error.retryAfterSeconds !== undefined
            ? Math.min(policy.maxRetryAfterMs, error.retryAfterSeconds * 1000)
            : null;
        if (isApiError(error) && error.kind === 'rate_limited') limiter.rateLimited(retryAfterMs);
        if (attempt >= policy.maxAttempts)
          throw new SyncFailure('unreachable', `History page failed after ${attempt} attempts: ${reason}`);
        const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
        const delay = retryAfterMs ?? Math.round(exp / 2 + random() * (exp / 2));
        counters.retries++;
        message = `Retrying in ${Math.max(1, Math.round(delay / 1000))} s (${isApiError(error) ? error.kind : 'error'})`;
        progress();
        await sleep(delay, signal).catch(() => {
          throw cancelled();
        });
        continue;
      }
      limiter.release();
      limiter.answered(now() - started, page.records.length + page.rejected.length >= (q.limit ?? 0));
      counters.pages++;
      if (message !== null) {
        message = null;
        progress();
      }
      return page;
    }
  }

  /** A window and its pages, asked for as soon as the window is known (page i at offset i × pageSize). */
  interface Window {
    startMs: number;
    endMs: number;
    bulkListId: string | null;
    pages: Array<Promise<HistoryPageRecords>>;
  }

  const openWindow = (startMs: number, endMs: number, bulkListId: string | null): Window => {
    const w: Window = { startMs, endMs, bulkListId, pages: [] };
    askPage(w, 0);
    return w;
  };

  function askPage(w: Window, index: number): void {
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

  /** Every page of the window the total announces (they queue for the slots in this order). */
  function askRest(w: Window, total: number | null): void {
    if (total === null) return; // unknown: paged one after another
    for (let i = 1; i * policy.pageSize < total; i++) askPage(w, i);
  }

  const store = (bulkListId: string | null, records: CallRecord[]) => {
    if (records.length === 0) return;
    // Columns are made here, on the main thread, while the DB worker writes earlier pages.
    waiting.push({ bulkListId, rows: records.map(callColumns) });
    queued++;
    storing = storing.then(writeWaiting);
    // Surface a store failure at the next await of `storing`, never as an unhandled rejection.
    storing.catch(() => undefined);
  };

  /**
   * Stores one window's pages in order (whatever order they arrive in). Calls that arrive while it
   * is paged shift the offsets: a window whose distinct ids fall short of its total is paged again.
   * Answers the distinct calls seen.
   */
  async function storeWindow(planned: Window): Promise<number> {
    const seen = new Set<string>();
    let w = planned;
    for (let round = 0; round < 4; round++) {
      if (round > 0) {
        w = openWindow(w.startMs, w.endMs, w.bulkListId);
        askRest(w, (await w.pages[0]!).total);
      }
      let maxTotal = 0;
      let totalKnown = true;
      for (let i = 0; ; i++) {
        // Pages wait for the DB worker a few at a time at most.
        while (queued >= MAX_QUEUED_PAGES)
          await Promise.race([new Promise<void>((wake) => (wakeFetcher = wake)), storing]);
        askPage(w, i);
        const page = await w.pages[i]!;
        // Refused records hold their place in the service's paging like the others.
        const items = page.records.length + page.rejected.length;
        const full = items >= policy.pageSize;
        // More than the total said (calls arrived): the next page is asked for before this one is stored.
        if (full) askPage(w, i + 1);
        counters.received += items;
        for (const r of page.records) seen.add(r.id);
        for (const r of page.rejected) seen.add(r.callId ?? r.raw);
        if (page.total === null) totalKnown = false;
        else maxTotal = Math.max(maxTotal, page.total);
        store(w.bulkListId, page.records);
        quarantine(page.rejected);
        if (!full) break;
      }
      if (!totalKnown || seen.size >= maxTotal) break;
      message = `Window ${iso(w.startMs)} changed during the pass; reading it again`;
      progress();
    }
    message = null;
    return seen.size;
  }

  /**
   * Windows handed from the planner to the store loop, in time order; the planner stays at most
   * `room` windows ahead (what is fetched but not yet stored stays bounded).
   */
  function windowQueue(room: number) {
    const items: Window[] = [];
    let ended = false;
    let closed = false;
    let failed: { error: unknown } | null = null;
    let waiters: Array<() => void> = [];
    const notify = () => {
      const woken = waiters;
      waiters = [];
      for (const w of woken) w();
    };
    const changed = () => new Promise<void>((resolve) => waiters.push(resolve));
    return {
      push(w: Window) {
        items.push(w);
        notify();
      },
      end() {
        ended = true;
        notify();
      },
      fail(error: unknown) {
        failed = { error };
        notify();
      },
      /** The store loop stopped: the planner stops too. */
      close() {
        closed = true;
        notify();
      },
      async hasRoom(): Promise<void> {
        while (items.length >= room && !closed) await changed();
        if (closed) throw cancelled();
      },
      async next(): Promise<Window | null> {
        for (;;) {
          if (items.length > 0) {
            const w = items.shift()!;
            notify();
            return w;
          }
          if (failed) throw failed.error;
          if (ended) return null;
          await changed();
        }
      },
    };
  }

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
    out: ReturnType<typeof windowQueue>,
  ): Promise<void> {
    let cursor = fromMs;
    let size = policy.initialWindowMs;
    let planned = 0;
    counters.windowsTotal += Math.max(1, Math.ceil((toMs - fromMs) / size));
    progress();
    while (cursor < toMs) {
      await out.hasRoom();
      checkAbort();
      const end = Math.min(toMs, cursor + size);
      const canSplit = end - cursor > policy.minWindowMs;
      const w = openWindow(cursor, end, bulkListId);
      const first = await w.pages[0]!;
      if (canSplit && (first.total === null || first.total > policy.maxWindowCalls)) {
        size = Math.max(policy.minWindowMs, Math.floor((end - cursor) / 2));
        counters.windowsTotal++;
        continue;
      }
      askRest(w, first.total);
      out.push(w);
      planned++;
      const span = end - cursor;
      cursor = end;
      const calls = first.total ?? first.records.length + first.rejected.length;
      size = Math.min(
        policy.maxWindowMs,
        Math.max(
          policy.minWindowMs,
          calls === 0 ? span * 4 : Math.floor((span * policy.targetWindowCalls) / calls),
        ),
      );
      counters.windowsTotal = Math.max(counters.windowsTotal, planned + Math.ceil((toMs - cursor) / size));
    }
    out.end();
  }

  /** Fixed windows (no split, no resizing), each asked for as soon as there is room. */
  async function planFixed(
    windows: ReadonlyArray<readonly [number, number]>,
    out: ReturnType<typeof windowQueue>,
  ): Promise<void> {
    for (const [start, end] of windows) {
      await out.hasRoom();
      checkAbort();
      const w = openWindow(start, end, null);
      askRest(w, (await w.pages[0]!).total);
      out.push(w);
    }
    out.end();
  }

  /**
   * Runs a planner and stores its windows in order; `onCursor` after each window, on the store
   * chain, so a saved cursor never runs ahead of what is stored.
   */
  async function syncWindows(
    plan: (out: ReturnType<typeof windowQueue>) => Promise<void>,
    onCursor?: (cursorMs: number) => Promise<void>,
  ): Promise<void> {
    const queue = windowQueue(WINDOWS_AHEAD);
    const planner = plan(queue).catch((error: unknown) => {
      queue.fail(error);
    });
    try {
      for (;;) {
        const w = await queue.next();
        if (!w) break;
        await storeWindow(w);
        counters.windowsDone++;
        progress();
        if (onCursor) {
          const at = w.endMs;
          storing = storing.then(() => onCursor(at));
          storing.catch(() => undefined);
        }
      }
    } catch (error) {
      // Requests the planner still has out end now; its own failure is this one or a consequence.
      stopAll.abort(error);
      queue.close();
      await planner;
      throw error;
    }
    await planner;
  }

  const syncRange = (
    fromMs: number,
    toMs: number,
    bulkListId: string | null,
    onCursor?: (cursorMs: number) => Promise<void>,
  ) => syncWindows((out) => planRange(fromMs, toMs, bulkListId, out), onCursor);

  if (o.campaign) {
    phase = 'campaigns';
    // Up to a day ahead: a retry the service schedules is a new call, and its clock may run ahead
    // of this computer's; the window past the last call is empty and costs one request.
    const toMs = now() + 86_400_000;
    await syncRange(o.campaign.fromMs, toMs, o.campaign.bulkListId);
    await storing;
    progress();
    return { ...counters, fromMs: o.campaign.fromMs, toMs, resumed: false, concurrency: limiter.stats() };
  }

  // ---- the pass
  const state = await o.db.call('calls.syncState', { workspaceId: o.workspaceId });
  quarantineHeld = state.quarantined > 0;
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
  phase = 'revisit';
  const open = await o.db.call('calls.openTimes', { workspaceId: o.workspaceId, beforeMs: pass.fromMs });
  const around = groupTimes(open, 10 * 60_000).map(([start, end]) => [start - 1000, end + 1000] as const);
  await syncWindows((out) => planFixed(around, out));

  phase = 'history';
  await syncRange(pass.cursorMs, pass.toMs, null, async (cursorMs) => {
    pass = { ...pass, cursorMs };
    await o.db.call('calls.saveSync', { workspaceId: o.workspaceId, pass });
  });

  await storing;
  phase = 'campaigns';
  const campaignIds = await o.db.call('calls.campaignIds', { workspaceId: o.workspaceId });
  for (const id of campaignIds) await syncRange(pass.fromMs, pass.toMs, id);
  await storing;

  await o.db.call('calls.saveSync', {
    workspaceId: o.workspaceId,
    pass: null,
    finished: { watermarkMs: pass.toMs, at: new Date().toISOString() },
  });
  progress();
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
