// workspaces:update and the address a workspace's key is sent to (real SQLite worker, the real OS
// keychain under scripts/with-keyring.sh, real HTTP servers that record what reaches them).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Workspace } from '../../../shared/ipc/channels/workspaces.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { KeychainSecretStore } from '../secrets/keychainSecretStore.ts';
import type { SecretStore } from '../secrets/secretStore.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';

const dirs = tempDirs('desk-ws-');
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  dirs.cleanup();
});

const value = <T>(r: { ok: boolean; value?: unknown; error?: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value as T;
};

/** An HTTP server that answers 401 to everything and keeps what reached it (the app's background
 * work reaches the active workspace too: the connectivity probe without a key, the agents sync). */
async function recorder(): Promise<{
  baseUrl: string;
  origin: string;
  hits: Array<{ path: string; key: string }>;
}> {
  const hits: Array<{ path: string; key: string }> = [];
  const server: Server = createServer((req, res) => {
    hits.push({ path: req.url ?? '', key: String(req.headers['x-api-key'] ?? '') });
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Unauthorized"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { baseUrl: `${origin}/v0`, origin, hits };
}

/** The real keychain (a service of this test's own) when there is one, else this session's memory. */
async function secretStore(): Promise<SecretStore> {
  if (process.env.DESK_KEYRING_READY !== '1') return new SessionSecretStore();
  return KeychainSecretStore.open({ service: `campaign-desk-test-${randomBytes(4).toString('hex')}` });
}

async function start(): Promise<{ desk: Desk; secrets: SecretStore }> {
  const secrets = await secretStore();
  const desk = await createDesk({
    dataDir: dirs.make(),
    host: 'browser',
    version: '1',
    sandbox: 'off',
    secrets,
  });
  cleanups.push(() => desk.close());
  return { desk, secrets };
}

/** The keys a server received (none for the connectivity probe). */
const keysSeen = (hits: Array<{ key: string }>) => [...new Set(hits.map((h) => h.key).filter(Boolean))];

const list = async (desk: Desk) =>
  value<{ workspaces: Workspace[] }>(await desk.handle('workspaces:list', {})).workspaces;

/** A workspace with a key and a bearer token, removed after the test. */
async function createAcme(desk: Desk, baseUrl: string, key: string): Promise<Workspace> {
  const ws = value<Workspace>(
    await desk.handle('workspaces:create', { name: 'Acme', baseUrl, apiKey: key, bearerToken: 'bearer-1' }),
  );
  cleanups.push(() => desk.handle('workspaces:remove', { id: ws.id }));
  return ws;
}

describe('workspaces:update and the address the key goes to', () => {
  it('refuses a new server without the key entered again: the stored key never reaches it', async () => {
    const trusted = await recorder();
    const other = await recorder();
    const { desk, secrets } = await start();
    const key = `sk-${randomBytes(8).toString('hex')}`;
    const ws = await createAcme(desk, trusted.baseUrl, key);

    for (const baseUrl of [other.baseUrl, `${trusted.origin.replace('http:', 'https:')}/v0`]) {
      const moved = await desk.handle('workspaces:update', { id: ws.id, baseUrl });
      expect(moved).toMatchObject({
        ok: false,
        error: {
          code: 'invalid_request',
          field: 'apiKey',
          message: expect.stringMatching(/^Enter the API key again/),
        },
      });
    }
    // Nothing changed, and using the workspace reaches only its own address, with its own key.
    expect((await list(desk))[0]).toMatchObject({
      baseUrl: trusted.baseUrl,
      hasApiKey: true,
      hasBearerToken: true,
    });
    await desk.handle('workspaces:test', { id: ws.id });
    expect(other.hits).toEqual([]);
    expect(trusted.hits).toContainEqual({ path: '/v0/workspace', key });
    expect(keysSeen(trusted.hits)).toEqual([key]);

    // A rename to a taken name along with the move fails as a whole: the old key and token stay.
    value(
      await desk.handle('workspaces:create', { name: 'Taken', baseUrl: trusted.baseUrl, apiKey: 'k-taken' }),
    );
    const conflict = await desk.handle('workspaces:update', {
      id: ws.id,
      name: 'Taken',
      baseUrl: other.baseUrl,
      apiKey: 'sk-new',
    });
    expect(conflict).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(await secrets.get(ws.id, 'apiKey')).toBe(key);
    expect(await secrets.get(ws.id, 'bearerToken')).toBe('bearer-1');
    expect(other.hits).toEqual([]);

    // With the key entered again the move is saved; the bearer token not given again is dropped.
    const newKey = `sk-${randomBytes(8).toString('hex')}`;
    const saved = value<Workspace>(
      await desk.handle('workspaces:update', { id: ws.id, baseUrl: other.baseUrl, apiKey: newKey }),
    );
    expect(saved).toMatchObject({ baseUrl: other.baseUrl, hasApiKey: true, hasBearerToken: false });
    expect(await secrets.get(ws.id, 'bearerToken')).toBeNull();
    await desk.handle('workspaces:test', { id: ws.id });
    expect(other.hits).toContainEqual({ path: '/v0/workspace', key: newKey });
    expect(keysSeen(other.hits)).toEqual([newKey]);

    // Moving with a bearer token given again keeps that token.
    value(
      await desk.handle('workspaces:update', {
        id: ws.id,
        baseUrl: trusted.baseUrl,
        apiKey: key,
        bearerToken: 'bearer-2',
      }),
    );
    expect(await secrets.get(ws.id, 'bearerToken')).toBe('bearer-2');
    expect(keysSeen(trusted.hits)).toEqual([key]);
  });

  it('a new path on the same server (same scheme, host and port) keeps the key and the token', async () => {
    const server = await recorder();
    const { desk } = await start();
    const key = `sk-${randomBytes(8).toString('hex')}`;
    const ws = await createAcme(desk, server.baseUrl, key);
    const host = server.origin.replace('http://127.0.0.1', 'HTTP://127.0.0.1');
    const moved = value<Workspace>(
      await desk.handle('workspaces:update', { id: ws.id, baseUrl: `${host}/ca/api/v0/` }),
    );
    expect(moved).toMatchObject({
      baseUrl: `${host}/ca/api/v0`,
      hasApiKey: true,
      hasBearerToken: true,
    });
    await desk.handle('workspaces:test', { id: ws.id });
    expect(server.hits).toContainEqual({ path: '/ca/api/v0/workspace', key });
    expect(keysSeen(server.hits)).toEqual([key]);
  });
});
