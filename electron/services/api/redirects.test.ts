// The API key never follows a redirect to another origin: a fake service on 127.0.0.1 redirects
// requests to a second server (another port) that counts the X-API-KEY values it receives.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from './apiError.ts';
import { createApiClient } from './client.ts';

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: string;
}

function listen(handler: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const key = req.headers['x-api-key'];
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        key: typeof key === 'string' ? key : undefined,
        body,
      });
      handler(req, body, res);
    });
  });
  return { server, seen };
}

const workspaceBody = JSON.stringify({ workspace_info: { id: 'w', name: 'W', credits: 12 } });
const historyBody = JSON.stringify({ calls: [], limit: 10, offset: 0, count: 0, total: 0 });
const patchBody = JSON.stringify({ message: 'ok' });

// The other host: answers everything as the service would, so a followed redirect would succeed.
const other = listen((req, _body, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  if (req.url?.includes('/workspace')) res.end(workspaceBody);
  else if (req.url?.includes('/calling/history')) res.end(historyBody);
  else res.end(patchBody);
});
let otherBase = '';

// The service: /v0 redirects away; /same/* redirects within its own origin.
const service = listen((req, _body, res) => {
  const url = req.url ?? '';
  const to = (status: number, location: string) => {
    res.writeHead(status, { location, 'content-type': 'text/plain' });
    res.end('moved');
  };
  if (url.startsWith('/away/v0/calling/history')) return to(307, `${otherBase}/v0/calling/history`);
  if (url.startsWith('/away/v0/workspace')) return to(302, `${otherBase}/v0/workspace`);
  if (url.startsWith('/away/v0/agent/v1')) return to(307, `${otherBase}/v0/agent/v1`);
  if (url.startsWith('/same/v0/workspace')) return to(302, '/real/v0/workspace');
  if (url.startsWith('/same/v0/agent/v1')) return to(307, '/real/v0/agent/v1');
  if (url.startsWith('/see-other/v0/agent/v1')) return to(303, '/real/v0/workspace');
  if (url.startsWith('/loop/')) return to(307, url);
  if (url.startsWith('/tls/v0/workspace')) return to(307, `http://${req.headers.host}/real/v0/workspace`);
  res.writeHead(200, { 'content-type': 'application/json' });
  if (url.startsWith('/real/v0/workspace')) res.end(workspaceBody);
  else if (url.startsWith('/real/v0/agent/v1')) res.end(patchBody);
  else res.end('{}');
});
let serviceRoot = '';

beforeAll(async () => {
  for (const s of [other.server, service.server]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  otherBase = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
  serviceRoot = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of [other.server, service.server]) await new Promise<void>((r) => s.close(() => r()));
});
beforeEach(() => {
  other.seen.length = 0;
  service.seen.length = 0;
});

const key = 'redirect-key-4242';
const client = (prefix: string, extra: Partial<Parameters<typeof createApiClient>[0]> = {}) =>
  createApiClient({
    baseUrl: `${serviceRoot}/${prefix}/v0`,
    apiKey: async () => key,
    bearerToken: async () => 'bearer-token-99',
    maxRetries: 2,
    retryBaseDelayMs: 1,
    ...extra,
  });

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the request to fail');
}

const window = { start_date: '2026-01-01T00:00:00Z', end_date: '2026-01-02T00:00:00Z' };
const subscriptions = {
  agent_id: 'a1',
  event_subscriptions: [
    {
      event_type: ['call_completed' as const],
      callback_url: 'https://hooks.example/x',
      headers: { 'X-Secret': 'hook-secret' },
    },
  ],
};

describe('redirects to another origin', () => {
  it.each([
    ['307 on GET /calling/history', () => client('away').listCallHistory(window)],
    ['302 on GET /workspace', () => client('away').getWorkspaceInfo()],
    ['307 on PATCH /agent/v1', () => client('away').editEventSubscriptions(subscriptions)],
  ])('%s: refused, naming the host; the other port receives no key', async (_name, call) => {
    const e = await failure(call());
    expect(e.kind).toBe('redirect_refused');
    expect(e.message).toContain(new URL(otherBase).host);
    expect(e.message).not.toContain(key);
    expect(e.attempts).toBe(1); // not retried
    expect(other.seen.filter((s) => s.key !== undefined)).toHaveLength(0);
    expect(other.seen).toHaveLength(0);
    expect(service.seen).toHaveLength(1);
    expect(service.seen[0]?.key).toBe(key);
  });

  it('https never downgrades to http, even on the same host and port', async () => {
    // TLS is played by the fetch: it carries https:// requests to the plain-HTTP fake service.
    const tlsFetch: typeof fetch = (input, init) =>
      fetch(String(input instanceof Request ? input.url : input).replace(/^https:/, 'http:'), init);
    const httpsRoot = serviceRoot.replace(/^http:/, 'https:');
    const e = await failure(
      createApiClient({
        baseUrl: `${httpsRoot}/tls/v0`,
        apiKey: async () => key,
        fetch: tlsFetch,
        maxRetries: 0,
      }).getWorkspaceInfo(),
    );
    expect(e.kind).toBe('redirect_refused');
    expect(e.message).toMatch(/from https to http:\/\/127\.0\.0\.1/);
    expect(service.seen.map((s) => s.url)).toEqual(['/tls/v0/workspace']);
  });
});

describe('redirects within the service', () => {
  it('follows a same-origin 302 on GET', async () => {
    const info = await client('same').getWorkspaceInfo();
    expect(info.credits).toBe(12);
    expect(service.seen.map((s) => [s.url, s.key])).toEqual([
      ['/same/v0/workspace', key],
      ['/real/v0/workspace', key],
    ]);
  });

  it('keeps the method and body on a same-origin 307 PATCH', async () => {
    await client('same').editEventSubscriptions(subscriptions);
    expect(service.seen.map((s) => [s.method, s.url])).toEqual([
      ['PATCH', '/same/v0/agent/v1'],
      ['PATCH', '/real/v0/agent/v1'],
    ]);
    expect(service.seen[1]?.body).toBe(service.seen[0]?.body);
    expect(service.seen[1]?.body).toContain('edit_event_subscriptions');
  });

  it('turns a 303 into a GET without a body', async () => {
    await client('see-other').editEventSubscriptions(subscriptions);
    expect(service.seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['PATCH', '/see-other/v0/agent/v1', expect.stringContaining('agent_id')],
      ['GET', '/real/v0/workspace', ''],
    ]);
  });

  it('stops a redirect loop after a few hops', async () => {
    const e = await failure(client('loop', { maxRetries: 0 }).getWorkspaceInfo());
    expect(e.kind).toBe('invalid_response');
    expect(e.message).toMatch(/redirected getWorkspaceInfo more than 5 times/);
    expect(service.seen).toHaveLength(6);
  });
});
