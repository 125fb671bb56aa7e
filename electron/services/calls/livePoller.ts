// Live counters of running campaigns: while a campaign launched from here is running and the app
// is online, its calls are read by `bulk_list_id` every few seconds (a live pass), under the same
// one-pass-per-workspace lock as the manual and background sync; a pass that changed nothing, or
// met rate limits (429: the pass waits Retry-After itself), doubles the delay up to a cap. A
// campaign whose calls are all final stops being polled. Offline nothing is asked and the figures
// stay, with the time they were last brought up to date.
import type { LiveCampaign, LiveStatus, SyncStatus } from '../../../shared/ipc/channels/calls.ts';
import { estimatedFinishMs, isRunning, leftOf } from '../../../shared/domain/liveCampaign.ts';
import type { LiveCampaignRow } from './campaigns.queries.ts';
import type { DeskContext } from '../desk/context.ts';
import type { FetchHistory } from '../sync/historySync.ts';
import { runHistorySync } from '../sync/historySync.ts';

/** Campaigns shown with counters (the newest launches). */
const SHOWN = 5;
/** A live pass reads a campaign's calls from a little before its first one was made. */
const LEAD_MS = 60_000;
/** Before any call is stored: from this long before the launch (this computer's clock may differ). */
const LAUNCH_LEAD_MS = 10 * 60_000;

interface Pass {
  kind: 'sync' | 'live';
  controller: AbortController;
  status: SyncStatus;
  done: Promise<void>;
}

export interface LivePollerOptions {
  ctx: Pick<DeskContext, 'db' | 'events' | 'logger' | 'options'>;
  running: Map<string, Pass>;
  isOnline: () => boolean;
  fetcher: (workspaceId: string) => Promise<FetchHistory>;
  idleStatus: (workspaceId: string) => Promise<SyncStatus>;
  now?: () => number;
}

export function livePoller(o: LivePollerOptions) {
  const { db, events, logger } = o.ctx;
  const { livePollMs, livePollMaxMs } = o.ctx.options.timings;
  const now = o.now ?? Date.now;
  const updatedAt = new Map<string, string>();
  let delay = livePollMs;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const toLive = (r: LiveCampaignRow, at: number): LiveCampaign => {
    const running = isRunning(r, at);
    const left = leftOf(r, running);
    const finish = running ? estimatedFinishMs(r, left, at) : null;
    return {
      bulkListId: r.bulkListId,
      name: r.name,
      running,
      contacts: Math.max(r.contacts, r.calls),
      dialled: r.dialled,
      answered: r.answered,
      completed: r.completed,
      left,
      credits: r.credits,
      estimatedFinishAt: finish === null ? null : new Date(finish).toISOString(),
    };
  };

  async function status(workspaceId: string, rows?: LiveCampaignRow[]): Promise<LiveStatus> {
    const at = now();
    const list = rows ?? (await db.call('calls.liveCampaigns', { workspaceId, limit: SHOWN }));
    const campaigns = list.map((r) => toLive(r, at));
    return {
      workspaceId,
      campaigns,
      polling: o.isOnline() && campaigns.some((c) => c.running),
      updatedAt: updatedAt.get(workspaceId) ?? null,
    };
  }

  /** One live pass over the workspace's running campaigns; true when it stored something. */
  async function livePass(
    workspaceId: string,
    rows: LiveCampaignRow[],
  ): Promise<{ changed: boolean; retries: number }> {
    const fetchHistory = await o.fetcher(workspaceId);
    const controller = new AbortController();
    const entry: Pass = {
      kind: 'live',
      controller,
      status: await o.idleStatus(workspaceId),
      done: Promise.resolve(),
    };
    let changed = false;
    let retries = 0;
    let settle!: () => void;
    entry.done = new Promise<void>((resolve) => (settle = resolve));
    o.running.set(workspaceId, entry);
    try {
      events.emit('calls:live-changed', { ...(await status(workspaceId, rows)), running: true });
      for (const r of rows) {
        if (controller.signal.aborted) break;
        const fromMs =
          r.firstCreatedMs === null ? Date.parse(r.launchedAt) - LAUNCH_LEAD_MS : r.firstCreatedMs - LEAD_MS;
        const result = await runHistorySync({
          db,
          workspaceId,
          fetchHistory,
          signal: controller.signal,
          campaign: { bulkListId: r.bulkListId, fromMs },
        });
        changed ||= result.inserted + result.updated > 0;
        retries += result.retries;
      }
      if (!controller.signal.aborted) updatedAt.set(workspaceId, new Date(now()).toISOString());
    } catch (error) {
      // A live pass stopped by a manual sync, or one that failed: the next tick tries again.
      if (!controller.signal.aborted) logger.warn?.('live campaign pass failed', { error: String(error) });
      retries++;
    } finally {
      // The end is told before the lock is released: a sync waiting for it starts after this.
      try {
        if (changed) {
          const calls = (await db.call('calls.syncState', { workspaceId })).calls;
          events.emit('calls:changed', { workspaceId, calls });
        }
        events.emit('calls:live-changed', { ...(await status(workspaceId)), running: false });
      } finally {
        o.running.delete(workspaceId);
        settle();
      }
    }
    return { changed, retries };
  }

  async function tick(): Promise<void> {
    if (!o.isOnline()) return void (delay = livePollMs);
    const workspaceId = await db.call('workspaces.active', {});
    if (workspaceId === null || o.running.has(workspaceId)) return;
    const rows = await db.call('calls.liveCampaigns', { workspaceId, limit: SHOWN });
    const at = now();
    const runningRows = rows.filter((r) => isRunning(r, at));
    if (runningRows.length === 0) return void (delay = livePollMs);
    const r = await livePass(workspaceId, runningRows);
    delay = r.changed && r.retries === 0 ? livePollMs : Math.min(livePollMaxMs, delay * 2);
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void tick()
        .catch((error: unknown) => logger.warn?.('live campaign poll skipped', { error: String(error) }))
        .finally(schedule);
    }, delay);
    timer.unref?.();
  };
  schedule();

  return {
    status: (workspaceId: string) => status(workspaceId),
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
