// A cleaning worker thread: receives the setup, then blocks (parallel mode) or consecutive text
// (sequential mode), and answers with BlockResults whose typed arrays are transferred, not copied.
import { parentPort } from 'node:worker_threads';
import { createBlockProcessor, transferablesOf } from '../../../../shared/domain/contacts/blockProcessor.ts';
import type { BlockProcessor, BlockResult } from '../../../../shared/domain/contacts/blockProcessor.ts';
import { ContactsError } from '../../../../shared/domain/contacts/errors.ts';
import type { WorkerReply, WorkerRequest } from './protocol.ts';

const port = parentPort;
if (!port) throw new Error('the contacts worker must run in a worker thread');

let processor: BlockProcessor | null = null;
let stream: ReturnType<BlockProcessor['startStream']> | null = null;

const need = (): BlockProcessor => {
  if (!processor) throw new Error('internal: the contacts worker has no setup');
  return processor;
};

port.on('message', (message: WorkerRequest) => {
  try {
    let result: BlockResult | null = null;
    switch (message.kind) {
      case 'setup':
        processor = createBlockProcessor(message.setup);
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
    const reply: WorkerReply = { id: message.id, ok: true, result };
    port.postMessage(reply, result ? transferablesOf(result) : []);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    const reply: WorkerReply = {
      id: message.id,
      ok: false,
      error: { name: e.name, code: error instanceof ContactsError ? error.code : null, message: e.message },
    };
    port.postMessage(reply);
  }
});
