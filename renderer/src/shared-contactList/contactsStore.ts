import { create } from 'zustand';
import type {
  ContactFilter,
  ContactList,
  ImportChoices,
  VariableMapping,
} from '../../../shared/ipc/channels/contacts.ts';
import { toast } from '../components/toastStore.ts';
import { desk } from '../desk/desk.ts';
import { startImport } from './importController.ts';
import type { ImportHandle, ImportProgress } from './importController.ts';
import { loadPreferences, savePreferences } from './preferences.ts';

/**
 * The Contacts page: saved lists, the running import, the open list and the grid's filter.
 * Rows themselves never live here: the grid reads windows of them from the back end.
 */
interface ContactsState {
  lists: ContactList[];
  listsLoaded: boolean;
  listsError: string | null;
  /** The list on screen (its counts refresh after every change). */
  list: ContactList | null;
  /** The file behind an import of this session, to re-run it with other settings. */
  source: { file: File; choices: ImportChoices; listId: number | null } | null;
  importing: ImportProgress | null;
  filter: ContactFilter;
  /** Label and row count of a filter the list's counts do not hold (the agent lint's empty column). */
  filterExtra: FilterExtra | null;
  /** Bumped after every change to the open list: the grid refetches its window. */
  version: number;
  /** A row the grid should scroll to and highlight. */
  focusRow: { row: number; index: number } | null;
  /** Prompt variables the operator typed, and the default country (remembered on this computer). */
  variables: string[];
  country: string;

  loadLists(): Promise<void>;
  setVariables(variables: string[]): void;
  setCountry(country: string): void;
  /** Imports `file`; a list it `replaces` (an earlier import of it) is deleted once this one is stored. */
  importFile(file: File, choices?: Partial<ImportChoices>, replaces?: number | null): void;
  /** Import the same file again with changed settings (the list imported before is replaced). */
  reimport(change: Partial<ImportChoices>): void;
  cancelImport(): void;
  openList(listId: number): Promise<void>;
  closeList(): void;
  deleteList(listId: number): Promise<void>;
  /** `extra` names a filter outside the list's counts (`empty:<column>`) and how many rows it has. */
  setFilter(filter: ContactFilter, extra?: FilterExtra): void;
  /** A newer state of the open list from a change the operator made. */
  applyList(list: ContactList): void;
  jumpTo(row: number): Promise<void>;
}

export interface FilterExtra {
  filter: ContactFilter;
  label: string;
  total: number;
}

let handle: ImportHandle | null = null;
let activeImport: symbol | null = null;

const initialVariables = (variables: string[]): VariableMapping[] =>
  variables.map((variable) => ({ variable, column: '', optional: false }));

export const useContacts = create<ContactsState>((set, get) => {
  const prefs = loadPreferences();
  return {
    lists: [],
    listsLoaded: false,
    listsError: null,
    list: null,
    source: null,
    importing: null,
    filter: 'all',
    filterExtra: null,
    version: 0,
    focusRow: null,
    variables: prefs.variables,
    country: prefs.country,

    async loadLists() {
      const result = await desk().contacts.lists();
      if (result.ok) set({ lists: result.value.lists, listsLoaded: true, listsError: null });
      else set({ listsLoaded: true, listsError: result.error.message });
    },

    setVariables(variables) {
      set({ variables });
      savePreferences({ variables, country: get().country });
    },
    setCountry(country) {
      set({ country });
      savePreferences({ variables: get().variables, country });
    },

    importFile(file, overrides = {}, replaces = null) {
      handle?.cancel();
      const choices: ImportChoices = {
        country: get().country,
        variables: initialVariables(get().variables),
        ...overrides,
      };
      set({
        list: null,
        source: { file, choices, listId: replaces },
        importing: null,
        filter: 'all',
        focusRow: null,
      });
      // startImport reports its first state before it returns: match updates by a token.
      const token = Symbol('import');
      activeImport = token;
      const current = startImport(file, choices, (progress) => {
        if (activeImport === token) set({ importing: progress });
      });
      handle = current;
      void current.done.then((final) => {
        if (activeImport !== token) return;
        handle = null;
        if (final.phase === 'done' && final.list) {
          const list = final.list;
          if (replaces !== null) void desk().contacts.delete({ listId: replaces });
          set((s) => ({
            list,
            source: s.source
              ? { ...s.source, choices: { ...s.source.choices, variables: final.variables }, listId: list.id }
              : null,
            version: s.version + 1,
          }));
          void get().loadLists();
        }
      });
    },

    reimport(change) {
      const source = get().source;
      if (!source) return;
      get().importFile(source.file, { ...source.choices, ...change }, source.listId);
    },

    cancelImport() {
      handle?.cancel();
    },

    async openList(listId) {
      const result = await desk().contacts.get({ listId });
      if (!result.ok) {
        toast.error(result.error.message);
        return;
      }
      activeImport = null;
      handle?.cancel();
      handle = null;
      set((s) => ({
        list: result.value.list,
        importing: null,
        source: s.source?.listId === listId ? s.source : null,
        filter: 'all',
        focusRow: null,
        version: s.version + 1,
      }));
    },

    closeList() {
      activeImport = null;
      handle?.cancel();
      handle = null;
      set({ list: null, importing: null, focusRow: null });
      void get().loadLists();
    },

    async deleteList(listId) {
      const result = await desk().contacts.delete({ listId });
      if (!result.ok) {
        toast.error(result.error.message);
        return;
      }
      set((s) => ({
        lists: s.lists.filter((l) => l.id !== listId),
        list: s.list?.id === listId ? null : s.list,
        source: s.source?.listId === listId ? null : s.source,
      }));
      toast.success('Contact list deleted: Cancel on the progress bar brings it back for a few seconds');
    },

    setFilter(filter, extra) {
      set((s) => ({
        filter,
        filterExtra: extra ?? (s.filterExtra?.filter === filter ? s.filterExtra : null),
        focusRow: null,
        version: s.version + 1,
      }));
    },

    applyList(list) {
      set((s) => ({ list, version: s.version + 1 }));
    },

    async jumpTo(row) {
      const list = get().list;
      if (!list) return;
      const result = await desk().contacts.locate({ listId: list.id, filter: 'all', row });
      if (!result.ok || result.value.index === null) {
        toast.error(`Row ${row} is not in this list.`);
        return;
      }
      const index = result.value.index;
      set((s) => ({
        filter: 'all',
        focusRow: { row, index },
        version: s.filter === 'all' ? s.version : s.version + 1,
      }));
    },
  };
});
