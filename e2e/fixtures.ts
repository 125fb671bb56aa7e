import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import type { ChildServer } from './support/childServer.ts';
import { startChildServer } from './support/childServer.ts';

/** The browser host started for one test: the real back end with its own data folder. */
export interface DeskHost {
  /** The address the host printed, with `#token=…`. */
  url: string;
  /** http://127.0.0.1:<port> */
  origin: string;
  token: string;
  dataDir: string;
  /** Stops the host (idempotent): lets a test read the data folder after a clean shutdown. */
  stop: () => Promise<void>;
  output: () => string;
}

/** A separate sandbox calling service with a key the test knows. */
export interface SandboxService {
  /** http://127.0.0.1:<port>/v0 — what an operator would type as the Base URL. */
  baseUrl: string;
  apiKey: string;
  output: () => string;
  /** Stops the service (idempotent), to see how the app copes without it. */
  stop: () => Promise<void>;
  /** The bearer token the service checks on `PATCH /agent/v1` (only with `sandboxOptions.bearer`). */
  bearerToken: string | null;
}

export interface SandboxOptions {
  /** Run the sandbox with `--bearer`, so `PATCH /agent/v1` also needs that token. */
  bearer?: boolean;
}

export interface DeskOptions {
  /** Extra or replaced environment variables for the host process. */
  env?: Record<string, string | undefined>;
  /** Extra CLI arguments (e.g. `--no-sandbox`). */
  args?: string[];
}

export const HOST_READY =
  /Campaign Desk is running in your browser at (http:\/\/127\.0\.0\.1:(\d+))\/#token=(\S+)/;
const SANDBOX_READY = /sandbox listening on (http:\/\/127\.0\.0\.1:\d+\/v0)/;

interface Fixtures {
  deskOptions: DeskOptions;
  sandboxOptions: SandboxOptions;
  desk: DeskHost;
  sandbox: SandboxService;
}

export const test = base.extend<Fixtures>({
  deskOptions: [{}, { option: true }],
  sandboxOptions: [{}, { option: true }],

  desk: async ({ deskOptions }, use, testInfo) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-'));
    let server: ChildServer | null = null;
    try {
      server = await startChildServer({
        name: 'browser host',
        script: 'electron/browser-host/main.ts',
        args: ['--port', '0', '--data', dataDir, '--no-open', ...(deskOptions.args ?? [])],
        ready: HOST_READY,
        env: { ...process.env, ...deskOptions.env },
        // On a loaded machine (parallel engineers, 2 cores) the host took 29 s to start.
        timeoutMs: 60_000,
      });
      const [, origin, , token] = server.match;
      const started = server;
      await use({
        url: `${origin}/#token=${token}`,
        origin: origin!,
        token: token!,
        dataDir,
        stop: () => started.stop(),
        output: () => started.output(),
      });
    } finally {
      await server?.stop();
      if (server && testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('browser-host output', { body: server.output(), contentType: 'text/plain' });
      }
      await rm(dataDir, { recursive: true, force: true });
    }
  },

  sandbox: async ({ sandboxOptions }, use, testInfo) => {
    const apiKey = `sk-e2e-${randomBytes(18).toString('hex')}`;
    const bearerToken = sandboxOptions.bearer ? `bearer-e2e-${randomBytes(12).toString('hex')}` : null;
    const server = await startChildServer({
      name: 'sandbox',
      script: 'sandbox/main.ts',
      args: ['--port', '0', '--api-key', apiKey, ...(bearerToken ? ['--bearer', bearerToken] : [])],
      ready: SANDBOX_READY,
    });
    try {
      await use({
        baseUrl: server.match[1]!,
        apiKey,
        bearerToken,
        output: server.output,
        stop: () => server.stop(),
      });
    } finally {
      await server.stop();
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('sandbox output', { body: server.output(), contentType: 'text/plain' });
      }
    }
  },
});

export { expect };
