import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DESK_SOCKET_PATH, serverMessageSchema } from '../../shared/ipc/wire.ts';
import type { ServerMessage } from '../../shared/ipc/wire.ts';
import { tempDirs } from '../services/db/testing.ts';
import { SessionSecretStore } from '../services/secrets/sessionSecretStore.ts';
import { startBrowserHost } from './startBrowserHost.ts';
import type { BrowserHost } from './startBrowserHost.ts';

const dirs = tempDirs('desk-host-');
const hosts: BrowserHost[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  sockets.splice(0).forEach((s) => s.terminate());
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  dirs.cleanup();
});

/** A renderer build stand-in, and a secret file beside it that must never be served. */
function staticFixture() {
  const root = dirs.make();
  const staticDir = join(root, 'renderer');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(
    join(staticDir, 'index.html'),
    '<!doctype html><title>Campaign Desk</title><div id="root"></div>',
  );
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("app")');
  writeFileSync(join(root, 'secret.txt'), 'TOP SECRET');
  return staticDir;
}

async function start() {
  const host = await startBrowserHost({
    dataDir: dirs.make(),
    staticDir: staticFixture(),
    sandbox: 'off',
    secrets: new SessionSecretStore(),
    version: '1.2.3',
  });
  hosts.push(host);
  return host;
}

