import { z } from 'zod';
import { count, listId } from './fields.ts';

// Bulk changes of a list (and its undo and deletion) report progress a chunk at a time.

/** The kinds of long work on a list that report progress. */
export const BULK_ACTIONS = [
  'exclude-invalid',
  'exclude-landline',
  'exclude-empty',
  'include-all',
  'apply-country',
  'undo',
  'delete',
] as const;

/** Progress of a bulk change, an undo or a deletion, a chunk at a time (the grid keeps answering). */
export const bulkProgressSchema = z.object({
  listId,
  action: z.enum(BULK_ACTIONS),
  /** What it does, in words ("Exclude 927 invalid rows", "Finding duplicates"). */
  label: z.string(),
  state: z.enum(['running', 'cancelling', 'done', 'cancelled', 'failed']),
  /** Rows done and to do in the current stage (total 0 = unknown). */
  done: count,
  total: count,
  /** Whether Cancel can still stop it (a rollback and a deletion run to their end). */
  cancellable: z.boolean(),
});
export type BulkProgress = z.infer<typeof bulkProgressSchema>;
