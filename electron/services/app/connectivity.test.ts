// The status indicator's words come from here: a real desk with the built-in sandbox (real HTTP),
// a workspace whose key the sandbox refuses, and a fake service on 127.0.0.1 that answers 500.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../../shared/ipc/result.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';

const dirs = tempDirs('desk-connectivity-');
let desk: Desk;
const server = createServer((req, res) => {
  res.writeHead(req.method === 'HEAD' ? 200 : 500, { 'content-type': 'application/json' });
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ error: { code: '500', message: 'Boom' } }));
});
let failingUrl = '';

const value = <T>(r: Result<unknown>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
};

beforeAll(async () => {
  desk = await createDesk({
    dataDir: dirs.make(),
    host: 'browser',
    version: '1',
    secrets: new SessionSecretStore(),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  failingUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v0`;
}, 60_000);
afterAll(async () => {
  await desk?.close();
  await new Promise((r) => server.close(r));
  dirs.cleanup();
});

type State = { status?: string; online: boolean; checkedAt: string };

/** The first check made after switching to workspace `id` (a switch checks at once). */
async function statusAfterSwitch(id: string): Promise<State> {
  const before = value<State>(await desk.handle('app:connectivity', {})).checkedAt;
  value(await desk.handle('workspaces:set-active', { id }));
  let c = value<State>(await desk.handle('app:connectivity', {}));
  for (let i = 0; i < 100 && c.checkedAt === before; i++) {
    await new Promise((r) => setTimeout(r, 50));
    c = value(await desk.handle('app:connectivity', {}));
  }
  return c;
}

describe('the active workspace’s status', () => {
  it('is online for the sandbox, key rejected for a wrong key, service error for a 500', async () => {
    const { workspaces } = value<{ workspaces: Array<{ id: string; baseUrl: string; isSandbox: boolean }> }>(
      await desk.handle('workspaces:list', {}),
    );
    const sandbox = workspaces.find((w) => w.isSandbox)!;
    expect(value<{ status?: string }>(await desk.handle('app:connectivity', {})).status).toBe('online');

    const wrong = value<{ id: string }>(
      await desk.handle('workspaces:create', {
        name: 'Wrong key',
        baseUrl: sandbox.baseUrl,
        apiKey: 'not-the-sandbox-key-123',
        sessionOnly: true,
      }),
    );
    expect(await statusAfterSwitch(wrong.id)).toMatchObject({ online: true, status: 'key-rejected' });

    const failing = value<{ id: string }>(
      await desk.handle('workspaces:create', {
        name: 'Failing',
        baseUrl: failingUrl,
        apiKey: 'any-key-0123456789',
        sessionOnly: true,
      }),
    );
    expect(await statusAfterSwitch(failing.id)).toMatchObject({ online: true, status: 'service-error' });

    value(await desk.handle('workspaces:set-active', { id: sandbox.id }));
  }, 60_000);
});
