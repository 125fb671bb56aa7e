// Keyset paging for filtered views: the grid asks for "rows offset..offset+limit of filter F";
// SQLite answers fastest from a known (offset → spreadsheet row) anchor, walking the filter's
// index only from there. Anchors are learned from the pages served and forgotten when the list
// changes (its revision moves on), since an edit can move rows in or out of a filter.
import type { ContactFilter } from '../../../shared/ipc/channels/contacts.ts';

interface Entry {
  revision: number;
  /** Sorted by offset: [offset, row]. */
  anchors: Array<[number, number]>;
}

const MAX_ANCHORS = 4096;
const MAX_ENTRIES = 32;

export function createAnchorCache() {
  const entries = new Map<string, Entry>();
  const entryFor = (listId: number, filter: ContactFilter, revision: number): Entry => {
    const key = `${listId}:${filter}`;
    let entry = entries.get(key);
    if (!entry || entry.revision !== revision) {
      if (!entry && entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entry = { revision, anchors: [] };
      entries.set(key, entry);
    }
    return entry;
  };

  return {
    /** Where to start for `offset`: the nearest anchor at or before it and how far to walk. */
    start(
      listId: number,
      filter: ContactFilter,
      revision: number,
      offset: number,
    ): { fromRow: number; skip: number } {
      const { anchors } = entryFor(listId, filter, revision);
      let lo = 0;
      let hi = anchors.length - 1;
      let best: [number, number] | null = null;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const anchor = anchors[mid] as [number, number];
        if (anchor[0] <= offset) {
          best = anchor;
          lo = mid + 1;
        } else hi = mid - 1;
      }
      return best ? { fromRow: best[1], skip: offset - best[0] } : { fromRow: 0, skip: offset };
    },
    /** A page served: `rows[i]` is at `offset + i` of the filter. */
    learn(
      listId: number,
      filter: ContactFilter,
      revision: number,
      offset: number,
      rows: readonly number[],
    ): void {
      if (rows.length === 0) return;
      const entry = entryFor(listId, filter, revision);
      const add = (at: number, row: number) => {
        const list = entry.anchors;
        let i = list.length;
        while (i > 0 && (list[i - 1] as [number, number])[0] > at) i--;
        if (i > 0 && (list[i - 1] as [number, number])[0] === at) return;
        list.splice(i, 0, [at, row]);
        if (list.length > MAX_ANCHORS) list.splice(Math.floor(Math.random() * list.length), 1);
      };
      add(offset, rows[0] as number);
      add(offset + rows.length - 1, rows[rows.length - 1] as number);
    },
    forget(listId: number): void {
      for (const key of [...entries.keys()]) if (key.startsWith(`${listId}:`)) entries.delete(key);
    },
  };
}
export type AnchorCache = ReturnType<typeof createAnchorCache>;
