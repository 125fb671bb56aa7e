// Messages between the coordinating thread and the cleaning workers (same process, typed; no
// validation needed on this internal hop). Requests are the engine's lane requests.
import type { BlockResult, LaneRequest } from '../../../../shared/domain/contacts/index.ts';

export type WorkerRequest = LaneRequest;

export type WorkerReply =
  | { id: number; ok: true; result: BlockResult | null }
  | { id: number; ok: false; error: { code: string | null; message: string } };
