/**
 * The one electron/ file that may import sandbox/: it runs the embedded sandbox calling service
 * (`sandbox/server.ts`) in a worker thread, so the sandbox's work never blocks the back end's
 * event loop. This module is both the starter (main thread) and the worker's entry.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { keepNativeSqliteLoaded } from '../db/keepNativeSqliteLoaded.ts';
import { workerEntryUrl } from '../workerEntry.ts';

export interface SandboxOptions {
  apiKey: string;
  bearerToken?: string;
  /** Where the sandbox keeps its own SQLite file; in memory when absent. */
  dataDir?: string;
  seed?: number;
}

export interface SandboxHandle {
  /** The service root, `http://127.0.0.1:<port>/v0`. */
  baseUrl: string;
  controlUrl: string;
  port: number;
  close(): Promise<void>;
}

interface SandboxWorkerData {
  role: 'campaign-desk-sandbox';
  options: SandboxOptions;
}

type FromWorker =
  | { type: 'ready'; baseUrl: string; controlUrl: string; port: number }
  | { type: 'failed'; message: string; stack?: string }
  | { type: 'closed' };

/** Starts the sandbox on 127.0.0.1, port 0, in a worker; resolves when it listens. */
export async function startSandboxWorker(
  options: SandboxOptions & { timeoutMs?: number },
): Promise<SandboxHandle> {
  const { timeoutMs = 30_000, ...sandboxOptions } = options;
  const data: SandboxWorkerData = { role: 'campaign-desk-sandbox', options: sandboxOptions };
  keepNativeSqliteLoaded(); // the sandbox's SQLite also lives only in its worker
  const worker = new Worker(workerEntryUrl(new URL(import.meta.url), 'sandbox-worker.js'), {
    workerData: data,
  });

  const ready = await new Promise<Extract<FromWorker, { type: 'ready' }>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The sandbox did not start within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    worker.once('message', (message: FromWorker) => {
      clearTimeout(timer);
      if (message.type === 'ready') resolve(message);
      else if (message.type === 'failed') {
        const error = new Error(`The sandbox failed to start: ${message.message}`);
        if (message.stack) error.stack = message.stack;
        reject(error);
      }
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The sandbox worker exited (code ${code}) before it was ready`));
    });
  }).catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });

  let closing: Promise<void> | null = null;
  return {
    baseUrl: ready.baseUrl,
    controlUrl: ready.controlUrl,
    port: ready.port,
    close() {
      closing ??= (async () => {
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        worker.postMessage({ type: 'close' });
        const timer = new Promise<void>((resolve) => setTimeout(resolve, 5000).unref());
        await Promise.race([exited, timer]);
        await worker.terminate();
      })();
      return closing;
    },
  };
}

async function runInWorker(port: NonNullable<typeof parentPort>, data: SandboxWorkerData) {
  const post = (message: FromWorker) => port.postMessage(message);
  try {
    const { startSandbox } = await import('../../../sandbox/server.ts');
    const sandbox = await startSandbox({ ...data.options, port: 0, quiet: true });
    port.on('message', (message: { type: string }) => {
      if (message.type !== 'close') return;
      void sandbox
        .close()
        .catch(() => undefined)
        .then(() => {
          post({ type: 'closed' });
          port.close();
        });
    });
    post({ type: 'ready', baseUrl: sandbox.baseUrl, controlUrl: sandbox.controlUrl, port: sandbox.port });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    post({ type: 'failed', message: e.message, ...(e.stack ? { stack: e.stack } : {}) });
  }
}

const data = workerData as SandboxWorkerData | undefined;
if (!isMainThread && parentPort && data?.role === 'campaign-desk-sandbox') void runInWorker(parentPort, data);
