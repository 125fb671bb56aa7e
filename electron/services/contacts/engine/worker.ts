// A cleaning worker thread: receives the setup, then blocks (parallel mode) or consecutive text
// (sequential mode), and answers with BlockResults whose typed arrays are transferred, not copied.
import { parentPort } from 'node:worker_threads';
import { createBlockLane, laneFailure } from '../../../../shared/domain/contacts/blockLane.ts';
import { transferablesOf } from '../../../../shared/domain/contacts/blockProcessor.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';

const port = parentPort;
if (!port) throw new Error('the contacts worker must run in a worker thread');

const lane = createBlockLane();

port.on('message', (message: WorkerRequest) => {
  try {
    const result = lane(message);
    const reply: WorkerReply = { id: message.id, ok: true, result };
    port.postMessage(reply, result ? transferablesOf(result) : []);
  } catch (error) {
    const reply: WorkerReply = { id: message.id, ok: false, error: laneFailure(error) };
    port.postMessage(reply);
  }
});
