import { z } from 'zod';
import { ISSUE_CODES } from '../../../domain/contacts/issues.ts';
import { SUPPRESSION_REASONS } from '../../../domain/suppression.ts';
import { count, listId, rowNumber } from './fields.ts';
import { BUCKETS } from './filters.ts';
import { detectedSchema, variableMappingSchema } from './importSettings.ts';

// A contact list as the UI sees it (its settings, counts, undo) and one row of it in the grid.

const issueCounts = z.object(
  Object.fromEntries(ISSUE_CODES.map((c) => [c, count])) as Record<
    (typeof ISSUE_CODES)[number],
    typeof count
  >,
);

export const listCountsSchema = z.object({
  rows: count,
  valid: count,
  invalid: count,
  duplicates: count,
  excluded: count,
  edited: count,
  /** Rows carrying each issue code (a row may carry several; excluded rows included). */
  issues: issueCounts,
  /** Rows the export would write now: valid and not excluded / not valid and not excluded. */
  upload: count,
  rejects: count,
});
export type ListCounts = z.infer<typeof listCountsSchema>;

export const contactListSchema = z.object({
  id: listId,
  name: z.string(),
  fileName: z.string(),
  fileBytes: count,
  status: z.enum(['importing', 'ready']),
  detected: detectedSchema,
  /** The list's default country as chosen (IN or +91) and what it resolved to. */
  country: z.string(),
  countryCode: z.string(),
  callingCode: z.string(),
  variables: z.array(variableMappingSchema),
  /** Columns written after Mobile Number in the upload file. */
  uploadColumns: z.array(z.string()),
  nameColumn: z.string().nullable(),
  counts: listCountsSchema,
  blankRows: count,
  /** How the import ran: workers, parallel or sequential, and why. */
  split: z
    .object({ workers: z.number().int().positive(), mode: z.string(), reason: z.string().nullable() })
    .nullable(),
  importMs: count.nullable(),
  /** What Undo would undo ("Edit of row 12", "Exclude 927 invalid rows"), or null. */
  undo: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactList = z.infer<typeof contactListSchema>;

export const contactRowSchema = z.object({
  /** Spreadsheet row (the header is row 1). */
  row: rowNumber,
  /** 0-based position among the list's data rows. */
  pos: count,
  cells: z.array(z.string()),
  phoneRaw: z.string(),
  e164: z.string().nullable(),
  bucket: z.enum(BUCKETS),
  issues: z.array(z.enum(ISSUE_CODES)),
  /** The Reasons cell of the rejects file ('' for a valid row). */
  reasons: z.string(),
  /** The earlier row this one repeats, or 0. */
  duplicateOf: count,
  excluded: z.boolean(),
  edited: z.boolean(),
  /** A country applied to this row only (Apply country to invalid numbers), or null. */
  country: z.string().nullable(),
  /** The calling service refused this row when the list was launched: its reason. */
  refused: z.string().optional(),
  /** The row's number is on the do-not-call list (issue `suppressed`): its reason; never uploaded. */
  suppressed: z.enum(SUPPRESSION_REASONS).optional(),
});
export type ContactRow = z.infer<typeof contactRowSchema>;
