// Messages between the coordinating thread and the cleaning workers (same process, typed; no
// validation needed on this internal hop).
import type { BlockResult, ByteBlock, EngineSetup } from '../../../../shared/domain/contacts/index.ts';

export type WorkerRequest =
  | { id: number; kind: 'setup'; setup: EngineSetup }
  | { id: number; kind: 'block'; block: ByteBlock }
  | { id: number; kind: 'stream-push'; bytes: Uint8Array; seq: number }
  | { id: number; kind: 'stream-end'; seq: number };

export type WorkerReply =
  | { id: number; ok: true; result: BlockResult | null }
  | { id: number; ok: false; error: { name: string; code: string | null; message: string } };
