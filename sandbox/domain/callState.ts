import type { SandboxContext } from '../context.ts';
import type { CallRow } from '../store/types.ts';

/**
 * Change a call and tell listeners: the one way the dialer (or anything else) should move a call,
 * so webhooks see every status change as a 'call-updated' event.
 */
export function updateCall(
  ctx: SandboxContext,
  callId: string,
  patch: Partial<Omit<CallRow, 'rowid' | 'id'>>,
): CallRow | undefined {
  const before = ctx.store.calls.get(callId);
  if (!before) return undefined;
  ctx.store.calls.update(callId, patch, ctx.clock.nowMs());
  const after = ctx.store.calls.get(callId);
  if (after && (after.status !== before.status || after.sub_status !== before.sub_status)) {
    ctx.events.emit('call-updated', { callId, status: after.status, subStatus: after.sub_status });
  }
  return after;
}