/** Raw HTTP (fetch would normalise the path and forbids setting Host). */
function get(
  host: BrowserHost,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: host.port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

type Open = {
  ws: WebSocket;
  messages: ServerMessage[];
  next(pred: (m: ServerMessage) => boolean): Promise<ServerMessage>;
};

function connect(
  host: BrowserHost,
  opts: { token?: string | null; origin?: string | null; path?: string } = {},
) {
  const token = opts.token === undefined ? host.token : opts.token;
  const query = token === null ? '' : `?token=${encodeURIComponent(token)}`;
  const origin = opts.origin === undefined ? host.origin : opts.origin;
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}${opts.path ?? DESK_SOCKET_PATH}${query}`, {
    ...(origin === null ? {} : { origin }),
  });
  sockets.push(ws);
  return new Promise<Open | { refused: number }>((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => resolve({ refused: res.statusCode ?? 0 }));
    ws.once('error', reject);
    ws.once('open', () => {
      const messages: ServerMessage[] = [];
      const waiters: Array<{ pred: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }> = [];
      ws.on('message', (data) => {
        const message = serverMessageSchema.parse(JSON.parse(data.toString()));
        messages.push(message);
        for (const w of [...waiters]) {
          if (w.pred(message)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(message);
          }
        }
      });
      resolve({
        ws,
        messages,
        next: (pred) =>
          new Promise((res) => {
            const found = messages.find(pred);
            if (found) return res(found);
            waiters.push({ pred, resolve: res });
          }),
      });
    });
  });
}

const opened = async (p: ReturnType<typeof connect>): Promise<Open> => {
  const result = await p;
  if ('refused' in result) throw new Error(`refused with ${result.refused}`);
  return result;
};

const invoke = async (conn: Open, id: number, channel: string, request: unknown) => {
  conn.ws.send(JSON.stringify({ type: 'invoke', id, channel, request }));
  const reply = await conn.next((m) => m.type === 'result' && m.id === id);
  return reply.type === 'result' ? reply.result : null;
};

describe('browser host: static files', () => {
  it('prints a URL on 127.0.0.1 with a 32-byte token in the fragment', async () => {
    const host = await start();
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/#token=${host.token}`);
    expect(Buffer.from(host.token, 'base64url')).toHaveLength(32);
    const other = await start();
    expect(other.token).not.toBe(host.token);
  });

  it('serves the renderer with a CSP and hardening headers', async () => {
    const host = await start();
    const index = await get(host, '/');
    expect(index.status).toBe(200);
    expect(index.body).toContain('<title>Campaign Desk</title>');
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(index.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${host.port}${DESK_SOCKET_PATH}`);
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    const js = await get(host, '/assets/app.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const head = await get(host, '/assets/app.js', { method: 'HEAD' });
    expect([head.status, head.body, head.headers['content-length']]).toEqual([
      200,
      '',
      String('console.log("app")'.length),
    ]);
    // Client-side routes get the app; missing files with an extension do not.
    expect((await get(host, '/settings/workspaces')).body).toContain('<title>Campaign Desk</title>');
    expect((await get(host, '/assets/missing.js')).status).toBe(404);
  });

  it('allows GET and HEAD only', async () => {
    const host = await start();
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      const res = await get(host, '/', { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
  });

  it('never serves a file outside the renderer folder', async () => {
    const host = await start();
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00index.html',
      '/%E0%A4%A',
      '//etc/passwd',
      '/assets/../../secret.txt',
    ]) {
      const res = await get(host, path);
      expect(res.body, path).not.toContain('TOP SECRET');
      expect(res.body, path).not.toContain('root:');
      // Either refused, or (for an extension-less path inside the root) the app's own index.html.
      if (res.status === 200) expect(res.body, path).toContain('<title>Campaign Desk</title>');
      else expect([400, 404], `${path} → ${res.status}`).toContain(res.status);
    }
  });

  it('refuses requests for another Host name (DNS rebinding)', async () => {
    const host = await start();
    const res = await get(host, '/', { headers: { Host: `evil.example:${host.port}` } });
    expect(res.status).toBe(403);
  });
});

describe('browser host: WebSocket bridge (real ws client)', () => {
  it('with the right token and origin answers the contract and forwards events', async () => {
    const host = await start();
    const conn = await opened(connect(host));
    expect(await invoke(conn, 1, 'app:info', {})).toEqual({
      ok: true,
      value: { version: '1.2.3', host: 'browser', keychain: { available: true } },
    });
    const created = await invoke(conn, 2, 'workspaces:create', {
      name: 'A',
      baseUrl: 'https://a.test/v0',
      apiKey: 'k-123456',
    });
    expect(created).toMatchObject({ ok: true, value: { name: 'A', hasApiKey: true } });
    const event = await conn.next((m) => m.type === 'event' && m.event === 'workspaces:changed');
    expect(event).toEqual({
      type: 'event',
      event: 'workspaces:changed',
      payload: { activeId: expect.any(String) },
    });
    expect(JSON.stringify(conn.messages)).not.toContain('k-123456');
  });

  it('refuses a wrong or missing token with 401', async () => {
    const host = await start();
    expect(await connect(host, { token: 'wrong' })).toEqual({ refused: 401 });
    expect(await connect(host, { token: `${host.token}x` })).toEqual({ refused: 401 });
    expect(await connect(host, { token: null })).toEqual({ refused: 401 });
    expect(await connect(host, { token: '' })).toEqual({ refused: 401 });
  });

  it('refuses a foreign or missing Origin with 403, even with the right token', async () => {
    const host = await start();
    expect(await connect(host, { origin: 'http://evil.example' })).toEqual({ refused: 403 });
    expect(await connect(host, { origin: `http://localhost:${host.port}` })).toEqual({ refused: 403 });
    expect(await connect(host, { origin: `https://127.0.0.1:${host.port}` })).toEqual({ refused: 403 });
    expect(await connect(host, { origin: null })).toEqual({ refused: 403 });
  });

  it('refuses other socket paths', async () => {
    const host = await start();
    expect(await connect(host, { path: '/other' })).toEqual({ refused: 404 });
  });

  it('survives malformed messages and keeps answering', async () => {
    const host = await start();
    const conn = await opened(connect(host));
    const junk: Array<string | Buffer> = [
      'not json',
      '',
      '{',
      'null',
      '42',
      '"invoke"',
      '[]',
      JSON.stringify({ type: 'invoke' }),
      JSON.stringify({ type: 'subscribe', id: 1 }),
      JSON.stringify({ type: 'invoke', id: -1, channel: 'app:info', request: {} }),
      JSON.stringify({ type: 'invoke', id: 1.5, channel: 'app:info', request: {} }),
      JSON.stringify({ type: 'invoke', id: '7', channel: 'app:info', request: {} }),
      JSON.stringify({ type: 'invoke', id: 1e300, channel: 'app:info', request: {} }),
      JSON.stringify({ type: 'invoke', id: 8, channel: 42, request: {} }),
      JSON.stringify({ type: 'invoke', id: 9, channel: '__proto__', request: {} }),
      JSON.stringify({ type: 'invoke', id: 10, channel: 'workspaces:create', request: 'x'.repeat(100_000) }),
      `{"type":"invoke","id":11,"channel":"app:info","request":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      Buffer.from([0xff, 0x00, 0x13]),
    ];
    for (const message of junk) conn.ws.send(message);
    const answered = await Promise.all(
      [8, 9, 10, 11].map((id) => conn.next((m) => m.type === 'result' && m.id === id)),
    );
    for (const reply of answered)
      expect(reply).toMatchObject({ result: { ok: false, error: { code: 'invalid_request' } } });
    expect(await invoke(conn, 100, 'app:info', {})).toMatchObject({ ok: true });
    expect(conn.ws.readyState).toBe(WebSocket.OPEN);
    expect((await get(host, '/')).status).toBe(200);
  });

  it('closes open sockets when the host stops', async () => {
    const host = await start();
    const conn = await opened(connect(host));
    const closed = new Promise<number>((resolve) => conn.ws.once('close', (code) => resolve(code)));
    await host.close();
    expect(await closed).toBe(1001);
  });
});
