// The work of one cleaning lane, whatever carries its messages (a Node worker thread for the CLI, a
// Web Worker in the app): keep the setup's block processor and the open sequential stream, and
// answer each request with its BlockResult. The hosts only add their transport and reply shape.
import { createBlockProcessor } from './blockProcessor.ts';
import type { BlockProcessor, BlockResult, ProcessOptions } from './blockProcessor.ts';
import { ContactsError } from './errors.ts';
import type { ByteBlock, EngineSetup } from './types.ts';

/** What a lane is asked to do (same thread group, typed; no validation needed on this hop). */
export type LaneRequest =
  | { id: number; kind: 'setup'; setup: EngineSetup }
  | { id: number; kind: 'block'; block: ByteBlock }
  | { id: number; kind: 'stream-push'; bytes: Uint8Array; seq: number }
  | { id: number; kind: 'stream-end'; seq: number };

/**
 * A lane's state machine: `setup` (re)creates the processor and drops any stream; blocks and
 * stream chunks answer their result (null for `setup`). Throws what the engine throws.
 */
export function createBlockLane(options: ProcessOptions = {}): (request: LaneRequest) => BlockResult | null {
  let processor: BlockProcessor | null = null;
  let stream: ReturnType<BlockProcessor['startStream']> | null = null;
  const need = (): BlockProcessor => {
    if (!processor) throw new Error('internal: the lane has no setup');
    return processor;
  };
  return (request) => {
    switch (request.kind) {
      case 'setup':
        processor = createBlockProcessor(request.setup, options);
        stream = null;
        return null;
      case 'block':
        return need().processBlock(request.block);
      case 'stream-push':
        stream ??= need().startStream();
        return stream.push(request.bytes, request.seq);
      case 'stream-end': {
        stream ??= need().startStream();
        const result = stream.end(request.seq);
        stream = null;
        return result;
      }
    }
  };
}

/** A failure as it crosses back to the coordinator: the engine's code when it has one. */
export function laneFailure(error: unknown): { code: string | null; message: string } {
  return {
    code: error instanceof ContactsError ? error.code : null,
    message: error instanceof Error ? error.message : String(error),
  };
}
