// An Executor that works on the calling thread: for tests, tiny files, and as the reference the
// threaded executors must match.
import { createBlockProcessor } from './blockProcessor.ts';
import type { BlockResult, ProcessOptions } from './blockProcessor.ts';
import type { Executor } from './runClean.ts';
import type { EngineSetup } from './types.ts';

export function createLocalExecutor(setup: EngineSetup, options: ProcessOptions = {}): Executor {
  const processor = createBlockProcessor(setup, options);
  let stream: ReturnType<typeof processor.startStream> | null = null;
  const later = (work: () => BlockResult): Promise<BlockResult> =>
    new Promise((resolve, reject) => {
      // Yield to the event loop like a worker would, so ordering bugs show up in tests too.
      setTimeout(() => {
        try {
          resolve(work());
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      }, 0);
    });
  return {
    lanes: 1,
    block: (block) => later(() => processor.processBlock(block)),
    streamPush(bytes, seq) {
      stream ??= processor.startStream();
      const s = stream;
      return later(() => s.push(bytes, seq));
    },
    streamEnd(seq) {
      const s = stream ?? processor.startStream();
      return later(() => s.end(seq));
    },
    close() {
      stream = null;
    },
  };
}
