// Webhook delivery over real HTTP to a local receiver: payloads of the six event types, the
// subscriber's headers and method, per-call and per-campaign callbacks, the retry schedule on the
// virtual clock (immediate, +10 s, +1 min, +2 min), give-up, and success on 200 only.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  allProcessingCompletedPayloadSchema,
  callCompletedPayloadSchema,
  callStartedPayloadSchema,
  clientAnalysisCompletedPayloadSchema,
  legacyCallbackPayloadSchema,
  platformAnalysisCompletedPayloadSchema,
  recordingCompletedPayloadSchema,
} from '../../shared/service/webhooks.ts';
import { eventTypes } from '../../shared/service/enums.ts';
import { allTime, placeCall, startTestSandbox, testBearer } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';
import { dayAt, loanCall, seeded, setDialer, startSmallCampaign } from '../dialer/testSupport.ts';
import type { Seeded } from '../dialer/testSupport.ts';
import { sendOnce } from './deliver.ts';
import { startWebhooks, webhooksOf } from './index.ts';
import { startReceiver } from './testReceiver.ts';
import type { Receiver } from './testReceiver.ts';

let t: TestSandbox;
let s: Seeded;
let rx: Receiver;
beforeAll(async () => {
  t = await startTestSandbox({ seed: 9 });
  s = await seeded(t);
  rx = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await rx.close();
});
beforeEach(async () => {
  rx.received.length = 0;
  rx.respond(() => 200);
  await subscribe([]);
  await setDialer(t, { shares: { answered: 1 } });
});
afterEach(async () => {
  await webhooksOf(t.sb.context)?.idle();
});

interface DeliveryLog {
  call_id: string;
  event_type: string;
  source: string;
  target_url: string;
  method: string;
  request_headers: Record<string, string>;
  attempt: number;
  status: string;
  response_status: number | null;
  error: string | null;
  scheduled_at: string | null;
  attempted_at: string | null;
}

async function subscribe(subs: unknown[], agentId = s?.agentId): Promise<void> {
  if (!agentId) return;
  const r = await t.api('/agent/v1', {
    method: 'PATCH',
    headers: { authorization: `Bearer ${testBearer}` },
    json: { operation: 'edit_event_subscriptions', agent_id: agentId, event_subscriptions: subs },
  });
  if (r.status !== 200) throw new Error(`subscribe: ${r.text}`);
}

const call = async (extra: Record<string, unknown> = {}) => (await loanCall(t, s, extra)).id;

async function deliveries(callId: string, url?: string): Promise<DeliveryLog[]> {
  const r = await t.control<{ webhook_deliveries: DeliveryLog[] }>('/stats?deliveries_limit=10000');
  return r.body.webhook_deliveries.filter(
    (d) => d.call_id === callId && (url === undefined || d.target_url === url),
  );
}

