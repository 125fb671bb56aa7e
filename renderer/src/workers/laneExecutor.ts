// An Executor (shared/domain/contacts/runClean.ts) over lane workers reached through ports. Each
// result's E.164 column and JSON-encoded cells are handed to `capture` (the merged block the
// engine passes on keeps neither), and every block first waits at `gate`, which is how the
// back end's pace (SQLite writes) holds the file reading back.
import { ContactsError } from '../../../shared/domain/contacts/index.ts';
import type {
  BlockResult,
  ContactsErrorCode,
  EngineSetup,
  Executor,
} from '../../../shared/domain/contacts/index.ts';
import type { LaneReply, LaneRequest, PortLike } from './importMessages.ts';

export interface LaneExtras {
  e164: Float64Array;
  /** The block's cell lines (one JSON array per row), UTF-8. */
  cellBytes: Uint8Array;
}

type Ok = Extract<LaneReply, { ok: true }>;
type Request = LaneRequest extends infer R ? (R extends LaneRequest ? Omit<R, 'id'> : never) : never;

interface Lane {
  port: PortLike;
  pending: Map<number, { resolve(reply: Ok): void; reject(error: Error): void }>;
}

export function createLanePool(ports: readonly PortLike[]) {
  if (ports.length === 0) throw new Error('internal: an import needs at least one lane');
  let nextId = 1;
  const lanes: Lane[] = ports.map((port) => {
    const lane: Lane = { port, pending: new Map() };
    port.onmessage = (event: MessageEvent) => {
      const reply = event.data as LaneReply;
      const waiting = lane.pending.get(reply.id);
      if (!waiting) return;
      lane.pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply);
      else {
        const { code, message } = reply.error;
        waiting.reject(code ? new ContactsError(code as ContactsErrorCode, message) : new Error(message));
      }
    };
    return lane;
  });

  const send = (lane: Lane, request: Request): Promise<Ok> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      lane.pending.set(id, { resolve, reject });
      lane.port.postMessage({ ...request, id } as LaneRequest);
    });

  /** The lane with the least work queued (ties: the first). */
  const idlest = (): Lane => lanes.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));

  return {
    size: lanes.length,
    /** An Executor for one run (runClean calls its factory again if the run restarts). */
    async executor(
      setup: EngineSetup,
      capture: (seq: number, extras: LaneExtras) => void,
      gate: () => Promise<void>,
    ): Promise<Executor> {
      await Promise.all(lanes.map((lane) => send(lane, { kind: 'setup', setup })));
      const streamLane = lanes[0] as Lane;
      const take = (reply: Ok): BlockResult => {
        const result = reply.result;
        if (!result) throw new Error('internal: a lane returned no result');
        capture(result.seq, { e164: result.e164, cellBytes: reply.cellBytes });
        return result;
      };
      return {
        lanes: lanes.length,
        // The block's bytes are copied to the lane, not transferred: the merger reads them later.
        block: async (block) => {
          await gate();
          return take(await send(idlest(), { kind: 'block', block }));
        },
        streamPush: async (bytes, seq) => {
          await gate();
          return take(await send(streamLane, { kind: 'stream-push', bytes, seq }));
        },
        streamEnd: async (seq) => take(await send(streamLane, { kind: 'stream-end', seq })),
        close() {},
      };
    },
    /** Fails whatever is still waiting (the run was cancelled or failed). */
    abandon(reason: Error): void {
      for (const lane of lanes) {
        for (const waiting of lane.pending.values()) waiting.reject(reason);
        lane.pending.clear();
      }
    },
  };
}
