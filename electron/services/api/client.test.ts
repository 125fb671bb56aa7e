import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from './client.ts';
import type { ApiClientOptions, RetryInfo } from './transport.ts';
import { campaignTimeIn, failure } from './testing/apiTestHelpers.ts';
import { startSandboxProcess } from './testing/sandboxProcess.ts';
import type { SandboxProcess } from './testing/sandboxProcess.ts';

const apiKey = 'client-test-key-42';
const bearer = 'client-test-bearer';
let sb: SandboxProcess;

beforeAll(async () => {
  sb = await startSandboxProcess({ apiKey, bearer });
});
afterAll(() => sb.stop());
afterEach(async () => {
  await sb.control('DELETE', '/faults');
});

const client = (o: Partial<ApiClientOptions> = {}) =>
  createApiClient({
    baseUrl: sb.baseUrl,
    apiKey: async () => apiKey,
    bearerToken: async () => bearer,
    retryBaseDelayMs: 5,
    ...o,
  });

const fault = (spec: Record<string, unknown>) => sb.control('POST', '/faults', spec);
const hits = async () =>
  (await sb.control<{ faults: Array<{ hits: number }> }>('GET', '/faults')).faults[0]?.hits;

function csv(rows: number): Blob {
  const lines = ['Mobile Number,Name,Loan Amount,Due Date,Language,City'];
  for (let i = 1; i <= rows; i++)
    lines.push(`+9198${String(i).padStart(8, '0')},Customer ${i},${i * 10},15/12/2026,Hindi,Pune`);
  return new Blob([lines.join('\n')], { type: 'text/csv' });
}

/** The fields the service requires on every upload. */
const campaignWindow = () => ({
  campaign_start_time: campaignTimeIn(2),
  campaign_end_time: campaignTimeIn(24 * 30),
  call_config: {
    call_time: { call_start_time: '09:00', call_end_time: '18:00', timezone: 'Asia/Kolkata' },
  },
});
/** A history window around every call of the test. */
const allTime = { start_date: '2000-01-01T00:00:00Z', end_date: '2100-01-01T00:00:00Z' };
const variablesMap = {
  callee_name: 'Name',
  loan_amount: 'Loan Amount',
  due_date: 'Due Date',
  language: 'Language',
  city: 'City',
};

describe('getWorkspaceInfo (Test connection)', () => {
  it('returns the credits and drops the echoed key', async () => {
    const info = await client().getWorkspaceInfo();
    expect(info.credits).toBe(25000);
    expect(info).not.toHaveProperty('api_key');
  });

  it('maps a wrong key to unauthorized / Invalid credentials', async () => {
    const e = await failure(client({ apiKey: async () => 'wrong-key-123' }).getWorkspaceInfo());
    expect(e).toMatchObject({
      kind: 'unauthorized',
      status: 401,
      message: 'Invalid credentials',
      code: '401 Unauthorized',
    });
  });

  it('refuses to call without a stored key', async () => {
    const e = await failure(client({ apiKey: async () => null }).getWorkspaceInfo());
    expect(e.kind).toBe('unauthorized');
    expect(e.status).toBeUndefined();
  });
});

describe('both error shapes, any 4xx', () => {
  it('reads error.message (history 400) and never shows the key', async () => {
    // The sandbox echoes a bad status value in its message; when that value is the key, it must be
    // masked. (The client checks statuses before sending, so the query is added on the wire.)
    const raw = client({ fetch: (url, init) => fetch(`${String(url)}&status=${apiKey}`, init) });
    const e = await failure(raw.listCallHistory(allTime));
    expect(e).toMatchObject({ kind: 'rejected', status: 400, code: 'invalid_parameter' });
    expect(e.message).toContain('status must be one of');
    expect(e.message).not.toContain(apiKey);
    expect(e.message).toContain('***');
    expect(JSON.stringify(e)).not.toContain(apiKey);
  });

  it('refuses a bad query before sending it', async () => {
    const e = await failure(
      client().listCallHistory({ start_date: '2026-01-01', end_date: '2026-01-02T00:00:00Z' }),
    );
    expect(e).toMatchObject({ kind: 'rejected', status: undefined });
    expect(e.message).toContain('start_date');
  });

  it('reads detail (make-call-async 422) and maps 404 to not_found', async () => {
    // The client's own check has the same rule; bypass it to read the service's 422 body.
    const raw = client({
      fetch: (url, init) =>
        fetch(url, { ...init, body: JSON.stringify({ bulk_list_id: 'x', agent_id: 'y' }) }),
    });
    const e = await failure(raw.makeCallAsync({ bulk_list_id: 'x', agent_id: 'y', number_pool_id: 'p' }));
    expect(e).toMatchObject({ kind: 'rejected', status: 422 });
    expect(e.message).toContain('exactly one of from_numbers or number_pool_id');
    const nf = await failure(client().getAgent('no-such-agent'));
    expect(nf).toMatchObject({ kind: 'not_found', status: 404 });
    const nd = await failure(client().checkBalance('no-such-list'));
    expect(nd).toMatchObject({ kind: 'not_found', status: 404, message: 'Bulk list no-such-list not found' });
  });
});

