// Integration: a history page that drips (headers at once, then a few bytes now and then) from a
// fake service on 127.0.0.1 is abandoned after one slow window and retried, not held for the whole
// request timeout per attempt. The rate is configured small so the test takes a few seconds.
import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../api/client.ts';
import { runHistorySync, SyncFailure } from './historySync.ts';
import { openTempDb } from './testing.ts';

const API_KEY = 'sk-drip-test';
const RATE = { bytes: 64, windowMs: 400 };
const fast = { baseDelayMs: 20, maxDelayMs: 100, maxAttempts: 3, initialWindowMs: 7 * 86_400_000 };

interface FakeService {
  baseUrl: string;
  requests: number;
  /** Dripping responses whose connection the client closed. */
  abandoned: number;
  close(): Promise<void>;
}

/** Answers /v0/calling/history; the requests `drip` says yes to get one byte every 100 ms instead. */
async function fakeService(drip: (n: number) => boolean): Promise<FakeService> {
  const at = new Date(Date.now() - 3_600_000).toISOString();
  const calls = ['c1', 'c2', 'c3'].map((id) => ({
    id,
    status: 'completed',
    created_at: at,
    call_duration: 30,
  }));
  const body = JSON.stringify({ calls, limit: 1000, offset: 0, count: calls.length, total: calls.length });
  const state: FakeService = {
    baseUrl: '',
    requests: 0,
    abandoned: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const dripping = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    state.requests++;
    if (req.headers['x-api-key'] !== API_KEY || !req.url?.startsWith('/v0/calling/history')) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"no"}}');
      return;
    }
    if (!drip(state.requests)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    dripping.add(res);
    let i = 0;
    const timer = setInterval(() => res.write(body[i++ % body.length]!), 100);
    res.on('close', () => {
      clearInterval(timer);
      if (!res.writableEnded) state.abandoned++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v0`;
  const close = state.close;
  state.close = async () => {
    for (const r of dripping) r.destroy();
    server.closeAllConnections();
    await close();
  };
  return state;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function syncAgainst(service: FakeService) {
  const t = await openTempDb();
  cleanups.push(() => t.close());
  const api = createApiClient({
    baseUrl: service.baseUrl,
    apiKey: async () => API_KEY,
    maxRetries: 0,
    timeoutMs: 30_000,
    minReceiveRate: RATE,
  });
  const started = Date.now();
  const run = runHistorySync({
    db: t.db,
    workspaceId: 'w1',
    fetchHistory: (q, o) => api.listCallHistoryPage(q, o),
    signal: new AbortController().signal,
    sinceMs: Date.now() - 86_400_000,
    policy: fast,
  });
  return { t, run, elapsed: () => Date.now() - started };
}

describe('a dripping history page', () => {
  it('is abandoned after one slow window and retried; the retry stores the page', async () => {
    const service = await fakeService((n) => n === 1);
    cleanups.push(() => service.close());
    const { t, run, elapsed } = await syncAgainst(service);
    const r = await run;
    // One abandoned window and a retry, far below one request timeout (30 s).
    expect(elapsed()).toBeLessThan(10_000);
    expect(r.retries).toBe(1);
    expect(r.inserted).toBe(3);
    expect((await t.db.call('calls.syncState', { workspaceId: 'w1' })).calls).toBe(3);
    // The client closed the dripping connection instead of holding it.
    await expect.poll(() => service.abandoned).toBe(1);
  }, 60_000);

  it('fails the pass after its attempts, each abandoned early, with a message saying it was too slow', async () => {
    const service = await fakeService(() => true);
    cleanups.push(() => service.close());
    const { run, elapsed } = await syncAgainst(service);
    const error = await run.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SyncFailure);
    expect((error as SyncFailure).message).toMatch(/after 3 attempts: .*too slowly/);
    // Three attempts of about one window each, not three request timeouts (30 s each).
    expect(elapsed()).toBeLessThan(15_000);
    await expect.poll(() => service.abandoned).toBe(3);
  }, 60_000);
});
