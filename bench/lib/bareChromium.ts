// A Chromium page driven over a bare DevTools connection: only the Runtime, DOM and Page commands
// a bench sends, and no domain enabled but Page (needed to run a script on new documents). Playwright enables the Network domain on every page,
// and Chromium then mirrors each WebSocket frame the page sends into the driver, base64-encoded:
// a 1M-row import (~100 MB of frames to the browser host) cost the browser and the driver ~7 CPU
// seconds that the app, in Electron or in an operator's browser, never pays. On 2 cores that load
// competes with the import it measures.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { z } from 'zod';

const replySchema = z.object({
  id: z.number(),
  result: z.unknown().optional(),
  error: z.object({ message: z.string() }).optional(),
});
const evaluateSchema = z.object({
  result: z.object({ value: z.unknown().optional() }),
  exceptionDetails: z
    .object({ text: z.string(), exception: z.object({ description: z.string().optional() }).optional() })
    .optional(),
});

export interface BarePage {
  /** Evaluates an expression in the page (awaiting a promise it gives) and answers its JSON value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Hands a file to the file input matched by `selector`, as a user picking it would. */
  setInputFiles(selector: string, path: string): Promise<void>;
  /** Any other DevTools command to the page (a CPU profile, say). */
  cdp(method: string, params?: object): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Starts Chromium headless, opens `url` with `initScript` run before the page's own scripts, and
 * answers the page to drive.
 */
export async function openBarePage(options: {
  executablePath: string;
  args: string[];
  url: string;
  initScript: string;
}): Promise<BarePage> {
  const profile = mkdtempSync(join(tmpdir(), 'bench-chromium-'));
  const child: ChildProcess = spawn(
    options.executablePath,
    [
      '--headless=new',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--window-size=1400,900',
      ...options.args,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${err}`)), 30_000);
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited with ${code}: ${err}`));
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`Chromium could not be started (${options.executablePath}): ${error.message}`));
    });
  });
  const socket = new WebSocket(endpoint, { maxPayload: 256 * 1024 * 1024 });
  await once(socket, 'open');
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  socket.on('message', (data: Buffer) => {
    const parsed = replySchema.safeParse(JSON.parse(data.toString()));
    if (!parsed.success) return; // an event: none is enabled on purpose, the target's own are ignored
    const reply = parsed.data;
    const pending = waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id);
    if (reply.error) pending.reject(new Error(reply.error.message));
    else pending.resolve(reply.result);
  });
  const send = (method: string, params: object = {}, sessionId?: string): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });

  const { targetId } = z
    .object({ targetId: z.string() })
    .parse(await send('Target.createTarget', { url: 'about:blank' }));
  const { sessionId } = z
    .object({ sessionId: z.string() })
    .parse(await send('Target.attachToTarget', { targetId, flatten: true }));
  const inPage = (method: string, params: object = {}) => send(method, params, sessionId);
  // The Page domain must be on for scripts to run on new documents (its events are few and small).
  await inPage('Page.enable');
  await inPage('Page.addScriptToEvaluateOnNewDocument', { source: options.initScript });
  await inPage('Page.navigate', { url: options.url });

  return {
    cdp: inPage,
    async evaluate<T>(expression: string): Promise<T> {
      const answer = evaluateSchema.parse(
        await inPage('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }),
      );
      if (answer.exceptionDetails) {
        const d = answer.exceptionDetails;
        throw new Error(`in the page: ${d.exception?.description ?? d.text}`);
      }
      return answer.result.value as T;
    },
    async setInputFiles(selector: string, path: string): Promise<void> {
      const { root } = z
        .object({ root: z.object({ nodeId: z.number() }) })
        .parse(await inPage('DOM.getDocument', { depth: 0 }));
      const { nodeId } = z
        .object({ nodeId: z.number() })
        .parse(await inPage('DOM.querySelector', { nodeId: root.nodeId, selector }));
      if (nodeId === 0) throw new Error(`no element matches ${selector}`);
      await inPage('DOM.setFileInputFiles', { nodeId, files: [path] });
    },
    async close(): Promise<void> {
      socket.close();
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
