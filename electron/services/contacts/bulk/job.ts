// A bulk change's job: what it does (BulkAction), where it stands (phase, cursor), how Cancel turns
// it into its rollback, its stored shape (saved with the list's undo slot in every step) and the
// worker-side state its phases keep between steps (BulkWork).
import { z } from 'zod';
import type { NumberScan } from './renumber.ts';

const bulkActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('exclude-invalid') }),
  z.object({ kind: z.literal('exclude-landline') }),
  /** Rows the upload carries with any of these columns blank (the service would refuse them). */
  z.object({ kind: z.literal('exclude-empty'), columns: z.array(z.number().int().nonnegative()) }),
  z.object({ kind: z.literal('include-all') }),
  z.object({
    kind: z.literal('apply-country'),
    country: z.string(),
    scope: z.enum(['invalid', 'all']),
  }),
]);
export type BulkAction = z.infer<typeof bulkActionSchema>;

const PHASES = [
  'clear',
  'main',
  'renumber-clear',
  'renumber-scan',
  'renumber-fill',
  'numbers',
  'swap',
  'drop',
  'done',
] as const;
const isPhase = (p: string): p is (typeof PHASES)[number] => (PHASES as readonly string[]).includes(p);

/**
 * A running job. mode 'apply': a bulk change (phases clear → main → [numbers] → done);
 * 'undo': swap the snapshot in (swap → drop → done); 'revert': the same swap, for a cancelled or
 * crashed change; 'unswap': a cancelled undo swaps its rows (row <= until) back and keeps the undo.
 */
export interface BulkJob {
  listId: number;
  mode: 'apply' | 'undo' | 'revert' | 'unswap';
  action: BulkAction | null;
  phase: (typeof PHASES)[number];
  /**
   * Set for apply-a-country-to-all and its undo and rollbacks: rows are written without keeping
   * contact_numbers in step (random writes into that index cost more than the row itself), and
   * contact_numbers is rebuilt (the renumber phases: clear it, read the list's numbers into memory
   * a row range at a time, sort them there, then append them in number order) before `after`.
   */
  renumber?: boolean;
  /**
   * 'state': the snapshot keeps only the rows' state (contact_undo_states: number columns and
   * exclusion), because the change moves nothing else: apply-a-country-to-all, exclude and include,
   * their undo and rollbacks. Otherwise whole rows.
   */
  snapshot?: 'state';
  /** The phase after renumbering (unswap: its own finish, then done). */
  after?: 'numbers' | 'drop' | 'done';
  label: string;
  /** Keyset: the last row done (numbers and renumber-fill phases: with `e164`). */
  cursor: number;
  e164: number;
  /** Numbers phase: the first row of the current number. */
  winner: number;
  /** unswap: the last row the undo had swapped. */
  until: number;
  done: number;
  total: number;
  /** Rows whose number or issues changed (what the operator is told). */
  affected: number;
  /** Rows put in the snapshot so far (the undo's total, without counting a million rows). */
  saved: number;
}

/** The list's numbers cleared and read again from the start (the scan was lost with the worker). */
export const restageFromStart = (job: BulkJob): BulkJob => ({
  ...job,
  phase: 'renumber-clear',
  cursor: 0,
  e164: 0,
  done: 0,
});

/**
 * A job as stored in the undo slot. A phase of an earlier version (renumber-sort, staged in a TEMP
 * table) is read as renumbering again.
 */
export const bulkJobSchema: z.ZodType<BulkJob, unknown> = z
  .object({
    listId: z.number(),
    mode: z.enum(['apply', 'undo', 'revert', 'unswap']),
    action: bulkActionSchema.nullable(),
    phase: z.string(),
    renumber: z.boolean().optional(),
    snapshot: z.literal('state').optional(),
    after: z.enum(['numbers', 'drop', 'done']).optional(),
    label: z.string(),
    cursor: z.number(),
    e164: z.number(),
    winner: z.number(),
    until: z.number(),
    done: z.number(),
    total: z.number(),
    affected: z.number(),
    saved: z.number(),
  })
  .transform(({ phase, ...rest }): BulkJob => {
    if (isPhase(phase)) return { ...rest, phase };
    return restageFromStart({ ...rest, phase: 'renumber-clear' });
  });

export const newJob = (
  listId: number,
  mode: BulkJob['mode'],
  action: BulkAction | null,
  phase: BulkJob['phase'],
  label: string,
  total: number,
): BulkJob => ({
  listId,
  mode,
  action,
  phase,
  label,
  cursor: 0,
  e164: 0,
  winner: 0,
  until: 0,
  done: 0,
  total,
  affected: 0,
  saved: 0,
});

/** Cancel turns a change (any phase) or an undo still swapping into its rollback. */
export const isCancellable = (job: BulkJob): boolean =>
  job.mode === 'apply' || (job.mode === 'undo' && job.phase === 'swap');

/** The job that puts a list back as it was when `job` is cancelled (or found unfinished at start). */
export function rollbackJob(job: BulkJob): BulkJob {
  const base = { ...job, cursor: 0, e164: 0, winner: 0, done: 0 };
  if (job.mode === 'apply') {
    // Nothing changed while the old undo was being cleared: just finish clearing.
    return job.phase === 'clear'
      ? { ...base, mode: 'revert', phase: 'drop', label: 'Cancelling' }
      : { ...base, mode: 'revert', phase: 'swap', label: 'Cancelling', until: 0, total: job.saved };
  }
  if (job.mode === 'undo' && job.phase === 'swap')
    return { ...base, mode: 'unswap', phase: 'swap', label: 'Cancelling the undo', until: job.cursor };
  return job;
}

/**
 * What the database worker keeps for running jobs between their steps (gone with the worker; every
 * phase copes with its loss): one per worker, created with the bulk queries.
 */
export class BulkWork {
  /**
   * What committing one chunk of a list's phase cost lately, in ms. A chunk that rewrites rows
   * spread over the list (exclude / include: a row or two per page) dirties a page per row, and the
   * commit that writes those pages to the WAL took over twice as long as the chunks themselves
   * (48 ms of chunks, 120 ms of commit on a slow machine), all of it while the grid's page reads
   * waited. So a step counts its commit into its budget.
   */
  readonly commitMsPerChunk = new Map<string, number>();
  /** Each list's numbers as its renumber-scan phase read them (renumber.ts). */
  readonly scans = new Map<number, NumberScan>();

  scanOf(job: BulkJob): NumberScan | undefined {
    return this.scans.get(job.listId);
  }
}

export const commitKey = (job: BulkJob): string => `${job.listId}:${job.mode}:${job.phase}`;
