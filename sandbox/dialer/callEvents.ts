// The dialer engine's events, queued in `out` and emitted once the wake's transaction commits:
// webhook events of a call (payload built lazily from a snapshot of its facts) and call updates.
import type { EventType } from '../../shared/service/enums.ts';
import type { SandboxContext } from '../context.ts';
import type { CallRow } from '../store/types.ts';
import { buildPayload } from '../webhooks/payloads.ts';
import type { CallFacts } from '../webhooks/payloads.ts';
import type { Emit } from './engineState.ts';

export function callEventQueue(ctx: SandboxContext) {
  function callEvent(
    out: Emit[],
    eventType: EventType,
    row: CallRow,
    facts: CallFacts,
    at: number,
    attemptSubStatus?: string,
  ): void {
    const snapshot = { ...facts };
    out.push(() =>
      ctx.events.emit('call-event', {
        eventType,
        callId: row.id,
        agentId: row.agent_id,
        callbackUrl: row.callback_url,
        callbackArgs: row.callback_args,
        at,
        ...(attemptSubStatus !== undefined ? { attemptSubStatus } : {}),
        payload: () => buildPayload(eventType, snapshot),
      }),
    );
  }

  function updated(out: Emit[], callId: string, status: string, subStatus: string): void {
    out.push(() => ctx.events.emit('call-updated', { callId, status, subStatus }));
  }

  return { callEvent, updated };
}
