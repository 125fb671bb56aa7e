import { create } from 'zustand';
import type {
  CallCampaign,
  CallFilter,
  CallSort,
  SyncStatus,
} from '../../../../shared/ipc/channels/calls.ts';
import type { ResponseOf } from '../../../../shared/ipc/contract.ts';
import { toast } from '../../components/toastStore.ts';
import { desk } from '../../desk/desk.ts';

export type CallsTab = 'calls' | 'results' | 'charts' | 'review';
export type Facets = ResponseOf<'calls:facets'>;

/**
 * The Calls page's view state: tab, filters, sort, the open call, the sync's progress and the
 * small lists the menus need. Calls themselves stay in SQLite; tables read windows of them.
 */
interface CallsState {
  tab: CallsTab;
  filter: CallFilter;
  sort: CallSort;
  /** Bumped when stored calls change (a sync stored pages): open views refetch. */
  version: number;
  openCallId: string | null;
  sync: SyncStatus | null;
  campaigns: CallCampaign[];
  facets: Facets | null;
  /** The campaign shown on the Results tab. */
  resultsCampaign: string | null;

  setTab(tab: CallsTab): void;
  setFilter(patch: Partial<CallFilter>): void;
  clearFilters(): void;
  setSort(sort: CallSort): void;
  openCall(callId: string | null): void;
  setResultsCampaign(bulkListId: string | null): void;
  loadSync(): Promise<void>;
  startSync(): Promise<void>;
  cancelSync(): Promise<void>;
  applySync(status: SyncStatus): void;
  loadMenus(): Promise<void>;
  changed(): void;
}

/** Absent and empty values mean "any": drop them so the request carries only real filters. */
function compact(filter: CallFilter): CallFilter {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = value;
  }
  return out as CallFilter;
}

export const useCalls = create<CallsState>((set, get) => ({
  tab: 'calls',
  filter: {},
  sort: { by: 'created_at', dir: 'desc' },
  version: 0,
  openCallId: null,
  sync: null,
  campaigns: [],
  facets: null,
  resultsCampaign: null,

  setTab: (tab) => set({ tab, openCallId: null }),
  setFilter: (patch) => set({ filter: compact({ ...get().filter, ...patch }) }),
  clearFilters: () => set({ filter: {} }),
  setSort: (sort) => set({ sort }),
  openCall: (openCallId) => set({ openCallId }),
  setResultsCampaign: (resultsCampaign) => set({ resultsCampaign }),

  async loadSync() {
    const result = await desk().calls.syncStatus({});
    if (result.ok) set({ sync: result.value });
  },

  async startSync() {
    const result = await desk().calls.sync({});
    if (!result.ok) {
      toast.error(result.error.message);
      return;
    }
    set({ sync: result.value.status });
    if (!result.value.started) toast.info('A sync of this workspace is already running.');
  },

  async cancelSync() {
    const result = await desk().calls.syncCancel({});
    if (!result.ok) toast.error(result.error.message);
    else set({ sync: result.value.status });
  },

  applySync(status) {
    const before = get().sync;
    set({ sync: status });
    // A pass that ends (or stored new calls) changes the menus too.
    if (before?.state === 'running' && status.state !== 'running') {
      void get().loadMenus();
      get().changed();
    }
  },

  async loadMenus() {
    const [facets, campaigns] = await Promise.all([desk().calls.facets({}), desk().calls.campaigns({})]);
    if (facets.ok) set({ facets: facets.value });
    if (campaigns.ok) {
      const list = campaigns.value.campaigns;
      const current = get().resultsCampaign;
      const launched = list.filter((c) => c.listId !== null);
      set({
        campaigns: list,
        resultsCampaign:
          current && list.some((c) => c.bulkListId === current) ? current : (launched[0]?.bulkListId ?? null),
      });
    }
  },

  changed: () => set({ version: get().version + 1 }),
}));