describe('retries, timeouts and broken connections', () => {
  it('retries an idempotent GET on 429, honouring Retry-After', async () => {
    await fault({ path: '/workspace', kind: 'error', status: 429, retry_after_seconds: 0.2, max_count: 2 });
    const retries: RetryInfo[] = [];
    const t0 = performance.now();
    const info = await client({ onRetry: (r) => retries.push(r) }).getWorkspaceInfo();
    expect(info.credits).toBeGreaterThan(0);
    expect(retries.map((r) => r.delayMs)).toEqual([200, 200]);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(390);
    expect(await hits()).toBe(2);
  });

  it('retries 500 a bounded number of times, then throws a server error', async () => {
    await fault({ path: '/agent/all', kind: 'error', status: 500 });
    const e = await failure(client({ maxRetries: 2 }).listAgents());
    expect(e).toMatchObject({ kind: 'server', status: 500, attempts: 3 });
    expect(await hits()).toBe(3);
  });

  it('recovers from a transient 500', async () => {
    await fault({ path: '/agent/all', kind: 'error', status: 503, max_count: 1 });
    expect((await client().listAgents()).length).toBeGreaterThanOrEqual(3);
  });

  it('does not wait for a Retry-After longer than its limit', async () => {
    await fault({ path: '/workspace', kind: 'error', status: 429, retry_after_seconds: 120 });
    const e = await failure(client({ maxRetryDelayMs: 1000 }).getWorkspaceInfo());
    expect(e).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterSeconds: 120, attempts: 1 });
  });

  it('never retries a POST that starts calls', async () => {
    await fault({ path: '/calling/v2/outbound/individual', kind: 'error', status: 500 });
    const e = await failure(
      client().startIndividualCall({
        name: 'A',
        mobile_number: '+919876543210',
        agent_id: '0b6f5f3e-4a1d-4c55-9a8e-2f1f3c0d9e77',
        number_pool_id: 'p',
      }),
    );
    expect(e).toMatchObject({ kind: 'server', attempts: 1 });
    expect(await hits()).toBe(1);
  });

  it('times out on injected latency', async () => {
    // The answer comes after 3 s; giving up well before that is what matters (150 ms plus whatever
    // a loaded machine adds).
    await fault({ path: '/workspace', kind: 'latency', latency_ms: 3000 });
    const t0 = performance.now();
    const e = await failure(client({ timeoutMs: 150 }).getWorkspaceInfo());
    expect(e.kind).toBe('timeout');
    expect(e.message).toContain('0.2 s');
    expect(performance.now() - t0).toBeLessThan(2500);
  });

  it('maps a dropped connection to unreachable (after its retries)', async () => {
    await fault({ path: '/workspace', kind: 'drop' });
    const e = await failure(client({ maxRetries: 1 }).getWorkspaceInfo());
    expect(e).toMatchObject({ kind: 'unreachable', attempts: 2 });
    expect(e.message).toContain('127.0.0.1');
  });

  it('maps a truncated body to invalid_response, and retries it for GETs', async () => {
    await fault({ path: '/agent/all', kind: 'truncate', max_count: 1 });
    expect((await client().listAgents()).length).toBeGreaterThanOrEqual(3);
    await fault({ path: '/workspace', kind: 'truncate' });
    const e = await failure(client({ maxRetries: 0 }).getWorkspaceInfo());
    expect(e.kind).toBe('invalid_response');
  });

  it('maps a closed port to unreachable', async () => {
    const dead = createApiClient({
      baseUrl: 'http://127.0.0.1:9/v0',
      apiKey: async () => apiKey,
      maxRetries: 0,
    });
    const e = await failure(dead.getWorkspaceInfo());
    expect(e.kind).toBe('unreachable');
  });
});

