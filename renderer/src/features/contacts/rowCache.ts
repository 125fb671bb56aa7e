// The grid's window onto a list: pages of rows fetched from the back end as they scroll into view
// (never the whole list), kept while near the view, refetched when the list changes. Rows from
// before a change stay on screen until their page comes back, so edits do not flicker.
import type { ContactFilter, ContactRow } from '../../../../shared/ipc/channels/contacts.ts';
import type { Result } from '../../../../shared/ipc/result.ts';

export const PAGE_ROWS = 100;
const MAX_PAGES = 40;

export type FetchRows = (request: {
  listId: number;
  filter: ContactFilter;
  offset: number;
  limit: number;
}) => Promise<Result<{ total: number; offset: number; rows: ContactRow[] }>>;

interface Page {
  rows: ContactRow[];
  version: number;
}

export class RowCache {
  readonly listId: number;
  readonly filter: ContactFilter;
  readonly #fetch: FetchRows;
  readonly #pages = new Map<number, Page>();
  readonly #inflight = new Map<number, number>();
  readonly #listeners = new Set<() => void>();
  #version = 0;
  #focus = 0;
  error: string | null = null;
  /** Rows in the filter as the back end last counted them (null before the first page). */
  total: number | null = null;

  constructor(listId: number, filter: ContactFilter, fetch: FetchRows) {
    this.listId = listId;
    this.filter = filter;
    this.#fetch = fetch;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #notify(): void {
    for (const l of this.#listeners) l();
  }

  /** The list changed: every page is stale (still shown until refetched). */
  setVersion(version: number): void {
    this.#version = version;
  }

  get(index: number): ContactRow | undefined {
    return this.#pages.get(Math.floor(index / PAGE_ROWS))?.rows[index % PAGE_ROWS];
  }

  /** Fetches the pages covering [start, end] that are missing or stale. */
  ensure(start: number, end: number): void {
    if (end < start) return;
    const first = Math.floor(Math.max(0, start) / PAGE_ROWS);
    const last = Math.floor(end / PAGE_ROWS);
    this.#focus = first;
    for (let p = first; p <= last; p++) {
      const page = this.#pages.get(p);
      if (page && page.version >= this.#version) continue;
      if (this.#inflight.get(p) === this.#version) continue;
      const version = this.#version;
      this.#inflight.set(p, version);
      void this.#fetch({
        listId: this.listId,
        filter: this.filter,
        offset: p * PAGE_ROWS,
        limit: PAGE_ROWS,
      }).then((result) => {
        if (this.#inflight.get(p) === version) this.#inflight.delete(p);
        if (!result.ok) {
          this.error = result.error.message;
          this.#notify();
          return;
        }
        const current = this.#pages.get(p);
        if (current && current.version > version) return;
        this.error = null;
        this.total = result.value.total;
        this.#pages.set(p, { rows: result.value.rows, version });
        this.#evict();
        this.#notify();
      });
    }
  }

  /** Rows the back end just changed: shown at once where they are on screen. */
  patch(rows: readonly ContactRow[]): void {
    const byRow = new Map(rows.map((r) => [r.row, r]));
    let changed = false;
    for (const page of this.#pages.values()) {
      page.rows = page.rows.map((r) => {
        const next = byRow.get(r.row);
        if (next) changed = true;
        return next ?? r;
      });
    }
    if (changed) this.#notify();
  }

  #evict(): void {
    if (this.#pages.size <= MAX_PAGES) return;
    const far = [...this.#pages.keys()].sort((a, b) => Math.abs(b - this.#focus) - Math.abs(a - this.#focus));
    for (const p of far.slice(0, this.#pages.size - MAX_PAGES)) this.#pages.delete(p);
  }
}
