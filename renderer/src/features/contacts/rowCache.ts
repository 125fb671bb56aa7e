// The contacts grid's window onto a list (keyset-paged by the back end): the shared WindowCache
// bound to one list and filter.
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

  constructor(listId: number, filter: ContactFilter, fetch: FetchRows) {
    super(
      (offset, limit) => fetch({ listId, filter, offset, limit }),
      (r) => r.row,
    );
    this.listId = listId;
    this.filter = filter;
  }
}
