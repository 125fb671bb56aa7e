// A lane: one Web Worker that parses and checks blocks with the engine's block processor, keeping
// the cells (the app stores them) and sending them as one string of JSON lines (the batch format,
// see importBatchMetaSchema), so the coordinator never clones millions of small strings.
import {
  ContactsError,
  createBlockProcessor,
  transferablesOf,
} from '../../../shared/domain/contacts/index.ts';
import type { BlockProcessor, BlockResult } from '../../../shared/domain/contacts/index.ts';
import { cellLine } from '../../../shared/ipc/channels/contacts.ts';
import type { LaneReply, LaneRequest } from './importMessages.ts';

export function createLaneHandler(reply: (message: LaneReply, transfer: Transferable[]) => void) {
  let processor: BlockProcessor | null = null;
  let stream: ReturnType<BlockProcessor['startStream']> | null = null;
  const need = (): BlockProcessor => {
    if (!processor) throw new Error('internal: the lane has no setup');
    return processor;
  };
  return (message: LaneRequest): void => {
    try {
      let result: BlockResult | null = null;
      switch (message.kind) {
        case 'setup':
          processor = createBlockProcessor(message.setup, { includeCells: true });
          stream = null;
          break;
        case 'block':
          result = need().processBlock(message.block);
          break;
        case 'stream-push':
          stream ??= need().startStream();
          result = stream.push(message.bytes, message.seq);
          break;
        case 'stream-end':
          stream ??= need().startStream();
          result = stream.end(message.seq);
          stream = null;
          break;
      }
      let cellLines = '';
      if (result?.cells) {
        cellLines = result.cells.map(cellLine).join('\n');
        delete result.cells;
      }
      reply({ id: message.id, ok: true, result, cellLines }, result ? transferablesOf(result) : []);
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      reply(
        {
          id: message.id,
          ok: false,
          error: { code: error instanceof ContactsError ? error.code : null, message: e.message },
        },
        [],
      );
    }
  };
}