describe('every operation against the sandbox', () => {
  it('agents, numbers, history, details, individual call, subscriptions', async () => {
    const c = client();
    const agents = await c.listAgents();
    const loan = agents.find((a) => a.agent_display_name === 'Loan Repayment Reminder');
    const agent = await c.getAgent(loan?.id ?? '');
    expect(agent.promptText).toContain('@{{loan_amount}}');
    expect(agent.variables).toEqual(expect.arrayContaining(['callee_name', 'loan_amount', 'due_date']));
    const numbers = await c.listWorkspaceNumbers();
    const poolId = numbers[0]?.number_pool_id ?? '';
    expect(new Set(numbers.map((n) => n.number_pool_id)).size).toBe(2);

    const call = await c.startIndividualCall({
      name: 'Dr. Asha Rao',
      mobile_number: '+919812345678',
      agent_id: agent.id,
      number_pool_id: poolId,
      smart_formatter: { extract_first_name: true },
      custom_args_values: { loan_amount: '1000', due_date: '01/01/2027', language: 'English', city: 'Pune' },
    });
    expect(call.data.custom_args_values).toMatchObject({
      callee_name: 'Asha',
      original_callee_name: 'Dr. Asha Rao',
    });
    const details = await c.getCallDetails(call.data.call_id, { sendAnalysis: true });
    expect(details).toMatchObject({ id: call.data.call_id, callee_name: 'Asha' });
    const page = await c.listCallHistory({ ...allTime, agent_id: agent.id, limit: 5 });
    expect(page.calls.map((x) => x.id)).toContain(call.data.call_id);

    const subs = await c.editEventSubscriptions({
      agent_id: agent.id,
      event_subscriptions: [
        {
          event_type: ['all_processing_completed'],
          callback_url: 'https://hooks.example.test/x',
          headers: {},
          method_type: 'POST',
        },
      ],
    });
    expect(subs.agent_id).toBe(agent.id);
    expect((await c.getAgent(agent.id)).eventSubscriptions).toHaveLength(1);
    const noBearer = await failure(
      client({ bearerToken: async () => null }).editEventSubscriptions({
        agent_id: agent.id,
        event_subscriptions: [],
      }),
    );
    expect(noBearer.kind).toBe('unauthorized');
    const wrongBearer = await failure(
      client({ bearerToken: async () => 'nope-nope' }).editEventSubscriptions({
        agent_id: agent.id,
        event_subscriptions: [],
      }),
    );
    expect(wrongBearer).toMatchObject({ kind: 'unauthorized', status: 401 });
  });

  it('large campaign: upload, poll status on the clock, balance, start once, follow in history and listing', async () => {
    const c = client();
    const agent = (await c.listAgents()).find((a) => a.agent_display_name === 'Loan Repayment Reminder');
    const pool = (await c.listWorkspaceNumbers())[0]?.number_pool_id ?? '';
    const up = await c.uploadCampaignCsv({
      file: csv(6000),
      fileName: 'big.csv',
      agent_id: agent?.id ?? '',
      campaign_name: 'Client test',
      country_code: '+91',
      variables_map: variablesMap,
      ...campaignWindow(),
      remove_invalid_rows: true,
    });
    expect(up).toMatchObject({ status: 'verifying', phase: 'in_progress' });
    let status = await c.getUploadStatus(up.bulkListId);
    expect(status.phase).toBe('in_progress');
    await sb.control('POST', '/clock', { advance_seconds: 10 });
    status = await c.getUploadStatus(up.bulkListId);
    expect(status).toMatchObject({ phase: 'done', validRows: 6000, invalidRows: 0 });
    const balance = await c.checkBalance(up.bulkListId);
    expect(balance).toMatchObject({ sufficientBalance: true, requiredCredits: 6000 });
    const started = await c.makeCallAsync({
      bulk_list_id: up.bulkListId,
      agent_id: agent?.id ?? '',
      number_pool_id: pool,
    });
    expect(started.status).toBe('scheduled');
    const again = await failure(
      c.makeCallAsync({ bulk_list_id: up.bulkListId, agent_id: agent?.id ?? '', number_pool_id: pool }),
    );
    expect(again).toMatchObject({ kind: 'rejected', status: 409 });
    expect((await c.listCallHistory({ ...allTime, bulk_list_id: up.bulkListId, limit: 0 })).total).toBe(6000);
    const campaigns = await c.listCampaigns({ limit: 50 });
    expect(campaigns.campaigns.find((x) => x.id === up.bulkListId)).toMatchObject({
      total_count: 6000,
      campaign_status: 'scheduled',
    });
  });

  it('standard flow: save, start (numbers), v2 start (pool), terminate', async () => {
    const c = client();
    const agent = (await c.listAgents()).find((a) => a.agent_display_name === 'Loan Repayment Reminder');
    const numbers = await c.listWorkspaceNumbers();
    const base = {
      agent_id: agent?.id ?? '',
      campaign_name: 'Small',
      country_code: '+91',
      variables_map: variablesMap,
      ...campaignWindow(),
    };
    const a = await c.saveCampaign({ ...base, file: csv(10), fileName: 'a.csv' });
    expect(a).toMatchObject({ total_rows: 10, successful_rows: 10, failed_rows: 0 });
    const s1 = await c.startCampaign({
      agent_id: base.agent_id,
      list_id: a.list_id,
      from_numbers: [numbers[0]?.id ?? ''],
    });
    expect(s1.status).toBe('campaign registered successfully!');
    const b = await c.saveCampaign({ ...base, file: csv(3), fileName: 'b.csv' });
    await c.startCampaignV2({
      agent_id: base.agent_id,
      list_id: b.list_id,
      number_pool_id: numbers[0]?.number_pool_id ?? '',
    });
    const term = await c.terminateCalls({ campaign_id: a.list_id });
    expect(term.terminated_count).toBe(10);
    const tooShort = await failure(c.uploadCampaignCsv({ ...base, file: csv(10), fileName: 'small.csv' }));
    expect(tooShort).toMatchObject({ kind: 'rejected', status: 400 });
    expect(tooShort.message).toContain('/campaign/save');
    const badFields = await failure(
      c.saveCampaign({ ...base, country_code: 'India', file: csv(3), fileName: 'c.csv' }),
    );
    expect(badFields).toMatchObject({ kind: 'rejected', status: undefined });
  });
});