/** Wait (real time) until the log shows `n` finished attempts for the call and URL. */
async function settled(callId: string, url: string, n: number): Promise<DeliveryLog[]> {
  const until = Date.now() + 15_000; // only guards against a hang: a loaded machine may be slow
  for (;;) {
    const rows = await deliveries(callId, url);
    if (rows.filter((d) => d.status !== 'pending').length >= n) return rows;
    if (Date.now() > until)
      throw new Error(`waited for ${n} finished attempts, log: ${JSON.stringify(rows)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Let real time pass so a delivery that should NOT happen would have arrived. */
const quiet = () => new Promise((r) => setTimeout(r, 250));

describe('payloads, headers and methods', () => {
  it('delivers the six event types with their documented fields, the subscriber headers and method', async () => {
    await subscribe([
      {
        event_type: [...eventTypes],
        callback_url: `${rx.url}/all`,
        headers: { Authorization: 'Bearer hook-secret', 'X-Env': 'test' },
        method_type: 'PUT',
      },
      { event_type: ['call_completed'], callback_url: `${rx.url}/completed-only` },
    ]);
    const id = await call();
    await t.advance(210);
    const got = await rx.waitFor('/all', 6);
    await rx.waitFor('/completed-only', 1);
    await quiet();
    expect(rx.on('/completed-only').map((r) => [r.method, r.body.event_type])).toEqual([
      ['POST', 'call_completed'],
    ]);
    expect(got.map((r) => r.body.event_type).sort()).toEqual([...eventTypes].sort());
    for (const r of got) {
      expect(r.method).toBe('PUT');
      expect(r.headers.authorization).toBe('Bearer hook-secret');
      expect(r.headers['x-env']).toBe('test');
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.body).toMatchObject({
        call_id: id,
        agent_id: s.agentId,
        agent_name: 'Loan Repayment Reminder',
      });
      expect(r.body.custom_args_values).toMatchObject({ callee_name: 'Asha Rao', loan_amount: '25,000' });
      expect(typeof r.body.workspace_id).toBe('string');
      expect(r.body.call_sid).toMatch(/^CA[0-9a-f]{32}$/);
    }
    const of = (type: string) => got.find((r) => r.body.event_type === type)?.body;
    const hist = await t.api<{ calls: Array<Record<string, unknown>> }>(
      `/calling/history?${allTime}&limit=1000`,
    );
    const row = hist.body.calls.find((c) => c.id === id) ?? {};
    const transcript = JSON.parse(String(row.transcript)) as Array<Record<string, string>>;

    // Exactly the docs' fields: call_started has no numbers, bulk_list_id or retry_count, and
    // call_completed no sub_status.
    const common = [
      'event_type',
      'call_id',
      'call_sid',
      'agent_id',
      'workspace_id',
      'custom_args_values',
      'agent_name',
      'version_id',
      'call_cost',
      'overall_latency_seconds',
      'first_utterance_seconds',
      'tool_call_logs',
    ];
    expect(Object.keys(of('call_started') ?? {}).sort()).toEqual(
      [...common, 'sub_status', 'version_slug', 'version_description'].sort(),
    );
    expect(Object.keys(of('call_completed') ?? {}).sort()).toEqual(
      [
        ...common,
        'call_duration',
        'agent_message_count',
        'user_message_count',
        'call_type',
        'to_number',
        'from_number',
        'bulk_list_id',
        'status',
        'called_on',
        'transcript',
        'retry_count',
      ].sort(),
    );
    const started = callStartedPayloadSchema.parse(of('call_started'));
    expect(started).toMatchObject({ sub_status: 'ACCEPTED', version_slug: 'v2', call_cost: null });
    expect(started.version_description).toContain('Sectioned');

    const completed = callCompletedPayloadSchema.parse(of('call_completed'));
    expect(completed).toMatchObject({
      status: 'completed',
      call_duration: row.call_duration,
      call_cost: row.call_cost,
      call_type: 'outbound',
      to_number: '+919812345678',
      bulk_list_id: null,
      retry_count: 0,
      transcript,
      agent_message_count: transcript.filter((x) => 'bot' in x).length,
      user_message_count: transcript.filter((x) => 'user' in x).length,
    });
    expect((row.from_numbers as string[])[0]).toBe(completed.from_number);
    expect(Date.parse(completed.called_on ?? '')).toBe(Date.parse(String(row.call_attempt_time)));

    const recording = recordingCompletedPayloadSchema.parse(of('recording_completed'));
    expect(recording.recording_url).toBe(row.audio_recording);
    expect(recording.recording_duration).toBe(row.call_duration);
    expect((await fetch(recording.recording_url ?? '')).status).toBe(200);

    const platform = platformAnalysisCompletedPayloadSchema.parse(of('platform_analysis_completed'));
    expect(platform.analysis_data).toMatchObject({
      summary: expect.stringContaining('Asha Rao'),
      classification: expect.any(String),
      key_points: expect.any(Array),
      action_items: expect.any(Array),
      sentiment: expect.any(String),
      call_disconnect_reason: 'agent_hangup',
    });
    const client = clientAnalysisCompletedPayloadSchema.parse(of('client_analysis_completed'));
    expect(client.analysis_data).toMatchObject({ outcome: platform.analysis_data?.classification });

    const all = allProcessingCompletedPayloadSchema.parse(of('all_processing_completed'));
    expect(all).toMatchObject({
      status: 'completed',
      sub_status: 'ACCEPTED',
      transcript,
      recording_url: row.audio_recording,
      platform_analysis: platform.analysis_data,
      client_analysis: client.analysis_data,
      platform_analysis_status: 'completed',
      client_analysis_status: 'completed',
    });

    // Every attempt is in the delivery log; secrets in headers are masked there.
    const log = await settled(id, `${rx.url}/all`, 6);
    expect(log.map((d) => [d.attempt, d.status, d.response_status, d.method, d.source])).toEqual(
      Array(6).fill([1, 'delivered', 200, 'PUT', 'subscription']),
    );
    expect(log[0]?.request_headers).toMatchObject({ Authorization: 'Bear***', 'X-Env': 'test' });
    expect(log.every((d) => d.attempted_at !== null)).toBe(true);
  });

  it('sends an unanswered attempt as call_completed with status retry, and the final failure with all_processing_completed', async () => {
    await setDialer(t, { shares: { no_answer: 1 } });
    await subscribe([{ event_type: [...eventTypes], callback_url: `${rx.url}/na` }]);
    const id = await call({ call_config: { call_retry_config: { retry_count: 1, retry_not_picked: 1 } } });
    await t.advance(46);
    await t.advance(60 + 46);
    await rx.waitFor('/na', 5);
    await quiet();
    // Events due in the same clock step go out concurrently: compare them regardless of order.
    const seen = rx
      .on('/na')
      .map((r) => JSON.stringify([r.body.event_type, r.body.status ?? null, r.body.retry_count]));
    expect(seen.sort()).toEqual(
      [
        ['call_started', null, null],
        ['call_completed', 'retry', 0],
        ['call_started', null, null],
        ['call_completed', 'failed', 1],
        ['all_processing_completed', 'failed', 1],
      ]
        .map((x) => JSON.stringify(x))
        .sort(),
    );
    const last = rx
      .on('/na')
      .find((r) => r.body.event_type === 'call_completed' && r.body.status === 'failed');
    expect(callCompletedPayloadSchema.parse(last?.body)).toMatchObject({
      call_id: id,
      call_duration: 0,
      call_cost: 0,
      transcript: [],
    });
    expect(last?.body).not.toHaveProperty('sub_status');
  });

  it('sends transcript turns as {role, content} when that variant is selected', async () => {
    const v = await t.control('/variants', { method: 'POST', json: { transcript: 'role_content' } });
    expect(v.status).toBe(200);
    try {
      await subscribe([{ event_type: ['call_completed'], callback_url: `${rx.url}/roles` }]);
      await call({ callback_url: `${rx.url}/cb-roles` });
      await t.advance(210);
      const [got] = await rx.waitFor('/roles', 1);
      // The per-call callback's transcript string follows the same variant.
      const cb = (await rx.waitFor('/cb-roles', 2)).map(
        (r) => legacyCallbackPayloadSchema.parse(r.body).data,
      );
      const cbTurns = JSON.parse(String(cb.find((d) => d.status === 'completed')?.transcript)) as unknown[];
      expect(cbTurns[0]).toEqual({ role: 'assistant', content: expect.any(String) });
      const turns = got?.body.transcript as Array<Record<string, string>>;
      expect(turns.length).toBeGreaterThan(1);
      expect(turns.every((x) => Object.keys(x).sort().join() === 'content,role')).toBe(true);
      expect(turns[0]?.role).toBe('assistant');
      expect(turns.some((x) => x.role === 'user')).toBe(true);
    } finally {
      await t.control('/variants', { method: 'DELETE' });
    }
  });
});

describe('callbacks', () => {
  it("posts the per-call payload to an individual call's callback_url on each status change, without a Content-Type", async () => {
    const id = await call({
      callback_url: `${rx.url}/cb?source=desk`,
      callback_args: { headers: { 'X-Token': 'abc123' }, params: { ref: 'r-1', n: 2 } },
    });
    await t.advance(210);
    const got = await rx.waitFor('/cb', 2);
    await quiet();
    expect(rx.on('/cb')).toHaveLength(2); // ongoing, then completed: not the six webhook events
    for (const r of got) {
      expect(r.method).toBe('POST');
      expect(r.headers['content-type']).toBeUndefined();
      expect(r.headers['x-token']).toBe('abc123');
      expect(Object.fromEntries(r.query)).toEqual({ source: 'desk', ref: 'r-1', n: '2' });
      expect(r.body).toMatchObject({ status: 'success', message: 'Call Details' });
      expect(r.body).not.toHaveProperty('event_type');
    }
    const [first, second] = got.map((r) => legacyCallbackPayloadSchema.parse(r.body).data);
    expect(first).toMatchObject({ call_id: id, status: 'ongoing', retry: 0, transcript: '' });
    expect(second).toMatchObject({ call_id: id, status: 'completed', retry: 0, to_number: '+919812345678' });
    expect(typeof second?.transcript).toBe('string');
    const turns = JSON.parse(String(second?.transcript)) as Array<Record<string, string>>;
    expect(turns[0]).toHaveProperty('bot');
    const log = await settled(id, `${rx.url}/cb?source=desk&ref=r-1&n=2`, 2);
    expect(log.every((d) => d.source === 'callback' && d.status === 'delivered')).toBe(true);
    expect(log.map((d) => d.event_type)).toEqual(['call_status_changed', 'call_status_changed']);
  });

  it('posts retry and failed status changes with the retry count, and a Content-Type only when callback_args gives one', async () => {
    await setDialer(t, { shares: { no_answer: 1 } });
    const id = await call({
      call_config: { call_retry_config: { retry_count: 1, retry_not_picked: 1 } },
      callback_url: `${rx.url}/cb-retry`,
      callback_args: { headers: { 'Content-Type': 'application/json' } },
    });
    await t.advance(46);
    await t.advance(60 + 46);
    const got = await rx.waitFor('/cb-retry', 4);
    await quiet();
    const data = rx.on('/cb-retry').map((r) => legacyCallbackPayloadSchema.parse(r.body).data);
    expect(data.map((d) => [d.call_id, d.status, d.retry])).toEqual([
      [id, 'ongoing', 0],
      [id, 'retry', 0],
      [id, 'ongoing', 1],
      [id, 'failed', 1],
    ]);
    expect(got.every((r) => r.headers['content-type'] === 'application/json')).toBe(true);
  });

  it('posts registered at creation and cancelled when a queued call is terminated', async () => {
    const later = new Date(t.sb.context.clock.nowMs() + 24 * 3600_000).toISOString();
    const id = await call({
      call_config: { call_time: { scheduled_at: later } },
      callback_url: `${rx.url}/cb-term`,
    });
    const term = await t.api('/campaign/terminate/calls', { method: 'PATCH', json: { call_ids: [id] } });
    expect(term.status).toBe(200);
    await rx.waitFor('/cb-term', 2);
    await quiet();
    expect(
      rx.on('/cb-term').map((r) => {
        const d = legacyCallbackPayloadSchema.parse(r.body).data;
        return [d.call_id, d.status, d.retry];
      }),
    ).toEqual([
      [id, 'registered', 0],
      [id, 'cancelled', 0],
    ]);
  });

  it("posts a campaign's calls to the campaign callback_url (v2 start)", async () => {
    const start = dayAt(t, 1, 9);
    const id = await startSmallCampaign(t, s, {
      rows: 3,
      startAt: start,
      endAt: start + 3600_000,
      callConfig: {
        call_time: { call_start_time: '09:00', call_end_time: '18:00', timezone: 'Asia/Kolkata' },
      },
      callbackUrl: `${rx.url}/campaign`,
    });
    const now = t.sb.context.clock.nowMs();
    await t.advance((start - now) / 1000 + 210);
    const got = await rx.waitFor('/campaign', 18);
    const done = got.filter((r) => r.body.event_type === 'call_completed');
    expect(done).toHaveLength(3);
    expect(done.every((r) => r.body.bulk_list_id === id)).toBe(true);
    expect(new Set(got.map((r) => r.body.call_id)).size).toBe(3);
  });
});

describe('retries on the virtual clock', () => {
  const url = () => `${rx.url}/flaky`;

  it('retries a failing delivery at +10 s, +1 min and +2 min, then gives up', async () => {
    rx.respond((r) => (r.path === '/flaky' ? 503 : 200));
    await subscribe([{ event_type: ['call_started'], callback_url: url() }]);
    const id = await call(); // call_started goes out at once
    await settled(id, url(), 1);
    const steps: Array<[number, number]> = [
      [9, 1],
      [1, 2],
      [59, 2],
      [1, 3],
      [119, 3],
      [1, 4],
      [3600, 4],
    ];
    for (const [seconds, expected] of steps) {
      await t.advance(seconds);
      await settled(id, url(), expected);
      await quiet();
      expect(rx.on('/flaky'), `after +${seconds} s`).toHaveLength(expected);
    }
    const log = await deliveries(id, url());
    expect(log.map((d) => [d.attempt, d.status, d.response_status])).toEqual([
      [1, 'failed', 503],
      [2, 'failed', 503],
      [3, 'failed', 503],
      [4, 'gave_up', 503],
    ]);
    const at = log.map((d) => Date.parse(d.attempted_at ?? ''));
    expect(at.slice(1).map((x, i) => x - (at[i] ?? 0))).toEqual([10_000, 60_000, 120_000]);
  });

  it('stops retrying on the first 200 (a 204 is not success)', async () => {
    rx.respond((r) => {
      if (r.path !== '/flaky') return 200;
      const n = rx.on('/flaky').length;
      return n === 1 ? 500 : n === 2 ? 204 : 200;
    });
    await subscribe([{ event_type: ['call_started'], callback_url: url() }]);
    const id = await call();
    await settled(id, url(), 1);
    await t.advance(10);
    await settled(id, url(), 2);
    await t.advance(60);
    await settled(id, url(), 3);
    await t.advance(3600);
    await quiet();
    expect(rx.on('/flaky')).toHaveLength(3);
    expect((await deliveries(id, url())).map((d) => [d.attempt, d.status, d.response_status])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 204],
      [3, 'delivered', 200],
    ]);
  });

  it('logs a refused connection as an error and retries it', async () => {
    const closed = await startReceiver();
    const deadUrl = `${closed.url}/gone`;
    await closed.close();
    await subscribe([{ event_type: ['call_started'], callback_url: deadUrl }]);
    const id = await call();
    const [first] = await settled(id, deadUrl, 1);
    expect(first).toMatchObject({
      status: 'failed',
      response_status: null,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
    await t.advance(10);
    expect(await settled(id, deadUrl, 2)).toHaveLength(2);
  });

  it('sends to the new URL once subscriptions are replaced', async () => {
    await subscribe([{ event_type: ['call_started'], callback_url: `${rx.url}/old` }]);
    await call();
    await rx.waitFor('/old', 1);
    await subscribe([{ event_type: ['call_started'], callback_url: `${rx.url}/new` }]);
    await call();
    await rx.waitFor('/new', 1);
    await quiet();
    expect(rx.on('/old')).toHaveLength(1);
  });
});

describe('time limit and shutdown', () => {
  it('gives up an attempt after the time limit and schedules the retry', async () => {
    const own = await startTestSandbox({ seed: 4 });
    const hang = await startReceiver();
    hang.respond(() => 'hang');
    try {
      // The server's engine waits 30 s; swap in the same engine with a short limit for this test.
      await webhooksOf(own.sb.context)?.stop();
      startWebhooks(own.sb.context, { timeoutMs: 300 });
      const so = await seeded(own);
      const r = await own.api('/agent/v1', {
        method: 'PATCH',
        headers: { authorization: `Bearer ${testBearer}` },
        json: {
          operation: 'edit_event_subscriptions',
          agent_id: so.agentId,
          event_subscriptions: [{ event_type: ['call_started'], callback_url: `${hang.url}/slow` }],
        },
      });
      expect(r.status).toBe(200);
      const c = await placeCall(own, {
        name: 'A B',
        mobile_number: '+919812345670',
        agent_id: so.agentId,
        number_pool_id: so.poolId,
      });
      const began = Date.now();
      await hang.waitFor('/slow', 1);
      let log: DeliveryLog[] = [];
      while (Date.now() - began < 15_000) {
        const st = await own.control<{ webhook_deliveries: DeliveryLog[] }>('/stats');
        log = st.body.webhook_deliveries.filter((d) => d.call_id === c.id);
        if (log[0]?.status === 'failed') break;
        await new Promise((res) => setTimeout(res, 20));
      }
      expect(log[0]).toMatchObject({ status: 'failed', error: 'timeout after 0.3 s', response_status: null });
      await own.advance(10);
      await hang.waitFor('/slow', 2);
    } finally {
      const closing = Date.now();
      await own.close(); // an attempt is still in flight: closing aborts it
      expect(Date.now() - closing).toBeLessThan(2000);
      await hang.close();
    }
  });

  it('sendOnce: 200 only, timeouts and refused connections become results, not throws', async () => {
    const r = await startReceiver();
    try {
      r.respond((req) => (req.path === '/ok' ? 200 : req.path === '/slow' ? 'hang' : 302));
      const base = { method: 'POST', headers: {}, body: '{}' };
      expect(await sendOnce({ ...base, url: `${r.url}/ok` })).toEqual({ ok: true, status: 200, error: null });
      expect(await sendOnce({ ...base, url: `${r.url}/moved` })).toEqual({
        ok: false,
        status: 302,
        error: 'HTTP 302',
      });
      expect(await sendOnce({ ...base, url: `${r.url}/slow` }, { timeoutMs: 100 })).toEqual({
        ok: false,
        status: null,
        error: 'timeout after 0.1 s',
      });
    } finally {
      await r.close();
    }
  });
});
