// Sync of a workspace's agents into the library: every page of GET /agent/all (limit/offset), then
// each agent by id (prompt, variables, versions, language, voice), written in one transaction so
// the library is never half old, half new. A failure keeps the cached copy and records why.
import type { AgentSyncState } from '../../../shared/ipc/channels/agents.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { normalizeAgent } from '../../../shared/service/agent.ts';
import type { AgentListItem } from '../../../shared/service/agent.ts';
import { isApiError } from '../api/index.ts';
import type { ApiClient } from '../api/index.ts';
import type { SyncedAgentInput } from '../db/queries/agents.ts';
import type { DeskContext } from '../desk/context.ts';
import { syncedInput } from './agentView.ts';
import { activeWorkspace, agentServiceFailure, workspaceClient } from './workspaceAccess.ts';

/** Agents per page of the listing (the service allows up to 100). */
export const AGENT_PAGE_SIZE = 50;
/** A listing longer than this many pages is not followed further (a service ignoring offset). */
const MAX_PAGES = 400;
/** Agents read by id at once. */
const DETAIL_CONCURRENCY = 4;
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

  async function readAll(client: ApiClient, run: Running, workspaceId: string): Promise<SyncedAgentInput[]> {
    const signal = abort.signal;
    const items: AgentListItem[] = [];
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const rows = await client.listAgents({
        limit: AGENT_PAGE_SIZE,
        offset: page * AGENT_PAGE_SIZE,
        signal,
      });
      const fresh = rows.filter((r) => !seen.has(r.id));
      for (const r of fresh) seen.add(r.id);
      items.push(...fresh);
      // A short page is the last; a page of nothing new means the service ignores offset.
      if (rows.length < AGENT_PAGE_SIZE || fresh.length === 0) break;
    }
    run.progress = { done: 0, total: items.length };
    await announce(workspaceId);
    const out: Array<SyncedAgentInput | null> = new Array<SyncedAgentInput | null>(items.length).fill(null);
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const i = next++;
        const item = items[i] as AgentListItem;
        try {
          const detail = await client.getAgentDetail(item.id, { signal });
          out[i] = syncedInput(detail, normalizeAgent(detail), item, i);
        } catch (error) {
          // Deleted between the listing and now: it is simply not there any more.
          if (!(isApiError(error) && error.kind === 'not_found')) throw error;
        }
        run.progress.done++;
        if (run.progress.done % PROGRESS_STEP === 0) void announce(workspaceId);
      }
    };
    await Promise.all(Array.from({ length: Math.min(DETAIL_CONCURRENCY, items.length) }, worker));
    return out.filter((a): a is SyncedAgentInput => a !== null);
  }

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
        const agents = await readAll(client, run, workspaceId);
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
