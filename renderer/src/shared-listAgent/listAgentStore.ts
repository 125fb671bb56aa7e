import { create } from 'zustand';
import type {
  AgentDetail,
  AgentLint,
  AgentMapping,
  PromptPreview,
} from '../../../shared/ipc/channels/agents.ts';
import type { ContactFilter } from '../../../shared/ipc/channels/contacts.ts';
import { desk } from '../desk/desk.ts';

// Which agent (and version) an open contact list is prepared for: its variable → column mapping
// (saved per list and agent by the back end), the lint counted in SQLite, and the prompt preview of
// one row. The choice of agent per list is remembered on this computer.

const KEY = 'campaign-desk.contacts.list-agents';

type Choices = Record<string, { agentId: string; versionId: string | null }>;

function loadChoices(): Choices {
  try {
    const raw = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
    const value: unknown = raw ? JSON.parse(raw) : {};
    return value && typeof value === 'object' ? (value as Choices) : {};
  } catch {
    return {};
  }
}

function saveChoice(listId: number, choice: { agentId: string; versionId: string | null } | null): void {
  try {
    const all = loadChoices();
    if (choice) all[String(listId)] = choice;
    else delete all[String(listId)];
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage full or disabled: the choice lasts for this session.
  }
}

interface ListAgentState {
  listId: number | null;
  agentId: string | null;
  versionId: string | null;
  agent: AgentDetail | null;
  mapping: AgentMapping | null;
  lint: AgentLint | null;
  error: string | null;
  busy: boolean;
  /** Position in `previewFilter` of the row the preview shows. */
  pos: number;
  previewFilter: ContactFilter;
  preview: PromptPreview | null;
  previewError: string | null;
  extractFirstName: boolean;
  /** Said after a jump to the next row with a problem (or that there is none). */
  problemNote: string | null;

  /** `fallbackAgentId`: the agent chosen when importing this list, used when none was saved for it. */
  open(listId: number, fallbackAgentId?: string | null): Promise<void>;
  choose(agentId: string | null, versionId?: string | null): Promise<void>;
  setColumn(variable: string, column: string): Promise<void>;
  /** Marks a variable optional (its empty cells block nothing; sent as "-") or required again. */
  setOptional(variable: string, optional: boolean): Promise<void>;
  /** The list changed (edit, undo, exclusion): counts and the preview are read again. */
  refresh(): Promise<void>;
  showRow(pos: number, filter?: ContactFilter): Promise<void>;
  step(delta: number): Promise<void>;
  nextProblem(direction: 'next' | 'previous'): Promise<void>;
  setExtractFirstName(on: boolean): Promise<void>;
}

const request = (s: ListAgentState) =>
  s.listId !== null && s.agentId !== null
    ? { listId: s.listId, agentId: s.agentId, ...(s.versionId ? { versionId: s.versionId } : {}) }
    : null;

/** Nothing chosen for the list yet. */
const unchosen = {
  agentId: null,
  versionId: null,
  agent: null,
  mapping: null,
  lint: null,
  error: null,
  pos: 0,
  previewFilter: 'all',
  preview: null,
  previewError: null,
  problemNote: null,
} as const;

