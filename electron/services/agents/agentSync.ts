// Sync of a workspace's agents into the library: every page of GET /agent/all (limit/offset), then
// each agent by id (prompt, variables, versions, language, voice), written in one transaction so
// the library is never half old, half new. A failure keeps the cached copy and records why.
import type { AgentSyncState } from '../../../shared/ipc/channels/agents.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { isApiError } from '../api/index.ts';
import type { DeskContext } from '../desk/context.ts';
import { readAllAgents } from './readAgents.ts';
import { activeWorkspace, agentServiceFailure, workspaceClient } from '../workspaces/workspaceAccess.ts';

/** Progress events at most this often (agents read). */
const PROGRESS_STEP = 10;
/** One agent sync may take minutes for a big workspace; each request is bounded by this. */
const REQUEST_TIMEOUT_MS = 20_000;

interface Running {
  promise: Promise<number>;
  progress: { done: number; total: number | null };
}

export function createAgentSync(ctx: DeskContext) {
  const running = new Map<string, Running>();
  const abort = new AbortController();

  const state = async (workspaceId: string | null): Promise<AgentSyncState> => {
    if (workspaceId === null)
      return {
        workspaceId,
        running: false,
        syncedAt: null,
        ageSeconds: null,
        lastError: null,
        lastErrorAt: null,
        progress: null,
      };
    const stored = await ctx.db.call('agents.syncState', { workspaceId });
    const run = running.get(workspaceId);
    const syncedAt = stored?.synced_at ?? null;
    return {
      workspaceId,
      running: run !== undefined,
      syncedAt,
      ageSeconds:
        syncedAt === null ? null : Math.max(0, Math.floor((Date.now() - Date.parse(syncedAt)) / 1000)),
      lastError: stored?.last_error ?? null,
      lastErrorAt: stored?.last_error_at ?? null,
      progress: run ? { ...run.progress } : null,
    };
  };

  /** Tells the renderer (about the active workspace only); never throws (the desk may be closing). */
  const announce = async (workspaceId: string): Promise<void> => {
    try {
      if (abort.signal.aborted) return;
      const active = await ctx.db.call('workspaces.active', {});
      if (active === workspaceId) ctx.events.emit('agents:sync-changed', { sync: await state(workspaceId) });
    } catch (error) {
      if (!abort.signal.aborted) ctx.logger.error('agent sync event failed', error);
    }
  };

  /** Syncs one workspace (joins a sync already running for it); resolves to the agents synced. */
  const sync = (workspaceId: string): Promise<number> => {
    const existing = running.get(workspaceId);
    if (existing) return existing.promise;
    const run: Running = { promise: Promise.resolve(0), progress: { done: 0, total: null } };
    run.promise = (async () => {
      const record = await ctx.db.call('workspaces.get', { id: workspaceId });
      if (!record) throw new DeskFailure('not_found', 'This workspace no longer exists.');
      try {
        const client = await workspaceClient(ctx, record, { timeoutMs: REQUEST_TIMEOUT_MS });
        const agents = await readAllAgents(client, {
          signal: abort.signal,
          onListed: (total) => {
            run.progress = { done: 0, total };
            void announce(workspaceId);
          },
          onRead: (done) => {
            run.progress.done = done;
            if (done % PROGRESS_STEP === 0) void announce(workspaceId);
          },
        });
        await ctx.db.call('agents.replaceSynced', { workspaceId, agents, now: new Date().toISOString() });
        ctx.logger.info('agents synced', { workspaceId, agents: agents.length });
        return agents.length;
      } catch (error) {
        if (abort.signal.aborted) throw new DeskFailure('cancelled', 'The app is closing.');
        const failure = isApiError(error) ? agentServiceFailure(error, record, REQUEST_TIMEOUT_MS) : error;
        if (!(failure instanceof DeskFailure)) throw failure;
        await ctx.db.call('agents.syncFailed', {
          workspaceId,
          message: failure.message,
          at: new Date().toISOString(),
        });
        throw failure;
      }
    })().finally(() => {
      running.delete(workspaceId);
      void announce(workspaceId);
    });
    running.set(workspaceId, run);
    void announce(workspaceId);
    return run.promise;
  };

  /** Background sync of the active workspace (start, reconnect, switch): failures are recorded, not thrown. */
  const syncActiveQuietly = async (): Promise<void> => {
    try {
      if (abort.signal.aborted) return;
      const record = await activeWorkspace(ctx);
      if (record) await sync(record.id);
    } catch (error) {
      if (!(error instanceof DeskFailure) && !abort.signal.aborted)
        ctx.logger.error('agent sync failed', error);
    }
  };

  return {
    state,
    sync,
    syncActiveQuietly,
    /** Stops running syncs and waits for them to settle. */
    async close(): Promise<void> {
      abort.abort();
      await Promise.allSettled([...running.values()].map((r) => r.promise));
    },
  };
}

export type AgentSync = ReturnType<typeof createAgentSync>;
