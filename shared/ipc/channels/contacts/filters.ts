import { z } from 'zod';
import { ISSUE_CODES } from '../../../domain/contacts/issues.ts';

// What the contacts grid can show: the buckets, the filters (a bucket, an issue, excluded, edited,
// suppressed, or rows with empty mapped columns) and their schema.

export const BUCKETS = ['valid', 'invalid', 'duplicate'] as const;
export type ContactBucket = (typeof BUCKETS)[number];

/** What the grid can show: everything, one bucket, one issue code, excluded or edited rows. */
export const CONTACT_FILTERS = [
  'all',
  'bucket:valid',
  'bucket:invalid',
  'bucket:duplicate',
  ...ISSUE_CODES.map((code) => `issue:${code}` as const),
  'excluded',
  'edited',
  /** Rows the upload would carry whose number is on the do-not-call list (held back). */
  'suppressed',
] as const;
/**
 * `empty:<column index>[,<column index>…]`: rows the upload would carry (valid, not excluded) whose
 * cell in that column (any of those columns) is empty: the agent lint's "mapped column empty in some
 * valid rows", and with several columns the rows the service will refuse.
 */
export type EmptyColumnFilter = `empty:${string}`;
export type ContactFilter = (typeof CONTACT_FILTERS)[number] | EmptyColumnFilter;
export const emptyColumnFilter = (...columns: number[]): EmptyColumnFilter =>
  `empty:${[...new Set(columns)].sort((a, b) => a - b).join(',')}`;
/** The column indexes of an `empty:` filter. */
export const emptyFilterColumns = (filter: EmptyColumnFilter): number[] =>
  filter.slice(6).split(',').map(Number);
export const contactFilterSchema = z.union([
  z.enum(CONTACT_FILTERS),
  z
    .string()
    .regex(/^empty:(0|[1-9]\d{0,3})(,(0|[1-9]\d{0,3})){0,99}$/, 'not a contacts filter')
    .transform((s) => s as EmptyColumnFilter),
]);
