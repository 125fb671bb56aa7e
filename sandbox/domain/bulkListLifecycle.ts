// Upload processing on the virtual clock: `verifying` for 2 s, then `processing` at a fixed rate of
// rows per virtual second, then `completed` or `failed`. The outcome is decided at upload (the rows
// are validated then) and revealed as virtual time passes; reads derive the current state.
import type { SandboxContext } from '../context.ts';
import type { BulkListRow } from '../store/types.ts';

export const verifyingMs = 2_000;
export const rowsPerSecond = 2_000;

export function processingWindow(createdAt: number, totalRows: number): { startsAt: number; endsAt: number } {
  const startsAt = createdAt + verifyingMs;
  return { startsAt, endsAt: startsAt + Math.ceil((totalRows / rowsPerSecond) * 1000) };
}

const phaseStatuses = new Set(['verifying', 'processing']);

/** The list's status now (a started list keeps `scheduled`). */
export function currentStatus(list: BulkListRow, now: number): string {
  if (!phaseStatuses.has(list.status)) return list.status;
  if (now < list.processing_starts_at) return 'verifying';
  if (now < list.processing_ends_at) return 'processing';
  return list.outcome;
}

export function processedRows(list: BulkListRow, now: number): number {
  if (now >= list.processing_ends_at) return list.total_rows;
  if (now < list.processing_starts_at) return 0;
  return Math.min(list.total_rows, Math.floor(((now - list.processing_starts_at) / 1000) * rowsPerSecond));
}

export function isProcessed(list: BulkListRow, now: number): boolean {
  return now >= list.processing_ends_at;
}

/** Persist a finished outcome once, and tell listeners. Returns the fresh row. */
export function refreshBulkList(ctx: SandboxContext, list: BulkListRow): BulkListRow {
  const now = ctx.clock.nowMs();
  if (!phaseStatuses.has(list.status) || now < list.processing_ends_at) return list;
  ctx.store.bulkLists.update(list.id, { status: list.outcome }, now);
  ctx.events.emit('upload-processed', { bulkListId: list.id, status: list.outcome });
  return { ...list, status: list.outcome };
}

/** Finalise on time even if nobody polls (the dialer or webhooks may listen for it). */
export function scheduleProcessingEnd(ctx: SandboxContext, list: BulkListRow): void {
  ctx.clock.schedule(list.processing_ends_at, () => {
    const fresh = ctx.store.bulkLists.get(list.id);
    if (fresh) refreshBulkList(ctx, fresh);
  });
}
