// A big table's window onto rows that live in the back end: pages of rows fetched as they scroll
// into view (never the whole table), kept while near the view, refetched when the data changes.
// Rows from before a change stay on screen until their page comes back, so edits do not flicker.
import type { Result } from '../../../shared/ipc/result.ts';

export const PAGE_ROWS = 100;
const MAX_PAGES = 40;

/** Reads `limit` rows from `offset` of the table (with whatever query the owner bound in). */
export type FetchWindow<Row> = (offset: number, limit: number) => Promise<Result<{ rows: Row[] }>>;

interface Page<Row> {
  rows: Row[];
  version: number;
}

export class WindowCache<Row> {
  readonly #fetch: FetchWindow<Row>;
  readonly #keyOf: (row: Row) => string | number;
  readonly #pages = new Map<number, Page<Row>>();
  readonly #inflight = new Map<number, number>();
  readonly #listeners = new Set<() => void>();
  #version = 0;
  #focus = 0;
  error: string | null = null;

  /** `keyOf` identifies a row for patch(). */
  constructor(fetch: FetchWindow<Row>, keyOf: (row: Row) => string | number) {
    this.#fetch = fetch;
    this.#keyOf = keyOf;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #notify(): void {
    for (const l of this.#listeners) l();
  }

  /** The data changed: every page is stale (still shown until refetched). */
  setVersion(version: number): void {
    this.#version = version;
  }

  get(index: number): Row | undefined {
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
      void this.#fetch(p * PAGE_ROWS, PAGE_ROWS).then((result) => {
        if (this.#inflight.get(p) === version) this.#inflight.delete(p);
        if (!result.ok) {
          this.error = result.error.message;
          this.#notify();
          return;
        }
        const current = this.#pages.get(p);
        if (current && current.version > version) return;
        this.error = null;
        this.#pages.set(p, { rows: result.value.rows, version });
        this.#evict();
        this.#notify();
      });
    }
  }

  /** Rows the back end just changed: shown at once where they are on screen. */
  patch(rows: readonly Row[]): void {
    const byKey = new Map(rows.map((r) => [this.#keyOf(r), r]));
    let changed = false;
    for (const page of this.#pages.values()) {
      page.rows = page.rows.map((r) => {
        const next = byKey.get(this.#keyOf(r));
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
