import { create } from 'zustand';
import type { ConnectionTest } from '../../../../shared/ipc/channels/workspaces.ts';
import { useApp } from '../../app/appStore.ts';
import { desk } from '../../desk/desk.ts';

export type WorkspaceDialog =
  { kind: 'add' } | { kind: 'edit'; id: string } | { kind: 'remove'; id: string } | null;

export interface TestOutcome extends ConnectionTest {
  at: string;
}

/** View state of Settings → Workspaces: which dialog is open, which tests run, their latest outcomes. */
interface SettingsState {
  dialog: WorkspaceDialog;
  testing: Record<string, boolean>;
  /** Outcomes of tests run in this session (the saved lastTest covers earlier ones). */
  outcomes: Record<string, TestOutcome>;
  openDialog: (dialog: WorkspaceDialog) => void;
  closeDialog: () => void;
  testWorkspace: (id: string) => Promise<void>;
  forget: (id: string) => void;
}

export const useSettings = create<SettingsState>((set, get) => ({
  dialog: null,
  testing: {},
  outcomes: {},
  openDialog: (dialog) => set({ dialog }),
  closeDialog: () => set({ dialog: null }),
  testWorkspace: async (id) => {
    if (get().testing[id]) return;
    set({ testing: { ...get().testing, [id]: true } });
    const result = await desk().workspaces.test({ id });
    const at = new Date().toISOString();
    const outcome: TestOutcome = result.ok
      ? { ...result.value, at }
      : { ok: false, message: result.error.message, credits: null, workspaceName: null, at };
    set({ testing: { ...get().testing, [id]: false }, outcomes: { ...get().outcomes, [id]: outcome } });
    // The back end records the test; refresh so lastTest and the list agree.
    void useApp.getState().refreshWorkspaces();
  },
  forget: (id) => {
    const { [id]: _t, ...testing } = get().testing;
    const { [id]: _o, ...outcomes } = get().outcomes;
    set({ testing, outcomes });
  },
}));
