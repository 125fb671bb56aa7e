import { create } from 'zustand';
import type { ResponseOf } from '../../../shared/ipc/contract.ts';
import type { Workspace } from '../../../shared/ipc/channels/workspaces.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import { desk } from '../desk/desk.ts';
import { orderWorkspaces } from './workspaceOrder.ts';

export type AppInfo = ResponseOf<'app:info'>;
export type Connectivity = ResponseOf<'app:connectivity'>;

/**
 * App-wide state the shell needs: app info, the (small) list of workspaces and which one is active,
 * and connectivity. Feature data stays in the feature stores and, for big tables, in the back end.
 */
interface AppState {
  phase: 'loading' | 'ready' | 'error';
  error: string | null;
  info: AppInfo | null;
  workspaces: Workspace[];
  activeId: string | null;
  connectivity: Connectivity | null;
  /** navigator.onLine: whether this computer has a network at all. */
  browserOnline: boolean;
  load: () => Promise<void>;
  refreshWorkspaces: () => Promise<Result<unknown>>;
  refreshConnectivity: () => Promise<void>;
  setActive: (id: string) => Promise<Result<unknown>>;
  setConnectivity: (connectivity: Connectivity) => void;
  setBrowserOnline: (online: boolean) => void;
}

export const useApp = create<AppState>((set, get) => ({
  phase: 'loading',
  error: null,
  info: null,
  workspaces: [],
  activeId: null,
  connectivity: null,
  browserOnline: typeof navigator === 'undefined' ? true : navigator.onLine,

  load: async () => {
    if (get().phase !== 'ready') set({ phase: 'loading', error: null });
    const [info, list, connectivity] = await Promise.all([
      desk().app.info(),
      desk().workspaces.list(),
      desk().app.connectivity(),
    ]);
    if (!info.ok || !list.ok) {
      const error = !info.ok ? info.error : !list.ok ? list.error : null;
      set({ phase: 'error', error: error?.message ?? 'Campaign Desk could not load its data.' });
      return;
    }
    set({
      phase: 'ready',
      error: null,
      info: info.value,
      workspaces: orderWorkspaces(list.value.workspaces),
      activeId: list.value.activeId,
      connectivity: connectivity.ok ? connectivity.value : get().connectivity,
    });
  },

  refreshWorkspaces: async () => {
    const list = await desk().workspaces.list();
    if (list.ok) set({ workspaces: orderWorkspaces(list.value.workspaces), activeId: list.value.activeId });
    return list;
  },

  refreshConnectivity: async () => {
    const connectivity = await desk().app.connectivity();
    if (connectivity.ok) set({ connectivity: connectivity.value });
  },

  setActive: async (id) => {
    const previous = get().activeId;
    set({ activeId: id });
    const result = await desk().workspaces.setActive({ id });
    if (!result.ok) set({ activeId: previous });
    else void get().refreshConnectivity();
    return result;
  },

  setConnectivity: (connectivity) => set({ connectivity }),
  setBrowserOnline: (browserOnline) => set({ browserOnline }),
}));

export const selectActiveWorkspace = (state: AppState): Workspace | null =>
  state.workspaces.find((w) => w.id === state.activeId) ?? null;
