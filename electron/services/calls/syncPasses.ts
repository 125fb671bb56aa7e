// The calls sync passes of the app: one per workspace at a time, manual, background (every few
// minutes while online, for workspaces synced before) or live (running campaigns' counters).
import type { SyncStatus } from '../../../shared/ipc/channels/calls.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { createApiClient } from '../api/index.ts';
import type { DeskContext } from '../desk/context.ts';
import type { FetchHistory } from '../sync/historySync.ts';
import { sweepPartials } from '../sync/recordings.ts';
import { idleStatus, runWorkspaceSync } from '../sync/workspaceSync.ts';
import { missingApiKeyMessage, readWorkspaceApiKey } from '../workspaces/workspaceApiKey.ts';
import { livePoller } from './livePoller.ts';

export async function workspaceFetcher(
  ctx: Pick<DeskContext, 'db' | 'secrets'>,
  workspaceId: string,
): Promise<FetchHistory> {
  const record = await ctx.db.call('workspaces.get', { id: workspaceId });
  if (!record) throw new DeskFailure('not_found', 'No such workspace.');
  const apiKey = await readWorkspaceApiKey(ctx.secrets, record);
  if (!apiKey) throw new DeskFailure('unauthorized', missingApiKeyMessage(record));
  const api = createApiClient({
    baseUrl: record.baseUrl,
    apiKey: async () => apiKey,
    maxRetries: 0,
    timeoutMs: 30_000,
  });
  return (query, opts) => api.listCallHistoryPage(query, opts);
}

/** Starts the background and live passes; `start` runs one on demand. Stopped when the desk closes. */
export function syncPasses(ctx: DeskContext) {
  const { db } = ctx;
  /**
   * The pass running per workspace, manual/background or live: never two at once. A manual or
   * background pass asked for during a live one stops it and waits for its end.
   */
  const running = new Map<
    string,
    { kind: 'sync' | 'live'; controller: AbortController; status: SyncStatus; done: Promise<void> }
  >();

  async function start(workspaceId: string, opts: { sinceMs?: number; recordings: boolean }) {
    let current = running.get(workspaceId);
    while (current?.kind === 'live') {
      current.controller.abort();
      await current.done;
      current = running.get(workspaceId);
    }
    if (current) return { started: false, status: current.status };
    const fetchHistory = await workspaceFetcher(ctx, workspaceId);
    const record = await db.call('workspaces.get', { id: workspaceId });
    if (!record) throw new DeskFailure('not_found', 'No such workspace.');
    const controller = new AbortController();
    const entry = {
      kind: 'sync' as const,
      controller,
      status: await idleStatus(db, workspaceId),
      done: Promise.resolve(),
    };
    entry.status = { ...entry.status, state: 'running', message: null };
    running.set(workspaceId, entry);
    let lastCalls = entry.status.calls;
    entry.done = runWorkspaceSync({
      db,
      dataDir: ctx.options.dataDir,
      workspaceId,
      serviceBaseUrl: record.baseUrl,
      fetchHistory,
      signal: controller.signal,
      recordings: opts.recordings,
      ...(opts.sinceMs !== undefined ? { sinceMs: opts.sinceMs } : {}),
      onStatus: (s) => {
        entry.status = s;
        ctx.events.emit('calls:sync-progress', s);
        const stored = s.inserted + s.updated;
        if (stored !== lastCalls) {
          lastCalls = stored;
          ctx.events.emit('calls:changed', { workspaceId, calls: s.calls });
        }
      },
    })
      .then((r) => {
        ctx.logger.info('calls sync finished', {
          workspace: workspaceId,
          state: r.status.state,
          pages: r.status.pages,
        });
        ctx.events.emit('calls:changed', { workspaceId, calls: r.status.calls });
      })
      .catch((error: unknown) => ctx.logger.error('calls sync failed', error, { workspace: workspaceId }))
      .finally(() => running.delete(workspaceId));
    return { started: true, status: entry.status };
  }

  // Background: workspaces synced before get a pass every few minutes while online.
  let online = true;
  const offConnectivity = ctx.events.on('app:connectivity-changed', (c) => {
    online = c.online;
  });
  const timer = setInterval(() => {
    void (async () => {
      if (!online) return;
      const active = await db.call('workspaces.active', {});
      // A live pass gives way (start stops it); a sync already running is left alone.
      if (active === null || running.get(active)?.kind === 'sync') return;
      const state = await db.call('calls.syncState', { workspaceId: active });
      if (state.watermarkMs === null && state.pass === null) return;
      await start(active, { recordings: true });
    })().catch((error: unknown) =>
      ctx.logger.warn?.('background calls sync not started', { error: String(error) }),
    );
  }, ctx.options.timings.backgroundSyncIntervalMs);
  timer.unref();
  // Partial downloads no pending recording will resume (a crash, an older build) go at start.
  const swept = sweepPartials(db, ctx.options.dataDir, null).catch((error: unknown) =>
    ctx.logger.warn('partial recordings not swept', { error: String(error) }),
  );
  const live = livePoller({
    ctx,
    running,
    isOnline: () => online,
    fetcher: (workspaceId) => workspaceFetcher(ctx, workspaceId),
    idleStatus: (workspaceId) => idleStatus(db, workspaceId),
  });
  ctx.onClose(async () => {
    live.stop();
    await swept;
    clearInterval(timer);
    offConnectivity();
    for (const r of running.values()) r.controller.abort();
    await Promise.all([...running.values()].map((r) => r.done));
  });

  return {
    start,
    /** Stops the workspace's pass (its end awaited); `cancelled` false when none was running. */
    async cancel(workspaceId: string) {
      const current = running.get(workspaceId);
      if (!current) return { cancelled: false, status: await idleStatus(db, workspaceId) };
      current.controller.abort();
      await current.done;
      return { cancelled: true, status: current.status };
    },
    status: async (workspaceId: string) => running.get(workspaceId)?.status ?? idleStatus(db, workspaceId),
    live: (workspaceId: string) => live.status(workspaceId),
  };
}
