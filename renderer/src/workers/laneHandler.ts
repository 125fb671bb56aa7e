// A lane: one Web Worker that parses and checks blocks with the engine's block processor, keeping
// the cells (the app stores them) and sending them as JSON lines (the batch format, see
// importBatchMetaSchema) already in UTF-8 and transferred, so the coordinator never clones millions
// of small strings nor encodes the batch itself (the lanes encode in parallel).
import { createBlockLane, laneFailure, transferablesOf } from '../../../shared/domain/contacts/index.ts';
import { cellLine } from '../../../shared/ipc/channels/contacts.ts';
import type { LaneReply, LaneRequest } from './importMessages.ts';

export function createLaneHandler(reply: (message: LaneReply, transfer: Transferable[]) => void) {
  // No upload text: the app builds the upload from the stored rows when it exports.
  const lane = createBlockLane({ includeCells: true, upload: false });
  const encoder = new TextEncoder();
  return (message: LaneRequest): void => {
    try {
      const result = lane(message);
      let cellBytes = new Uint8Array(0);
      if (result?.cells) {
        cellBytes = encoder.encode(result.cells.map(cellLine).join('\n'));
        delete result.cells;
      }
      const transfer = result ? transferablesOf(result) : [];
      reply({ id: message.id, ok: true, result, cellBytes }, [...transfer, cellBytes.buffer]);
    } catch (error) {
      reply({ id: message.id, ok: false, error: laneFailure(error) }, []);
    }
  };
}
