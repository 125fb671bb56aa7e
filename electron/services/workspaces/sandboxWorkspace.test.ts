import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectionTest, Workspace } from '../../../shared/ipc/channels/workspaces.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk, DeskOptions } from '../createDesk.ts';
import { filesUnder, tempDirs } from '../db/testing.ts';
import { startSandboxWorker } from '../sandbox/startSandbox.ts';
import type { SandboxHandle } from '../sandbox/startSandbox.ts';
import { KeychainSecretStore } from '../secrets/keychainSecretStore.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';
import type { SecretStore } from '../secrets/secretStore.ts';

const dirs = tempDirs('desk-sbx-');
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  dirs.cleanup();
});

const start = async (dataDir: string, secrets: SecretStore, extra: Partial<DeskOptions> = {}) => {
  const desk = await createDesk({ dataDir, host: 'browser', version: '1', secrets, ...extra });
  cleanups.push(() => desk.close());
  return desk;
};
const value = <T>(r: { ok: boolean; value?: unknown; error?: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value as T;
};
const list = async (desk: Desk) =>
  value<{ workspaces: Workspace[]; activeId: string | null }>(await desk.handle('workspaces:list', {}));

describe('the built-in Sandbox workspace (real sandbox in a worker, real HTTP)', () => {
  it('is created on first start, active, reachable and connects; its URL is refreshed on restart', async () => {
    const dataDir = dirs.make();
    const secrets = new SessionSecretStore();
    const first = await start(dataDir, secrets);
    const { workspaces, activeId } = await list(first);
    expect(workspaces).toHaveLength(1);
    const sandbox = workspaces[0]!;
    expect(sandbox).toMatchObject({ name: 'Sandbox', isSandbox: true, hasApiKey: true, lastTest: null });
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v0$/);
    expect(activeId).toBe(sandbox.id);
    expect(value(await first.handle('app:connectivity', {}))).toMatchObject({ online: true });

    const test = value<ConnectionTest>(await first.handle('workspaces:test', { id: sandbox.id }));
    expect(test).toEqual({
      ok: true,
      message: 'Connected',
      credits: expect.any(Number),
      workspaceName: expect.any(String),
    });
    expect((await list(first)).workspaces[0]?.lastTest).toMatchObject({
      ok: true,
      message: 'Connected',
      credits: test.credits,
    });

    // It is managed: no new address or key, no removal.
    expect(
      await first.handle('workspaces:update', { id: sandbox.id, baseUrl: 'https://x.test/v0' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'baseUrl' },
    });
    expect(await first.handle('workspaces:remove', { id: sandbox.id })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    const key = await secrets.get(sandbox.id, 'apiKey');
    expect(key).toMatch(/^sbx_/);
    await first.close();

    // The sandbox's own files and ours never hold its key.
    for (const file of filesUnder(dataDir))
      expect(readFileSync(file).includes(Buffer.from(key!)), file).toBe(false);

    const second = await start(dataDir, secrets);
    const again = await list(second);
    expect(again.workspaces.map((w) => w.id)).toEqual([sandbox.id]);
    expect(again.activeId).toBe(sandbox.id);
    expect(value<ConnectionTest>(await second.handle('workspaces:test', { id: sandbox.id }))).toMatchObject({
      ok: true,
    });
  });

  it('is skipped with sandbox off', async () => {
    const desk = await start(dirs.make(), new SessionSecretStore(), { sandbox: 'off' });
    expect(await list(desk)).toEqual({ workspaces: [], activeId: null });
    expect(value(await desk.handle('app:connectivity', {}))).toMatchObject({ online: false });
  });

  it('keeps its key in the real keychain across restarts', async (ctx) => {
    if (process.env.DESK_KEYRING_READY !== '1')
      ctx.skip('no Secret Service here: run under scripts/with-keyring.sh');
    const service = `campaign-desk-test-${randomBytes(4).toString('hex')}`;
    const keychain = await KeychainSecretStore.open({ service });
    const dataDir = dirs.make();
    const first = await start(dataDir, keychain);
    const sandbox = (await list(first)).workspaces[0]!;
    expect(sandbox.secretStorage).toBe('keychain');
    cleanups.push(() => keychain.delete(sandbox.id, 'apiKey'));
    const key = await keychain.get(sandbox.id, 'apiKey');
    await first.close();
    const second = await start(dataDir, await KeychainSecretStore.open({ service }));
    expect(value<ConnectionTest>(await second.handle('workspaces:test', { id: sandbox.id }))).toMatchObject({
      ok: true,
    });
    expect(await keychain.get(sandbox.id, 'apiKey')).toBe(key);
  });
});

describe('Test connection against a separate sandbox', () => {
  const startPeer = async () => {
    const apiKey = `peer-${randomBytes(12).toString('hex')}`;
    const peer: SandboxHandle = await startSandboxWorker({ apiKey });
    cleanups.push(() => peer.close());
    return { peer, apiKey };
  };

  it('shows Invalid credentials for a wrong key, Connected with credits for the right one', async () => {
    const { peer, apiKey } = await startPeer();
    const desk = await start(dirs.make(), new SessionSecretStore(), { sandbox: 'off' });
    const draftWrong = value<ConnectionTest>(
      await desk.handle('workspaces:test', { draft: { baseUrl: peer.baseUrl, apiKey: 'wrong-key' } }),
    );
    expect(draftWrong).toEqual({
      ok: false,
      message: 'Invalid credentials',
      credits: null,
      workspaceName: null,
    });

    const ws = value<Workspace>(
      await desk.handle('workspaces:create', {
        name: 'Peer',
        baseUrl: `${peer.baseUrl}/`,
        apiKey: 'wrong-key',
      }),
    );
    expect(value<ConnectionTest>(await desk.handle('workspaces:test', { id: ws.id }))).toMatchObject({
      ok: false,
      message: 'Invalid credentials',
    });
    value(await desk.handle('workspaces:update', { id: ws.id, apiKey }));
    const ok = value<ConnectionTest>(await desk.handle('workspaces:test', { id: ws.id }));
    expect(ok).toMatchObject({ ok: true, message: 'Connected', credits: expect.any(Number) });
    const saved = (await list(desk)).workspaces[0]!;
    expect(saved.lastTest).toMatchObject({ ok: true, credits: ok.credits });
    expect(JSON.stringify(await list(desk))).not.toContain(apiKey);
  });

  it('names the host and what to check when the service is unreachable', async () => {
    const desk = await start(dirs.make(), new SessionSecretStore(), { sandbox: 'off' });
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const result = value<ConnectionTest>(
      await desk.handle('workspaces:test', {
        draft: { baseUrl: `http://127.0.0.1:${port}/v0`, apiKey: 'k' },
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(
      new RegExp(`^Unreachable: .*127\\.0\\.0\\.1:${port}.*connection refused.*Check the base URL`),
    );
  });

  it('times out on a service that never answers, within the bound', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    cleanups.push(
      () =>
        new Promise((r) => {
          sockets.forEach((s) => s.destroy());
          silent.close(r);
        }),
    );
    const port = (silent.address() as AddressInfo).port;
    const desk = await start(dirs.make(), new SessionSecretStore(), {
      sandbox: 'off',
      timings: { connectionTestTimeoutMs: 400 },
    });
    const t0 = performance.now();
    const result = value<ConnectionTest>(
      await desk.handle('workspaces:test', {
        draft: { baseUrl: `http://127.0.0.1:${port}/v0`, apiKey: 'k' },
      }),
    );
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(result).toMatchObject({
      ok: false,
      message: `Timed out: 127.0.0.1:${port} did not answer within 0.4 s. Check the base URL and your network connection, then try again.`,
    });
  });

  it('reports connectivity changes of the active workspace as events', async () => {
    const { peer, apiKey } = await startPeer();
    const desk = await start(dirs.make(), new SessionSecretStore(), {
      sandbox: 'off',
      timings: { connectivityIntervalMs: 100, connectivityTimeoutMs: 300 },
    });
    const seen: boolean[] = [];
    desk.on('app:connectivity-changed', (s) => seen.push(s.online));
    value(await desk.handle('workspaces:create', { name: 'Peer', baseUrl: peer.baseUrl, apiKey }));
    await expect.poll(() => seen.at(-1), { timeout: 10_000 }).toBe(true);
    await peer.close();
    await expect.poll(() => seen.at(-1), { timeout: 10_000 }).toBe(false);
    expect(value(await desk.handle('app:connectivity', {}))).toMatchObject({ online: false });
  });
});
