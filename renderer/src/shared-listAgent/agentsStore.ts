import { create } from 'zustand';
import type { AgentSummary } from '../../../shared/ipc/channels/agents.ts';
import { desk } from '../desk/desk.ts';

/**
 * The active workspace's agents (the local library) for the import settings' "Agent" select. The
 * choice belongs to one imported file: a new file starts with none.
 */
interface AgentsState {
  agents: AgentSummary[];
  /** The workspace the agents (or the error) are for; null before the first load. */
  loadedFor: string | null;
  loading: boolean;
  error: string | null;
  chosen: { file: File; agentId: string } | null;
  load(workspaceId: string | null): Promise<void>;
  choose(file: File, agentId: string): void;
}

export const useAgents = create<AgentsState>((set, get) => ({
  agents: [],
  loadedFor: null,
  loading: false,
  error: null,
  chosen: null,

  async load(workspaceId) {
    const key = workspaceId ?? '';
    // A cheap local read (the agent library in SQLite): read again each time so a sync shows up.
    if (get().loading) return;
    set({ loading: true, error: null });
    const result = await desk().agents.list();
    if (result.ok) set({ agents: result.value.agents, loadedFor: key, loading: false, error: null });
    else set({ agents: [], loadedFor: key, loading: false, error: result.error.message });
  },

  choose(file, agentId) {
    set({ chosen: { file, agentId } });
  },
}));
