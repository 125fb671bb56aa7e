import { create } from 'zustand';
import type {
  CampaignDraft,
  CampaignPlan,
  CampaignSettings,
  FieldError,
  LaunchSummary,
  LaunchView,
  Overlaps,
  TimelineEntry,
} from '../../../../shared/ipc/channels/campaigns.ts';
import type { campaignsListSchema, numbersAnswerSchema } from '../../../../shared/ipc/channels/campaigns.ts';
import type { z } from 'zod';
import { desk } from '../../desk/desk.ts';
import { defaultSettings, schemaProblems, withStaleAcknowledgement } from './settingsForm.ts';
import { planBlockers } from './blockers.ts';

// The Campaigns section: the builder's settings (a local draft, saved as it is edited), its
// field-named problems and plan, the launch queue, the campaigns list and one campaign's timeline.
// The back end owns every request to the service; this store only reads its answers.

export type CampaignsList = z.infer<typeof campaignsListSchema>;
export type NumbersAnswer = z.infer<typeof numbersAnswerSchema>;

interface CampaignsState {
  view: 'list' | 'builder';
  drafts: CampaignDraft[];
  draftId: string | null;
  settings: CampaignSettings;
  /** Problems from the last check (nothing is sent while there are any). */
  errors: FieldError[];
  checked: boolean;
  plan: CampaignPlan | null;
  planError: string | null;
  numbers: NumbersAnswer | null;
  numbersError: string | null;
  list: CampaignsList | null;
  listError: string | null;
  queue: LaunchView[];
  autoSend: boolean;
  /** The launch whose timeline is open. */
  timeline: { launch: LaunchView; entries: TimelineEntry[] } | null;
  timelineError: string | null;
  /** The launch started from the builder, followed step by step. */
  launching: LaunchView | null;
  launchError: string | null;
  busy: boolean;
  /**
   * The builder shows a launched campaign: its settings read-only, never an enabled Launch (a
   * refused one may be corrected and sent again, so it is not read-only).
   */
  readOnly: boolean;
  /** The opened campaign kept no builder settings (a CLI launch, or one from an older version). */
  settingsMissing: boolean;
  /** The opened campaign's timeline (read-only view). */
  entries: TimelineEntry[];
  /** Contacts of the draft's list in campaigns running or run in the last 7 days. */
  overlaps: Overlaps | null;
  /** The confirmation before calls go out: open while set. */
  confirmation: LaunchSummary | null;

  load(): Promise<void>;
  newCampaign(): void;
  openDraft(id: string): void;
  deleteDraft(id: string): Promise<void>;
  closeBuilder(): void;
  update(patch: Partial<CampaignSettings>): void;
  saveDraft(): Promise<void>;
  /** Field-named check; true when launchable. */
  validate(): Promise<boolean>;
  loadPlan(): Promise<void>;
  loadNumbers(refresh?: boolean): Promise<void>;
  /** Checks the settings and opens the confirmation with its figures (nothing is sent). */
  launch(): Promise<void>;
  /** The operator confirmed: the launch goes out (or waits in the queue when offline). */
  startConfirmed(): Promise<void>;
  cancelConfirmation(): void;
  /** Opens a launched campaign in the builder, read-only (a refused one can be corrected). */
  openCampaign(launchId: string): Promise<void>;
  /** "Duplicate as new campaign": a new draft with its settings, its overlaps shown. */
  duplicate(launchId: string): Promise<void>;
  loadOverlaps(): Promise<void>;
  loadList(refresh?: boolean): Promise<void>;
  loadQueue(): Promise<void>;
  confirm(id: string): Promise<void>;
  discard(id: string): Promise<void>;
  resolve(id: string, decision: 'retry' | 'mark-started'): Promise<void>;
  setAutoSend(on: boolean): Promise<void>;
  openTimeline(id: string): Promise<void>;
  closeTimeline(): void;
  /** A launch moved (the back end's event). */
  progress(launch: LaunchView): void;
}

/** A setting the contract's schema refused (`settings.concurrency: Too big…`), named like the form's fields. */
function schemaProblem(error: { field?: string | undefined; message: string }): FieldError {
  const field = (error.field ?? 'settings').replace(/^settings\./, '');
  return { field, message: error.message.replace(/^settings\.[\w.]+: /, '') };
}

let saveTimer: ReturnType<typeof setTimeout> | null = null;

/** Launched (and not refused): its settings are the campaign's, not editable. */
const isLocked = (s: { readOnly: boolean; launching: LaunchView | null }): boolean =>
  s.readOnly || (s.launching !== null && s.launching.state !== 'failed');

