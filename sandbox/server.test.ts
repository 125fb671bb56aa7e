import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveRecording } from './recordings.ts';
import { silentWav } from './wav.ts';
import { allTime, placeCall, startTestSandbox, testApiKey } from './testing/harness.ts';
import type { TestSandbox } from './testing/harness.ts';

/** Every operation the sandbox serves (v0 and control). */
const operations: Array<[method: string, path: string]> = [
  ['GET', '/v0/calling/history'],
  ['GET', '/v0/calling/call-details?id=x'],
  ['POST', '/v0/calling/v2/outbound/individual'],
  ['POST', '/v0/calling/outbound/individual'],
  ['POST', '/v0/campaign/upload-csv'],
  ['GET', '/v0/campaign/upload-status/x'],
  ['POST', '/v0/campaign/check-balance/x'],
  ['POST', '/v0/campaign/make-call-async'],
  ['POST', '/v0/campaign/save'],
  ['POST', '/v0/campaign/start'],
  ['POST', '/v0/campaign/v2/start'],
  ['GET', '/v0/campaign/all'],
  ['PATCH', '/v0/campaign/terminate'],
  ['PATCH', '/v0/campaign/terminate/calls'],
  ['PATCH', '/v0/campaign/terminate/numbers'],
  ['GET', '/v0/agent/all'],
  ['GET', '/v0/agent/x'],
  ['PATCH', '/v0/agent/v1'],
  ['GET', '/v0/workspace'],
  ['GET', '/v0/workspace/numbers'],
  ['GET', '/v0/not-an-operation'],
  ['GET', '/_sandbox/clock'],
  ['POST', '/_sandbox/clock'],
  ['POST', '/_sandbox/faults'],
  ['DELETE', '/_sandbox/faults'],
  ['POST', '/_sandbox/seed-calls'],
  ['GET', '/_sandbox/stats'],
  ['GET', '/_sandbox/received'],
];

let t: TestSandbox;
let root: string;
beforeAll(async () => {
  t = await startTestSandbox();
  root = t.sb.baseUrl.replace(/\/v0$/, '');
});
afterAll(() => t.close());

describe('authentication on every operation', () => {
  it.each(operations)(
    '%s %s answers the seed 401 without a key and with a wrong key',
    async (method, path) => {
      for (const headers of [{}, { 'x-api-key': `${testApiKey}x` }] as Array<Record<string, string>>) {
        const res = await fetch(`${root}${path}`, {
          method,
          headers: {
            ...headers,
            ...(method === 'GET' || method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
          },
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
        });
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({
          error: { code: '401 Unauthorized', message: 'Invalid credentials' },
        });
      }
    },
  );
});

describe('service root', () => {
  it('binds 127.0.0.1 and serves under /v0', () => {
    expect(t.sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v0$/);
    expect(t.sb.controlUrl).toBe(`${root}/_sandbox`);
  });

  it('answers an unknown operation with 404 and the error object', async () => {
    const r = await t.api('/nope');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('recordings', () => {
  it('serves a saved recording until 24 virtual hours after the call, then 410', async () => {
    const ctx = t.sb.context;
    const call = await placeCall(t);
    const wav = silentWav(1);
    const saved = await saveRecording(ctx, {
      callId: call.id,
      bytes: wav,
      durationSeconds: 1,
    });
    expect(saved.url).toMatch(new RegExp(`^${t.sb.baseUrl}/recordings/[0-9a-f]{32}\\.wav$`));
    const history = await t.api<{ calls: Array<{ id: string; audio_recording: string | null }> }>(
      `/calling/history?${allTime}&limit=100`,
    );
    expect(history.body.calls.find((c) => c.id === call.id)?.audio_recording).toBe(saved.url);
    let res = await fetch(saved.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(wav);
    await t.advance(24 * 3600 - 60);
    expect((await fetch(saved.url)).status).toBe(200);
    await t.advance(60);
    res = await fetch(saved.url);
    expect(res.status).toBe(410);
    expect(await res.json()).toMatchObject({ error: { code: 'recording_expired' } });
    expect((await fetch(`${t.sb.baseUrl}/recordings/unknown.wav`)).status).toBe(404);
  });
});

describe('internal faults', () => {
  it('answers 500 with the seed body when the service itself fails', async () => {
    const own = await startTestSandbox();
    own.sb.context.db.close(); // a real failure: every query now throws
    for (const path of ['/workspace', `/calling/history?${allTime}`, '/agent/all']) {
      const r = await own.api(path);
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: { code: '500 Internal Server Error', message: expect.any(String) } });
    }
    await own.close();
  });
});

describe('determinism and persistence', () => {
  it('gives the same ids for the same seed and different ids for another seed', async () => {
    const a = await startTestSandbox({ seed: 7 });
    const b = await startTestSandbox({ seed: 7 });
    const c = await startTestSandbox({ seed: 8 });
    // Ids and names come from the seed; timestamps follow the (real-time) start of the clock.
    const ids = async (s: TestSandbox) => {
      const agents = (
        await s.api<{ data: { agents: Array<{ id: string; active_agent_version_id: string }> } }>(
          '/agent/all',
        )
      ).body.data.agents;
      const numbers = (
        await s.api<{ workspace_numbers: Array<{ id: string; number_pool_id: string }> }>(
          '/workspace/numbers',
        )
      ).body.workspace_numbers;
      return JSON.stringify([
        agents.map((a) => [a.id, a.active_agent_version_id]),
        numbers.map((n) => [n.id, n.number_pool_id]),
      ]);
    };
    expect(await ids(a)).toBe(await ids(b));
    expect(await ids(a)).not.toBe(await ids(c));
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it('keeps state in --data across restarts, without reusing ids or moving the clock back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
    try {
      const first = await startTestSandbox({ dataDir: dir, seed: 3 });
      await first.control('/seed-calls', { method: 'POST', json: { count: 25 } });
      await first.advance(86_400);
      const clockBefore = (await first.control<{ now: string }>('/clock')).body.now;
      const agentsBefore = (await first.api<{ data: unknown }>('/agent/all')).body.data;
      const idsBefore = (
        await first.api<{ calls: Array<{ id: string }> }>(`/calling/history?${allTime}&limit=100`)
      ).body.calls.map((c) => c.id);
      await first.close();

      const second = await startTestSandbox({ dataDir: dir, seed: 3 });
      expect((await second.api<{ data: unknown }>('/agent/all')).body.data).toEqual(agentsBefore);
      expect((await second.api<{ total: number }>(`/calling/history?${allTime}&limit=0`)).body.total).toBe(
        25,
      );
      expect(Date.parse((await second.control<{ now: string }>('/clock')).body.now)).toBeGreaterThanOrEqual(
        Date.parse(clockBefore),
      );
      await second.control('/seed-calls', { method: 'POST', json: { count: 25 } });
      const all = (
        await second.api<{ calls: Array<{ id: string }> }>(`/calling/history?${allTime}&limit=100`)
      ).body.calls.map((c) => c.id);
      expect(new Set(all).size).toBe(50);
      expect(all).toEqual(expect.arrayContaining(idsBefore));
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
