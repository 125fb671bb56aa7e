// Messages between the coordinating thread and the cleaning workers (same process, typed; no
// validation needed on this internal hop).
import type { BlockResult, EngineSetup, TextBlock } from '../../../../shared/domain/contacts/index.ts';

export type WorkerRequest =
  | { id: number; kind: 'setup'; setup: EngineSetup }
  | { id: number; kind: 'block'; block: TextBlock }
  | { id: number; kind: 'stream-push'; text: string; seq: number }
  | { id: number; kind: 'stream-end'; seq: number };

export type WorkerReply =
  | { id: number; ok: true; result: BlockResult | null }
  | { id: number; ok: false; error: { name: string; code: string | null; message: string } };