/**
 * The builder opened on a campaign's settings: nothing checked, planned or confirmed yet. The
 * callers (new, a draft, a launched campaign, a duplicate) pass what differs.
 */
function builderState(
  draftId: string | null,
  settings: CampaignSettings,
  more: Partial<
    Pick<CampaignsState, 'launching' | 'readOnly' | 'settingsMissing' | 'entries' | 'overlaps'>
  > = {},
): Partial<CampaignsState> {
  return {
    view: 'builder',
    draftId,
    settings,
    errors: [],
    checked: false,
    plan: null,
    planError: null,
    launching: null,
    launchError: null,
    readOnly: false,
    settingsMissing: false,
    entries: [],
    overlaps: null,
    confirmation: null,
    ...more,
  };
}

export const useCampaigns = create<CampaignsState>((set, get) => ({
  view: 'list',
  drafts: [],
  draftId: null,
  settings: defaultSettings(),
  errors: [],
  checked: false,
  plan: null,
  planError: null,
  numbers: null,
  numbersError: null,
  list: null,
  listError: null,
  queue: [],
  autoSend: false,
  timeline: null,
  timelineError: null,
  launching: null,
  launchError: null,
  busy: false,
  readOnly: false,
  settingsMissing: false,
  entries: [],
  overlaps: null,
  confirmation: null,

  async load() {
    const drafts = await desk().campaigns.drafts({});
    if (drafts.ok) set({ drafts: drafts.value.drafts });
    await Promise.all([get().loadList(), get().loadQueue()]);
  },

  newCampaign() {
    set(builderState(null, defaultSettings()));
    void get().loadOverlaps();
  },

  openDraft(id) {
    const draft = get().drafts.find((d) => d.id === id);
    if (!draft) return;
    set(builderState(draft.id, draft.settings));
    void get().loadOverlaps();
  },

  async deleteDraft(id) {
    const result = await desk().campaigns.deleteDraft({ id });
    if (result.ok) set({ drafts: get().drafts.filter((d) => d.id !== id) });
  },

  closeBuilder() {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = null;
    void get()
      .saveDraft()
      .then(() => get().load());
    set({ view: 'list' });
  },

  update(patch) {
    // A launched campaign's settings do not change (the back end refuses to save them too).
    if (isLocked(get())) return;
    const current = get().settings;
    // Ticking an acknowledgement keeps the plan on screen (nothing it shows changes).
    const onlyAcks = Object.keys(patch).every((k) => k === 'acceptShortfall' || k === 'hoursAcknowledged');
    set({
      settings: { ...current, ...withStaleAcknowledgement(current, patch) },
      checked: onlyAcks ? get().checked : false,
    });
    if ('listId' in patch) void get().loadOverlaps();
    // Saved a moment after the last edit, so a restart keeps the draft.
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = setTimeout(() => {
      saveTimer = null;
      void get().saveDraft();
    }, 400);
  },

  async saveDraft() {
    if (isLocked(get())) return;
    const { draftId, settings } = get();
    const result = await desk().campaigns.saveDraft({ ...(draftId ? { id: draftId } : {}), settings });
    if (!result.ok) return;
    const saved = result.value;
    set({
      draftId: saved.id,
      drafts: [saved, ...get().drafts.filter((d) => d.id !== saved.id)],
    });
  },

  async validate() {
    // Values the contract refuses are named here; the rest goes to the back end's checks with those
    // values replaced, so every problem shows at once (not one kind per click).
    const local = schemaProblems(get().settings);
    const result = await desk().campaigns.validate({
      settings: local.checkable,
      locale: navigator.language,
    });
    const remote = result.ok ? result.value.errors : [schemaProblem(result.error)];
    const errors = [...local.errors, ...remote.filter((e) => !local.errors.some((l) => l.field === e.field))];
    set({ errors, checked: true });
    return errors.length === 0;
  },

  async loadPlan() {
    const result = await desk().campaigns.plan({ settings: schemaProblems(get().settings).checkable });
    if (result.ok) set({ plan: result.value, planError: null });
    else set({ plan: null, planError: result.error.message });
  },

  async loadNumbers(refresh = false) {
    const result = await desk().campaigns.numbers(refresh ? { refresh: true } : {});
    if (result.ok) set({ numbers: result.value, numbersError: null });
    else set({ numbersError: result.error.message });
  },

  async launch() {
    set({ busy: true, launchError: null });
    try {
      if (!(await get().validate())) return;
      // The plan again (credits now): a launch it refuses disables Launch with the reason instead.
      await get().loadPlan();
      if (planBlockers(get().plan, get().settings.acceptShortfall).length > 0) return;
      const { settings, draftId } = get();
      const result = await desk().campaigns.launchSummary({ settings, ...(draftId ? { draftId } : {}) });
      if (!result.ok) {
        set({
          launchError: result.error.message,
          ...(result.error.field && result.error.field !== 'draftId'
            ? { errors: [schemaProblem(result.error)], checked: true }
            : {}),
        });
        return;
      }
      set({ confirmation: result.value });
    } finally {
      set({ busy: false });
    }
  },

  cancelConfirmation() {
    set({ confirmation: null });
  },

  async startConfirmed() {
    set({ busy: true, launchError: null });
    try {
      const { settings, draftId } = get();
      const result = await desk().campaigns.launch({ settings, ...(draftId ? { draftId } : {}) });
      set({ confirmation: null });
      if (!result.ok) {
        set({
          launchError: result.error.message,
          ...(result.error.field && result.error.field !== 'draftId'
            ? { errors: [schemaProblem(result.error)], checked: true }
            : {}),
        });
        return;
      }
      set({ launching: result.value, draftId: result.value.draftId ?? draftId });
      await Promise.all([get().loadQueue(), get().loadList()]);
    } finally {
      set({ busy: false });
    }
  },

  async openCampaign(launchId) {
    const result = await desk().campaigns.open({ id: launchId });
    if (!result.ok) {
      set({ timelineError: result.error.message });
      return;
    }
    const { launch, entries, settings } = result.value;
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = null;
    set(
      builderState(launch.draftId, settings ?? defaultSettings(), {
        launching: launch,
        readOnly: launch.state !== 'failed' || settings === null,
        settingsMissing: settings === null,
        entries,
      }),
    );
  },

  async duplicate(launchId) {
    const result = await desk().campaigns.duplicate({ id: launchId });
    if (!result.ok) {
      set({ launchError: result.error.message, timelineError: result.error.message });
      return;
    }
    const { draft, overlaps } = result.value;
    set({ ...builderState(draft.id, draft.settings, { overlaps }), drafts: [draft, ...get().drafts] });
  },

  async loadOverlaps() {
    const { settings, draftId } = get();
    if (settings.listId === null) {
      set({ overlaps: null });
      return;
    }
    const listId = settings.listId;
    const result = await desk().campaigns.overlaps({ listId, ...(draftId ? { draftId } : {}) });
    // Only if the list is still the one asked about.
    if (result.ok && get().settings.listId === listId) set({ overlaps: result.value });
  },

  async loadList(refresh = false) {
    const result = await desk().campaigns.list(refresh ? { refresh: true } : {});
    if (result.ok) set({ list: result.value, listError: null });
    else set({ listError: result.error.message });
  },

  async loadQueue() {
    const result = await desk().campaigns.queue({});
    if (result.ok) set({ queue: result.value.launches, autoSend: result.value.autoSend });
  },

  async confirm(id) {
    const result = await desk().campaigns.confirmLaunch({ id });
    if (!result.ok) set({ listError: result.error.message });
    else if (get().launching?.id === id) set({ launching: result.value });
    await Promise.all([get().loadQueue(), get().loadList()]);
  },

  async discard(id) {
    await desk().campaigns.discardLaunch({ id });
    await Promise.all([get().loadQueue(), get().loadList()]);
  },

  async resolve(id, decision) {
    const result = await desk().campaigns.resolveLaunch({ id, decision });
    if (!result.ok) set({ listError: result.error.message });
    else if (get().launching?.id === id) set({ launching: result.value });
    await Promise.all([get().loadQueue(), get().loadList()]);
  },

  async setAutoSend(on) {
    const result = await desk().campaigns.setAutoSend({ autoSend: on });
    if (result.ok) set({ autoSend: result.value.autoSend });
  },

  async openTimeline(id) {
    const result = await desk().campaigns.timeline({ id });
    if (result.ok) set({ timeline: result.value, timelineError: null });
    else set({ timelineError: result.error.message });
  },

  closeTimeline() {
    set({ timeline: null, timelineError: null });
  },

  progress(launch) {
    const s = get();
    if (s.launching?.id === launch.id) {
      set({ launching: launch });
      if (s.readOnly)
        void desk()
          .campaigns.timeline({ id: launch.id })
          .then((r) => {
            if (r.ok && get().launching?.id === launch.id) set({ entries: r.value.entries });
          });
    }
    if (s.timeline?.launch.id === launch.id) void get().openTimeline(launch.id);
    void get().loadQueue();
    void get().loadList();
  },
}));
