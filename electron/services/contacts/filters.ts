// The grid's filters in SQL: each a WHERE clause and the partial index whose range, in row order,
// is the filter (so a page of a filter walks that index, not the list).
import type { ContactFilter, EmptyColumnFilter } from '../../../shared/ipc/channels/contacts.ts';
import { emptyFilterColumns } from '../../../shared/ipc/channels/contacts.ts';
import { ISSUE_BITS } from '../db/migrations/0130-contacts-formula-bidi-codes.ts';
import { suppressedSql } from '../suppression/suppressedSql.ts';
import { blankCellSql } from './blankCell.ts';

export interface FilterSql {
  /** The index whose range in row order is the filter ('' = the table's own order). */
  index: string;
  where: string;
}

/** `INDEXED BY` the filter's index, or nothing for the table's own row order. */
export const indexed = (f: Pick<FilterSql, 'index'>): string => (f.index ? `INDEXED BY ${f.index}` : '');

/** Rows the upload carries (valid, not excluded): what the agent lint counts. */
export const UPLOAD_ROWS_SQL = 'bucket = 0 AND excluded = 0';

/** SQL for "any of these cells is blank" (the empty-variable filter and bulk exclusion). */
export const anyBlankSql = (columns: readonly number[]): string =>
  `(${columns.map((c) => blankCellSql(c)).join(' OR ')})`;

export function filterSql(filter: Exclude<ContactFilter, 'all'>): FilterSql {
  // Valid rows are most of a list: their scan is the table's own, in row order.
  if (filter === 'bucket:valid') return { index: '', where: 'bucket = 0' };
  if (filter.startsWith('empty:')) {
    const columns = emptyFilterColumns(filter as EmptyColumnFilter);
    return { index: '', where: `${UPLOAD_ROWS_SQL} AND ${anyBlankSql(columns)}` };
  }
  // Suppression is not stored on the row: the do-not-call list of the active workspace decides it
  // at read time, so a change to that list shows in every open list at once.
  if (filter === 'suppressed') return { index: '', where: `${UPLOAD_ROWS_SQL} AND ${suppressedSql(null)}` };
  if (filter === 'bucket:invalid') return { index: 'contacts_invalid', where: 'bucket = 1' };
  if (filter === 'bucket:duplicate') return { index: 'contacts_duplicate', where: 'bucket = 2' };
  if (filter.startsWith('issue:')) {
    const code = filter.slice(6) as keyof typeof ISSUE_BITS;
    return { index: `contacts_issue_${code}`, where: `issues & ${ISSUE_BITS[code]} != 0` };
  }
  return filter === 'excluded'
    ? { index: 'contacts_excluded', where: 'excluded = 1' }
    : { index: 'contacts_edited', where: 'edited = 1' };
}
