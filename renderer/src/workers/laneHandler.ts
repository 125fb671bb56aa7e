// A lane: one Web Worker that parses and checks blocks with the engine's block processor, keeping
// the cells (the app stores them) and sending them as one string of JSON lines (the batch format,
// see importBatchMetaSchema), so the coordinator never clones millions of small strings.
import { createBlockLane, laneFailure, transferablesOf } from '../../../shared/domain/contacts/index.ts';
import { cellLine } from '../../../shared/ipc/channels/contacts.ts';
import type { LaneReply, LaneRequest } from './importMessages.ts';

export function createLaneHandler(reply: (message: LaneReply, transfer: Transferable[]) => void) {
  const lane = createBlockLane({ includeCells: true });
  return (message: LaneRequest): void => {
    try {
      const result = lane(message);
      let cellLines = '';
      if (result?.cells) {
        cellLines = result.cells.map(cellLine).join('\n');
        delete result.cells;
      }
      reply({ id: message.id, ok: true, result, cellLines }, result ? transferablesOf(result) : []);
    } catch (error) {
      reply({ id: message.id, ok: false, error: laneFailure(error) }, []);
    }
  };
}
