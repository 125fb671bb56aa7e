// The contacts grid's window onto a list (keyset-paged by the back end): the shared WindowCache
// bound to one list and filter, remembering the filter's row count as the back end last gave it.
import type { ContactFilter, ContactRow } from '../../../../shared/ipc/channels/contacts.ts';
import type { Result } from '../../../../shared/ipc/result.ts';
import { WindowCache } from '../../components/windowCache.ts';

export { PAGE_ROWS } from '../../components/windowCache.ts';

export type FetchRows = (request: {
  listId: number;
  filter: ContactFilter;
  offset: number;
  limit: number;
}) => Promise<Result<{ total: number; offset: number; rows: ContactRow[] }>>;

export class RowCache extends WindowCache<ContactRow> {
  readonly listId: number;
  readonly filter: ContactFilter;
  readonly #counted: { total: number | null };

  constructor(listId: number, filter: ContactFilter, fetch: FetchRows) {
    // The fetch is bound before `this` exists, so it records the count in a box the cache keeps.
    const counted: { total: number | null } = { total: null };
    super(
      async (offset, limit) => {
        const result = await fetch({ listId, filter, offset, limit });
        if (result.ok) counted.total = result.value.total;
        return result;
      },
      (r) => r.row,
    );
    this.#counted = counted;
    this.listId = listId;
    this.filter = filter;
  }

  /** Rows in the filter as the back end last counted them (null before the first page). */
  get total(): number | null {
    return this.#counted.total;
  }
}
