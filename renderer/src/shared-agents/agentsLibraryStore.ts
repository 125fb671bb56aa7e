import { create } from 'zustand';
import type { AgentDetail, AgentSummary, AgentSyncState } from '../../../shared/ipc/channels/agents.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import { desk } from '../desk/desk.ts';

/**
 * The Agents section: the active workspace's local library (read from SQLite by the back end, so it
 * works offline), its sync state, the search text and the agent on screen. A sync (Refresh, start,
 * reconnect) announces itself with `agents:sync-changed`; the list is read again then.
 */
interface AgentsLibraryState {
  agents: AgentSummary[];
  sync: AgentSyncState | null;
  loaded: boolean;
  /** The library could not be read at all (not a sync failure: those keep the cache). */
  error: string | null;
  search: string;
  selectedId: string | null;
  detail: AgentDetail | null;
  detailError: string | null;
  refreshing: boolean;
  /** Set when the local time of `sync.ageSeconds` was read, to age it on screen. */
  syncReadAt: number;

  load(): Promise<void>;
  setSearch(search: string): void;
  refresh(): Promise<Result<unknown>>;
  select(agentId: string | null): Promise<void>;
  /** A newer detail from an action (draft saved, subscriptions saved). */
  applyDetail(detail: AgentDetail): void;
  setSync(sync: AgentSyncState): void;
}

let loadSeq = 0;

export const useAgentsLibrary = create<AgentsLibraryState>((set, get) => ({
  agents: [],
  sync: null,
  loaded: false,
  error: null,
  search: '',
  selectedId: null,
  detail: null,
  detailError: null,
  refreshing: false,
  syncReadAt: Date.now(),

  async load() {
    const seq = ++loadSeq;
    const search = get().search.trim();
    const result = await desk().agents.list(search ? { search } : {});
    if (seq !== loadSeq) return;
    if (!result.ok) {
      set({ loaded: true, error: result.error.message });
      return;
    }
    // Another workspace has other agents: its library starts without one on screen.
    const previous = get().sync;
    if (previous && previous.workspaceId !== result.value.sync.workspaceId)
      set({ selectedId: null, detail: null, detailError: null });
    set({
      agents: result.value.agents,
      sync: result.value.sync,
      syncReadAt: Date.now(),
      loaded: true,
      error: null,
    });
    const selected = get().selectedId;
    if (selected && get().detail?.id === selected) void get().select(selected);
  },

  setSearch(search) {
    set({ search });
    void get().load();
  },

  async refresh() {
    set({ refreshing: true });
    const result = await desk().agents.sync();
    set({ refreshing: false });
    if (result.ok) set({ sync: result.value.sync, syncReadAt: Date.now() });
    await get().load();
    return result;
  },

  async select(agentId) {
    set({ selectedId: agentId, detailError: null, ...(agentId === null ? { detail: null } : {}) });
    if (agentId === null) return;
    const result = await desk().agents.get({ agentId });
    if (get().selectedId !== agentId) return;
    if (result.ok) set({ detail: result.value.agent, detailError: null });
    else set({ detail: null, detailError: result.error.message });
  },

  applyDetail(detail) {
    set((s) => ({
      detail: s.selectedId === detail.id ? detail : s.detail,
      agents: s.agents.some((a) => a.id === detail.id)
        ? s.agents.map((a) => (a.id === detail.id ? pickSummary(detail, a) : a))
        : s.agents,
    }));
  },

  setSync(sync) {
    set({ sync, syncReadAt: Date.now() });
  },
}));

/** The summary fields of a detail (the detail extends the summary). */
function pickSummary(detail: AgentDetail, previous: AgentSummary): AgentSummary {
  const next: AgentSummary = { ...previous };
  for (const key of Object.keys(previous) as Array<keyof AgentSummary>) {
    (next as Record<string, unknown>)[key] = detail[key];
  }
  return next;
}
