import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { lowerThisThreadPriority } from './threadPriority.ts';

const moduleUrl = new URL('./threadPriority.ts', import.meta.url).href;

/** Runs lowerThisThreadPriority(3) on a new thread; answers what it returned and the main thread's nice after. */
async function onWorker(): Promise<{ lowered: number | null; main: number }> {
  const worker = new Worker(
    `import(${JSON.stringify(moduleUrl)}).then((m) => {
       require('node:worker_threads').parentPort.postMessage(m.lowerThisThreadPriority(3));
     });`,
    { eval: true },
  );
  const lowered = await new Promise<number | null>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return { lowered, main: getPriority(process.pid) };
}

describe('lowerThisThreadPriority', () => {
  it.runIf(process.platform === 'linux')(
    'raises a worker thread’s own nice value, never the main thread’s',
    async () => {
      const main = getPriority(process.pid);
      const { lowered, main: after } = await onWorker();
      expect(lowered).toBe(Math.min(19, main + 3));
      expect(after).toBe(main);
      // On the main thread it refuses: the whole process would drop with it.
      expect(lowerThisThreadPriority(3)).toBeNull();
      expect(getPriority(process.pid)).toBe(main);
    },
  );

  it.runIf(process.platform !== 'linux')('does nothing where priorities are per process', async () => {
    const main = getPriority(process.pid);
    const { lowered } = await onWorker();
    expect(lowered).toBeNull();
    expect(getPriority(process.pid)).toBe(main);
  });
});
