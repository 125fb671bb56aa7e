import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allTime, startTestSandbox } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());
afterEach(async () => {
  await t.control('/faults', { method: 'DELETE' });
});

const addFault = async (json: unknown) => {
  const r = await t.control<{ faults: Array<{ id: number }> }>('/faults', { method: 'POST', json });
  expect(r.status, r.text).toBe(200);
  return r.body.faults[0]?.id ?? 0;
};

describe('clock', () => {
  it('advances virtual time and sets the speed', async () => {
    const before = await t.control<{ now: string; speed: number }>('/clock');
    expect(before.body.speed).toBe(0);
    const after = await t.control<{ now: string }>('/clock', {
      method: 'POST',
      json: { advance_seconds: 3600 },
    });
    expect(Date.parse(after.body.now) - Date.parse(before.body.now)).toBe(3_600_000);
    const fast = await t.control<{ speed: number; now: string }>('/clock', {
      method: 'POST',
      json: { speed: 1000 },
    });
    expect(fast.body.speed).toBe(1000);
    await new Promise((r) => setTimeout(r, 120));
    const later = await t.control<{ now: string }>('/clock');
    expect(Date.parse(later.body.now) - Date.parse(fast.body.now)).toBeGreaterThanOrEqual(100_000);
    await t.control('/clock', { method: 'POST', json: { speed: 0 } });
  });

  it('refuses a negative advance and unknown fields', async () => {
    expect((await t.control('/clock', { method: 'POST', json: { advance_seconds: -1 } })).status).toBe(400);
    expect((await t.control('/clock', { method: 'POST', json: { rewind: 1 } })).status).toBe(400);
  });
});

describe('faults', () => {
  it('injects 500 with the seed body on the matching path only, then stops after max_count', async () => {
    await addFault({ path: '/workspace', kind: 'error', status: 500, max_count: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await t.api('/workspace');
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: { code: '500 Internal Server Error', message: expect.any(String) } });
    }
    expect((await t.api('/workspace')).status).toBe(200);
    expect((await t.api('/agent/all')).status).toBe(200);
    const list = await t.control<{ faults: Array<{ hits: number }> }>('/faults');
    expect(list.body.faults[0]?.hits).toBe(2);
  });

  it('injects 429 with Retry-After, matching a glob and a method', async () => {
    await addFault({ path: 'calling/*', method: 'get', kind: 'error', status: 429, retry_after_seconds: 7 });
    const r = await t.api(`/calling/history?${allTime}`);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(r.body).toMatchObject({ error: { code: '429 Too Many Requests' } });
    expect((await t.api('/calling/v2/outbound/individual', { method: 'POST', json: {} })).status).toBe(400);
  });

  it('adds latency', async () => {
    await addFault({ path: '/workspace', kind: 'latency', latency_ms: 300 });
    const t0 = performance.now();
    expect((await t.api('/workspace')).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('drops the connection without an answer', async () => {
    await addFault({ path: '/workspace', kind: 'drop' });
    await expect(fetch(`${t.sb.baseUrl}/workspace`, { headers: { 'x-api-key': 'k' } })).rejects.toThrow();
  });

  it('truncates the body: full Content-Length announced, half sent, connection cut', async () => {
    await addFault({ path: '/agent/all', kind: 'truncate' });
    const { port } = t.sb;
    const raw = await new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      const s = connect(port, '127.0.0.1', () => {
        s.write(
          `GET /v0/agent/all HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-KEY: test-key-0123456789\r\nConnection: close\r\n\r\n`,
        );
      });
      s.on('data', (c) => chunks.push(c));
      s.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      s.on('error', () => undefined);
    });
    const [head, body = ''] = raw.split('\r\n\r\n');
    const announced = Number(/content-length: (\d+)/i.exec(head ?? '')?.[1]);
    expect(announced).toBeGreaterThan(0);
    expect(Buffer.byteLength(body)).toBeLessThan(announced);
    expect(() => JSON.parse(body)).toThrow();
  });

  it('applies a rate between 0 and 1', async () => {
    await addFault({ path: '/workspace', kind: 'error', rate: 0.5 });
    let failures = 0;
    for (let i = 0; i < 40; i++) if ((await t.api('/workspace')).status === 500) failures++;
    expect(failures).toBeGreaterThan(5);
    expect(failures).toBeLessThan(35);
  });

  it('never faults the control API, refuses bad specs, deletes by id', async () => {
    const id = await addFault({ path: '/_sandbox/*', kind: 'error' });
    expect((await t.control('/stats')).status).toBe(200);
    expect(
      (await t.control('/faults', { method: 'POST', json: { path: '/x', kind: 'explode' } })).status,
    ).toBe(400);
    expect(
      (await t.control('/faults', { method: 'POST', json: { path: '/x', kind: 'latency' } })).status,
    ).toBe(400);
    expect((await t.control(`/faults?id=${id}`, { method: 'DELETE' })).body).toEqual({ removed: 1 });
  });
});

