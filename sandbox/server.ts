// The sandbox calling service: Fastify + SQLite, the seed's operations under /v0, the notes' named
// operations, and the control API under /_sandbox. Binds 127.0.0.1 only.
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { createContext, saveClockOffset } from './context.ts';
import type { SandboxContext, SandboxOptions } from './context.ts';
import { registerControlRoutes } from './control/routes.ts';
import { registerVariantRoutes } from './control/variantRoutes.ts';
import { registerSeedAgentRoutes } from './control/seedAgents.ts';
import { registerDialerControlRoutes } from './dialer/controlRoutes.ts';
import { startDialer } from './dialer/index.ts';
import { scheduleProcessingEnd } from './domain/bulkListLifecycle.ts';
import { installApiKeyCheck } from './http/auth.ts';
import { installErrorHandling } from './http/errors.ts';
import { FaultRegistry, installFaults } from './http/faults.ts';
import { installNetworkBandwidth, installNetworkDelay, NetworkShaper } from './http/network.ts';
import type { NetworkProfile } from './http/network.ts';
import { publicPathPrefixes, registerRecordingRoutes } from './recordings.ts';
import { registerAgentRoutes } from './routes/agents.ts';
import { registerCampaignRoutes } from './routes/campaigns.ts';
import { registerHistoryRoutes } from './routes/history.ts';
import { registerIndividualCallRoutes } from './routes/individualCall.ts';
import { registerUploadRoutes } from './routes/uploads.ts';
import { registerWorkspaceRoutes } from './routes/workspace.ts';
import { seedInitialData } from './seed/seedData.ts';
import { startWebhooks } from './webhooks/index.ts';

export interface StartSandboxOptions {
  /** 0 or absent: any free port. */
  port?: number;
  apiKey: string;
  /** The bearer token PATCH /agent/v1 must carry; absent: none is checked (X-API-KEY only). */
  bearerToken?: string;
  /** Persist state here; absent: in memory. */
  dataDir?: string;
  /** Makes ids and the simulation deterministic; absent: random. */
  seed?: number;
  quiet?: boolean;
  /** Virtual seconds per real second (default 1; 0 freezes the clock until advanced). */
  clockSpeed?: number;
  /** Latency and bandwidth of history pages and recordings (`--network`); absent: loopback speed. */
  network?: NetworkProfile;
}

export interface SandboxHandle {
  /** Service root, e.g. `http://127.0.0.1:4010/v0`. */
  baseUrl: string;
  /** Control API root, e.g. `http://127.0.0.1:4010/_sandbox`. */
  controlUrl: string;
  port: number;
  /** For in-process use (tests, the dialer's own tests). */
  context: SandboxContext;
  close(): Promise<void>;
}

export interface BuiltSandbox {
  app: FastifyInstance;
  ctx: SandboxContext;
  faults: FaultRegistry;
  network: NetworkShaper;
  /** Set once the port is known (URLs the sandbox hands out are absolute). */
  setBaseUrl(url: string): void;
  dispose(): void;
}

/** Build the app without listening (app.inject works; contract tests use startSandbox). */
export async function buildSandbox(opts: StartSandboxOptions): Promise<BuiltSandbox> {
  if (!opts.apiKey) throw new Error('the sandbox needs an API key');
  const options: SandboxOptions = {
    apiKey: opts.apiKey,
    bearerToken: opts.bearerToken ?? null,
    dataDir: opts.dataDir ?? null,
    seed: opts.seed ?? randomInt(0, 2 ** 31),
    quiet: opts.quiet ?? false,
    clockSpeed: opts.clockSpeed ?? 1,
  };
  const tempDir = options.dataDir ? null : mkdtempSync(join(tmpdir(), 'campaign-desk-sandbox-'));
  const filesDir = options.dataDir ? join(options.dataDir, 'files') : (tempDir as string);
  let baseUrl = 'http://127.0.0.1/v0';
  const ctx = createContext({ options, filesDir, baseUrl: () => baseUrl });
  seedInitialData(ctx);

  const app = Fastify({ logger: false, bodyLimit: 20 * 1024 * 1024, forceCloseConnections: true });
  const faults = new FaultRegistry(ctx.forkRng('faults'));
  const network = new NetworkShaper(ctx.forkRng('network'), opts.network ?? null);
  installErrorHandling(app, ctx.log);
  installNetworkDelay(app, network);
  installFaults(app, faults);
  installNetworkBandwidth(app, network);
  installApiKeyCheck(app, options.apiKey, publicPathPrefixes);
  registerVariantRoutes(app, ctx);
  await app.register(multipart, { limits: { fileSize: 200 * 1024 * 1024, files: 1, fields: 30 } });
  registerWorkspaceRoutes(app, ctx);
  registerAgentRoutes(app, ctx);
  registerHistoryRoutes(app, ctx);
  registerIndividualCallRoutes(app, ctx);
  registerUploadRoutes(app, ctx);
  registerCampaignRoutes(app, ctx);
  registerRecordingRoutes(app, ctx);
  registerControlRoutes(app, ctx, faults, network);
  registerSeedAgentRoutes(app, ctx);
  registerDialerControlRoutes(app, ctx);

  // Lists still processing when a persisted sandbox stopped finish on the clock again.
  for (const l of ctx.db
    .prepare<[], { id: string }>("SELECT id FROM bulk_lists WHERE status IN ('verifying', 'processing')")
    .all()) {
    const list = ctx.store.bulkLists.get(l.id);
    if (list) scheduleProcessingEnd(ctx, list);
  }

  return {
    app,
    ctx,
    faults,
    network,
    setBaseUrl: (url) => {
      baseUrl = url;
    },
    dispose: () => {
      ctx.clock.stop();
      saveClockOffset(ctx);
      if (ctx.db.open) ctx.db.close();
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

/** Start the sandbox on 127.0.0.1 (the app's built-in workspace and every test's peer). */
export async function startSandbox(opts: StartSandboxOptions): Promise<SandboxHandle> {
  const built = await buildSandbox(opts);
  const { app, ctx } = built;
  let address: string;
  try {
    address = await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 });
  } catch (e) {
    built.dispose();
    throw e;
  }
  const port = Number(new URL(address).port);
  const root = `http://127.0.0.1:${port}`;
  built.setBaseUrl(`${root}/v0`);
  const dialer = startDialer(ctx);
  const webhooks = startWebhooks(ctx);
  ctx.clock.start();
  let closing: Promise<void> | null = null;
  return {
    baseUrl: `${root}/v0`,
    controlUrl: `${root}/_sandbox`,
    port,
    context: ctx,
    close() {
      closing ??= (async () => {
        ctx.clock.stop();
        await dialer.stop();
        await webhooks.stop();
        await app.close();
        built.dispose();
      })();
      return closing;
    },
  };
}
