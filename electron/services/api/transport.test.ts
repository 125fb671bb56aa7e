import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, redact } from './apiError.ts';
import { createApiClient } from './client.ts';
import { parseRetryAfter } from './transport.ts';

// A tiny peer that misbehaves in ways the sandbox does not (wrong shapes, odd statuses).
let server: http.Server;
let base: string;
let next: { status: number; body: string; headers?: Record<string, string> } = { status: 200, body: '{}' };
let lastHeaders: http.IncomingHttpHeaders = {};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    lastHeaders = req.headers;
    res.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
    res.end(next.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v0/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const key = 'transport-key-77';
const c = () => createApiClient({ baseUrl: base, apiKey: async () => key, maxRetries: 0 });

async function err(p: Promise<unknown>): Promise<ApiError> {
  return p.then(
    () => {
      throw new Error('expected failure');
    },
    (e: unknown) => {
      if (e instanceof ApiError) return e;
      throw e;
    },
  );
}

describe('transport', () => {
  it('sends the key header and tolerates a trailing slash in the base URL', async () => {
    next = { status: 200, body: JSON.stringify({ workspace_info: { id: 'w', name: 'W', credits: 3025.0 } }) };
    expect((await c().getWorkspaceInfo()).credits).toBe(3025);
    expect(lastHeaders['x-api-key']).toBe(key);
  });

  it('reports a success body of the wrong shape or not JSON as invalid_response', async () => {
    next = { status: 200, body: JSON.stringify({ workspace: {} }) };
    expect((await err(c().getWorkspaceInfo())).kind).toBe('invalid_response');
    next = { status: 200, body: '<html>' };
    expect((await err(c().getWorkspaceInfo())).kind).toBe('invalid_response');
  });

  it('reads history total "many" as unknown (null)', async () => {
    next = {
      status: 200,
      body: JSON.stringify({ calls: [], limit: 10, offset: 0, count: 0, total: 'many' }),
    };
    const window = { start_date: '2026-01-01T00:00:00Z', end_date: '2026-02-01T00:00:00Z' };
    expect((await c().listCallHistory(window)).total).toBeNull();
  });

  it.each([
    [402, { detail: 'Insufficient credits' }, 'rejected', 'Insufficient credits'],
    [403, { error: { code: 'forbidden', message: 'No permission' } }, 'unauthorized', 'No permission'],
    [
      409,
      { detail: [{ loc: ['body', 'list_id'], msg: 'already started' }] },
      'rejected',
      'list_id: already started',
    ],
    [418, 'teapot', 'rejected', 'HTTP 418'],
    [502, '', 'server', 'HTTP 502'],
  ])('maps %i to a kind and a message from the body', async (status, body, kind, message) => {
    next = { status, body: typeof body === 'string' ? body : JSON.stringify(body) };
    const e = await err(c().listAgents());
    expect(e).toMatchObject({ kind, status });
    expect(e.message).toContain(message);
  });

  it('masks the key wherever a message would carry it', async () => {
    next = { status: 400, body: JSON.stringify({ detail: `bad key ${key} for ${key}` }) };
    const e = await err(c().listAgents());
    expect(e.message).toBe('bad key *** for ***');
    expect(redact('a secret b', ['secret', null])).toBe('a *** b');
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter('0.5')).toBe(0.5);
    expect(parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThanOrEqual(9);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it('lets the caller cancel', async () => {
    next = { status: 200, body: '{}' };
    const ac = new AbortController();
    ac.abort(new Error('cancelled by user'));
    await expect(c().getWorkspaceInfo({ signal: ac.signal })).rejects.toThrow('cancelled by user');
  });
});
