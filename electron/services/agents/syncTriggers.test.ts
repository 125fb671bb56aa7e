import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentSummary, AgentSyncState } from '../../../shared/ipc/channels/agents.ts';
import type { Workspace } from '../../../shared/ipc/channels/workspaces.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import { startSandboxProcess } from '../api/testing/sandboxProcess.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';

// The library syncs by itself: when the back end starts, and when the workspace's service comes
// back (the connectivity check's app:connectivity-changed), with no Refresh.

const apiKey = 'sync-triggers-key-1';
const dirs = tempDirs('desk-agent-triggers-');
const cleanups: Array<() => Promise<unknown>> = [];
let sb: SandboxProcess;
beforeAll(async () => {
  sb = await startSandboxProcess({ apiKey, seed: 2 });
});
afterAll(() => sb.stop());
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  dirs.cleanup();
});

const value = <T>(r: Result<unknown>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
};
const open = async (dataDir: string, secrets: SessionSecretStore): Promise<Desk> => {
  const desk = await createDesk({
    dataDir,
    host: 'browser',
    version: '1',
    sandbox: 'off',
    secrets,
    timings: { connectivityIntervalMs: 150, connectivityTimeoutMs: 1000 },
  });
  cleanups.push(() => desk.close());
  return desk;
};
const library = async (desk: Desk) =>
  value<{ agents: AgentSummary[]; sync: AgentSyncState }>(await desk.handle('agents:list', {}));

/** A port with a forwarding proxy to the sandbox that can be switched off and on (same port). */
async function switchableService(): Promise<{ baseUrl: string; up(): Promise<void>; down(): Promise<void> }> {
  const target = new URL(sb.baseUrl);
  let server: Server | null = null;
  let port = 0;
  const up = async () => {
    server = createServer((req, res) => {
      const out = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
    });
    await new Promise<void>((r) => server!.listen(port, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  };
  const down = async () => {
    const s = server;
    server = null;
    if (s) await new Promise((r) => s.close(r));
  };
  await up();
  await down();
  cleanups.push(down);
  return { baseUrl: `http://127.0.0.1:${port}/v0`, up, down };
}

describe('automatic agent sync', () => {
  it('runs on a switch of workspace and when the back end starts with an active workspace', async () => {
    const dataDir = dirs.make();
    const secrets = new SessionSecretStore();
    const first = await open(dataDir, secrets);
    const ws = value<Workspace>(
      await first.handle('workspaces:create', { name: 'S', baseUrl: sb.baseUrl, apiKey }),
    );
    value(await first.handle('workspaces:set-active', { id: ws.id }));
    await expect.poll(async () => (await library(first)).agents.length, { timeout: 30_000 }).toBe(3);
    await expect.poll(async () => (await library(first)).sync.running, { timeout: 30_000 }).toBe(false);
    const syncedBefore = (await library(first)).sync.syncedAt;
    expect(syncedBefore).not.toBeNull();
    await first.close();
    cleanups.pop();

    const second = await open(dataDir, secrets);
    await expect
      .poll(async () => (await library(second)).sync.syncedAt !== syncedBefore, { timeout: 30_000 })
      .toBe(true);
    expect((await library(second)).agents).toHaveLength(3);
  });

  it('runs when the service comes back after being unreachable', async () => {
    const service = await switchableService();
    const desk = await open(dirs.make(), new SessionSecretStore());
    const ws = value<Workspace>(
      await desk.handle('workspaces:create', { name: 'S', baseUrl: service.baseUrl, apiKey }),
    );
    value(await desk.handle('workspaces:set-active', { id: ws.id }));
    await expect
      .poll(async () => (await library(desk)).sync.lastError, { timeout: 30_000 })
      .toMatch(/^Unreachable/);
    expect((await library(desk)).agents).toEqual([]);
    await service.up();
    await expect.poll(async () => (await library(desk)).agents.length, { timeout: 30_000 }).toBe(3);
    expect((await library(desk)).sync.lastError).toBeNull();
  });
});