describe('seed-calls and stats', () => {
  it('creates 100,000 historical calls in a few seconds', async () => {
    // The sandbox runs in this process and seeds synchronously: its CPU time is the cost of the
    // work, which (unlike wall-clock time) other processes on a loaded CI machine cannot inflate.
    const cpu0 = process.cpuUsage();
    const r = await t.control<{ created: number }>('/seed-calls', {
      method: 'POST',
      json: { count: 100_000 },
    });
    expect(r.body.created).toBe(100_000);
    const cpu = process.cpuUsage(cpu0);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(10_000);
    const h = await t.api<{ total: number }>(`/calling/history?${allTime}&limit=0`);
    expect(h.body.total).toBeGreaterThanOrEqual(100_000);
    const stats = await t.control<{ calls_by_status: Record<string, number> }>('/stats');
    const byStatus = stats.body.calls_by_status;
    // Realistic shares: mostly completed, then failed; every status present.
    expect(byStatus.completed ?? 0).toBeGreaterThan(50_000);
    expect(byStatus.failed ?? 0).toBeGreaterThan(15_000);
    for (const s of ['cancelled', 'error', 'retry', 'registered'])
      expect(byStatus[s] ?? 0, s).toBeGreaterThan(0);
  });

  it('honours agent_id, bulk_list_id, status and the date range; refuses bad input', async () => {
    const agents = await t.api<{ data: { agents: Array<{ id: string }> } }>('/agent/all');
    const agentId = agents.body.data.agents[1]?.id ?? '';
    const r = await t.control('/seed-calls', {
      method: 'POST',
      json: {
        count: 50,
        agent_id: agentId,
        bulk_list_id: 'seeded-list',
        status: 'completed',
        start_date: '2025-01-01T00:00:00+05:30',
        end_date: '2025-01-02T00:00:00+05:30',
      },
    });
    expect(r.status).toBe(200);
    const h = await t.api<{
      total: number;
      calls: Array<{
        agent: { id: string };
        status: string;
        created_at: string;
        audio_recording: string | null;
        transcript: string;
      }>;
    }>(`/calling/history?${allTime}&bulk_list_id=seeded-list&limit=50`);
    expect(h.body.total).toBe(50);
    for (const c of h.body.calls) {
      expect(c.agent.id).toBe(agentId);
      expect(c.status).toBe('completed');
      expect(Date.parse(c.created_at)).toBeGreaterThanOrEqual(Date.parse('2025-01-01T00:00:00+05:30'));
      expect(Date.parse(c.created_at)).toBeLessThanOrEqual(Date.parse('2025-01-02T00:00:00+05:30'));
      expect(JSON.parse(c.transcript)).toEqual(
        expect.arrayContaining([expect.objectContaining({ bot: expect.any(String) })]),
      );
    }
    // Calls from 2025 are long past their 24-hour recording window.
    const url = h.body.calls[0]?.audio_recording ?? '';
    expect((await fetch(url)).status).toBe(410);
    for (const bad of [
      { count: 0 },
      { count: 10, status: 'nope' },
      { count: 10, agent_id: 'nope' },
      { count: 10, start_date: 'yesterday' },
    ]) {
      expect((await t.control('/seed-calls', { method: 'POST', json: bad })).status).toBe(400);
    }
  });

  it('reports start counts and an (empty, ready) webhook delivery log', async () => {
    const stats = await t.control<Record<string, unknown>>('/stats');
    expect(stats.body).toMatchObject({
      starts: expect.any(Array),
      webhook_deliveries: expect.any(Array),
      webhook_delivery_count: expect.any(Number),
    });
    t.sb.context.store.deliveries.insert({
      call_id: 'c1',
      event_type: 'call_completed',
      source: 'subscription',
      target_url: 'http://127.0.0.1:9/x',
      method: 'POST',
      request_headers: '{}',
      payload: '{"event_type":"call_completed"}',
      attempt: 1,
      status: 'failed',
      response_status: 500,
      error: null,
      scheduled_at: 0,
      attempted_at: 0,
      created_at: 0,
    });
    const again = await t.control<{ webhook_deliveries: Array<{ payload: unknown; status: string }> }>(
      '/stats',
    );
    expect(again.body.webhook_deliveries.at(-1)).toMatchObject({
      payload: { event_type: 'call_completed' },
      status: 'failed',
    });
  });

  it('needs the API key', async () => {
    const r = await t.control('/stats', { headers: { 'x-api-key': 'nope' } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: { code: '401 Unauthorized', message: 'Invalid credentials' } });
  });
});