export const useListAgent = create<ListAgentState>((set, get) => ({
  ...unchosen,
  listId: null,
  busy: false,
  extractFirstName: false,

  async open(listId, fallbackAgentId = null) {
    if (get().listId === listId) return;
    const saved =
      loadChoices()[String(listId)] ??
      (fallbackAgentId ? { agentId: fallbackAgentId, versionId: null } : null);
    set({ ...unchosen, listId });
    if (saved) await get().choose(saved.agentId, saved.versionId);
  },

  async choose(agentId, versionId = null) {
    const listId = get().listId;
    if (listId === null) return;
    saveChoice(listId, agentId ? { agentId, versionId } : null);
    set({ agentId, versionId, mapping: null, lint: null, preview: null, error: null, problemNote: null });
    if (!agentId) {
      set({ agent: null });
      return;
    }
    set({ busy: true });
    const [agent, mapping] = await Promise.all([
      desk().agents.get({ agentId }),
      desk().agents.mapping({ listId, agentId, ...(versionId ? { versionId } : {}) }),
    ]);
    if (get().agentId !== agentId || get().listId !== listId) return;
    set({ busy: false });
    if (!agent.ok || !mapping.ok) {
      const error = !agent.ok ? agent.error : !mapping.ok ? mapping.error : null;
      set({ agent: agent.ok ? agent.value.agent : null, error: error?.message ?? null });
      return;
    }
    set({ agent: agent.value.agent, mapping: mapping.value, versionId: mapping.value.versionId });
    await get().refresh();
  },

  async setColumn(variable, column) {
    const s = get();
    const req = request(s);
    if (!req || !s.mapping) return;
    const mapping = s.mapping.mapping
      .filter((m) => m.source !== 'phone')
      .map((m) => ({ variable: m.variable, column: m.variable === variable ? column : m.column }));
    set({ busy: true });
    const result = await desk().agents.setMapping({ ...req, mapping });
    set({ busy: false });
    if (!result.ok) {
      set({ error: result.error.message });
      return;
    }
    set({ mapping: result.value, error: null });
    await get().refresh();
  },

  async setOptional(variable, optional) {
    const s = get();
    const req = request(s);
    const current = s.mapping?.mapping.find((m) => m.variable === variable);
    if (!req || !current || current.source === 'phone') return;
    set({ busy: true });
    // Only this variable's entry: the others keep how they were mapped (auto stays auto).
    const entry = { variable, column: current.column, optional };
    const result = await desk().agents.setMapping({ ...req, mapping: [entry] });
    set({ busy: false });
    if (!result.ok) {
      set({ error: result.error.message });
      return;
    }
    set({ mapping: result.value, error: null });
    await get().refresh();
  },

  async refresh() {
    const req = request(get());
    if (!req) return;
    const lint = await desk().agents.lint(req);
    if (request(get())?.agentId !== req.agentId) return;
    if (lint.ok) set({ lint: lint.value, error: null });
    else set({ error: lint.error.message });
    await get().showRow(get().pos);
  },

  async showRow(pos, filter = get().previewFilter) {
    const s = get();
    const req = request(s);
    if (!req) return;
    set({ pos: Math.max(0, pos), previewFilter: filter });
    const result = await desk().agents.preview({
      ...req,
      filter,
      pos: Math.max(0, pos),
      ...(s.extractFirstName ? { extractFirstName: true } : {}),
    });
    if (get().pos !== Math.max(0, pos) || get().previewFilter !== filter) return;
    if (result.ok) set({ preview: result.value, previewError: null });
    else set({ preview: null, previewError: result.error.message });
  },

  async step(delta) {
    const { pos, preview } = get();
    const total = preview?.total ?? 0;
    const next = Math.min(Math.max(0, pos + delta), Math.max(0, total - 1));
    set({ problemNote: null });
    if (next !== pos) await get().showRow(next);
  },

  async nextProblem(direction) {
    const s = get();
    const req = request(s);
    if (!req) return;
    const result = await desk().agents.nextProblemRow({
      ...req,
      filter: s.previewFilter,
      fromPos: s.preview ? s.pos : -1,
      direction,
    });
    if (!result.ok) {
      set({ problemNote: result.error.message });
      return;
    }
    if (result.value.pos === null) {
      set({
        problemNote:
          direction === 'next' ? 'No later row has a missing value.' : 'No earlier row has a missing value.',
      });
      return;
    }
    set({
      problemNote: `Row ${result.value.row ?? ''}: ${result.value.missing.join(', ') || 'a value'} missing.`,
    });
    await get().showRow(result.value.pos);
  },

  async setExtractFirstName(on) {
    set({ extractFirstName: on });
    await get().showRow(get().pos);
  },
}));
