/// <reference lib="webworker" />
// The import coordinator worker: the UI thread posts the File, the lane ports and the choices;
// everything else (reading, decoding, splitting, merging, encoding batches) happens here.
import type { FromCoordinator, ToCoordinator } from './importMessages.ts';
import { createImportRun } from './importRun.ts';

const controller = new AbortController();
let run: ReturnType<typeof createImportRun> | null = null;
const post = (message: FromCoordinator, transfer: Transferable[] = []) => self.postMessage(message, transfer);

self.onmessage = (event: MessageEvent<ToCoordinator>) => {
  const message = event.data;
  switch (message.type) {
    case 'start':
      if (run) return;
      run = createImportRun({
        file: message.file,
        choices: message.choices,
        lanes: message.lanes,
        post,
        signal: controller.signal,
        blockBytes: message.blockBytes,
      });
      void run.run();
      break;
    case 'ack':
      run?.ack();
      break;
    case 'cancel':
      controller.abort();
      break;
  }
};
