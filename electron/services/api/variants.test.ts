// The client against every documented variant of the service's answers, and the service's strict
// rules, over real HTTP: the sandbox runs as its own process (without --bearer, as the docs show the
// subscription update) and serves each shape on request (POST /_sandbox/variants).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignUpload } from './client.ts';
import { createApiClient } from './client.ts';
import { campaignTimeIn, failure } from './testing/apiTestHelpers.ts';
import { startSandboxProcess } from './testing/sandboxProcess.ts';
import type { SandboxProcess } from './testing/sandboxProcess.ts';

const apiKey = 'variants-test-key-77';
let sb: SandboxProcess;
let agentId: string;
let poolId: string;

const client = () =>
  createApiClient({ baseUrl: sb.baseUrl, apiKey: async () => apiKey, retryBaseDelayMs: 5 });
const variants = (v: Record<string, string>) => sb.control('POST', '/variants', v);
const advance = (seconds: number) => sb.control('POST', '/clock', { advance_seconds: seconds });

function csv(rows: number, badRows = 0): Blob {
  const lines = ['Mobile Number,Name,Loan Amount,Due Date,Language,City'];
  for (let i = 1; i <= rows; i++) {
    const phone = i <= badRows ? '12345' : `+9197${String(i).padStart(8, '0')}`;
    lines.push(`${phone},Customer ${i},${i * 10},15/12/2026,Hindi,Pune`);
  }
  return new Blob([lines.join('\n')], { type: 'text/csv' });
}

const upload = (rows: number, badRows = 0): CampaignUpload => ({
  file: csv(rows, badRows),
  fileName: 'contacts.csv',
  agent_id: agentId,
  campaign_name: 'Variants',
  country_code: '+91',
  variables_map: {
    callee_name: 'Name',
    loan_amount: 'Loan Amount',
    due_date: 'Due Date',
    language: 'Language',
    city: 'City',
  },
  campaign_start_time: campaignTimeIn(2),
  campaign_end_time: campaignTimeIn(24 * 30),
  call_config: { call_time: { call_start_time: '09:00', call_end_time: '18:00', timezone: 'Asia/Kolkata' } },
});

// Seeded history: 40 completed calls (with transcripts) on one day, under one list id.
const day = { start_date: '2026-10-01T00:00:00+05:30', end_date: '2026-10-02T00:00:00+05:30' };
const listId = 'variants-list';

beforeAll(async () => {
  sb = await startSandboxProcess({ apiKey, seed: 5 });
  const agents = await client().listAgents();
  agentId = agents.find((a) => a.agent_display_name === 'Loan Repayment Reminder')?.id ?? '';
  poolId = (await client().listWorkspaceNumbers())[0]?.number_pool_id ?? '';
  await sb.control('POST', '/seed-calls', {
    count: 40,
    status: 'completed',
    bulk_list_id: listId,
    start_date: '2026-10-01T09:00:00+05:30',
    end_date: '2026-10-01T18:00:00+05:30',
  });
});
afterAll(() => sb.stop());
afterEach(async () => {
  await sb.control('DELETE', '/variants');
});

describe('upload status: every documented status vocabulary and counter set', () => {
  it.each([
    ['merged', 'verifying', 'completed'],
    ['schema', 'verifying', 'completed'],
    ['guidance', 'uploaded', 'completed'],
    ['ready', 'verifying', 'ready'],
  ])('%s: %s → processing → %s reads as in_progress → done', async (variant, first, last) => {
    await variants({ upload_status: variant });
    const c = client();
    const up = await c.uploadCampaignCsv(upload(6000));
    expect(up).toMatchObject({ status: first, phase: 'in_progress' });
    expect(await c.getUploadStatus(up.bulkListId)).toMatchObject({ status: first, phase: 'in_progress' });
    await advance(3); // 2 s checking, then 2,000 rows a second
    const mid = await c.getUploadStatus(up.bulkListId);
    expect(mid).toMatchObject({ status: 'processing', phase: 'in_progress' });
    expect(mid.validRows).toBeGreaterThan(0);
    expect(mid.validRows).toBeLessThan(6000);
    await advance(10);
    const done = await c.getUploadStatus(up.bulkListId);
    expect(done).toMatchObject({ status: last, phase: 'done', validRows: 6000, invalidRows: 0 });
    // Each counter set is there exactly when the variant serves it.
    expect(done.totalRows).toBe(variant === 'schema' ? null : 6000);
    expect(done.campaignName).toBe(variant === 'guidance' ? null : 'Variants');
  });

  it.each(['merged', 'schema', 'guidance', 'ready'])(
    '%s: an upload with invalid rows reads as failed, with the invalid count',
    async (variant) => {
      await variants({ upload_status: variant });
      const c = client();
      const up = await c.uploadCampaignCsv(upload(5000, 7));
      await advance(10);
      const done = await c.getUploadStatus(up.bulkListId);
      expect(done).toMatchObject({ status: 'failed', phase: 'failed', invalidRows: 7 });
    },
  );
});

describe('check-balance: schema shape, guidance shape, both merged', () => {
  let bulkListId: string;
  beforeAll(async () => {
    const up = await client().uploadCampaignCsv(upload(5000));
    bulkListId = up.bulkListId;
    await advance(10);
  });

  it.each([
    ['merged', { status: 'draft', requiredCredits: 5000, sufficientBalance: true }],
    ['schema', { status: 'draft', requiredCredits: null, sufficientBalance: null }],
    ['guidance', { status: null, requiredCredits: 5000, sufficientBalance: true }],
  ])('%s', async (variant, expected) => {
    await variants({ balance: variant });
    const b = await client().checkBalance(bulkListId);
    expect(b).toMatchObject({ bulkListId, ...expected });
    if (variant !== 'guidance') expect(b.message).toMatch(/sufficient/i);
  });

  it('reads an insufficient balance from the guidance and merged shapes', async () => {
    await sb.control('POST', '/workspace', { credits: 100 });
    try {
      for (const variant of ['guidance', 'merged']) {
        await variants({ balance: variant });
        expect(await client().checkBalance(bulkListId)).toMatchObject({
          sufficientBalance: false,
          availableCredits: 100,
        });
      }
    } finally {
      await sb.control('POST', '/workspace', { credits: 25000 });
    }
  });
});

describe('history: transcripts, timestamps and total in every documented form', () => {
  const page = () => client().listCallHistory({ ...day, bulk_list_id: listId, limit: 50 });

  it('shows speakers the same whether turns are {bot}/{user} or {role, content}', async () => {
    const keyed = await page();
    await variants({ transcript: 'role_content' });
    const roles = await page();
    expect(roles.calls.map((c) => c.transcript)).toEqual(keyed.calls.map((c) => c.transcript));
    const withTurns = keyed.calls.filter((c) => c.transcript.length > 0);
    expect(withTurns.length).toBeGreaterThan(0);
    for (const call of withTurns) {
      expect(call.transcript[0]?.speaker).toBe('agent');
      expect(
        call.transcript.every((t) => (t.speaker === 'agent' || t.speaker === 'user') && t.text !== ''),
      ).toBe(true);
    }
    // Call details serve the same turns (a list there), in either form.
    const id = withTurns[0]?.id ?? '';
    expect((await client().getCallDetails(id)).transcript).toEqual(withTurns[0]?.transcript);
    await variants({ transcript: 'bot_user' });
    expect((await client().getCallDetails(id)).transcript).toEqual(withTurns[0]?.transcript);
  });

  it.each(['micro_offset', 'offset_no_fraction', 'naive_micro'])(
    'reads created_at and call_attempt_time as %s to the same instants',
    async (variant) => {
      const base = await page();
      await variants({ timestamps: variant });
      const other = await page();
      // Without a fraction the milliseconds are gone; otherwise the instant is exact.
      const cut = (iso: string | null) =>
        iso === null ? null : variant === 'offset_no_fraction' ? `${iso.slice(0, 19)}.000Z` : iso;
      expect(other.calls.map((c) => [c.id, c.created_at, c.call_attempt_time])).toEqual(
        base.calls.map((c) => [c.id, cut(c.created_at), cut(c.call_attempt_time)]),
      );
      expect(other.calls.every((c) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(c.created_at))).toBe(
        true,
      );
    },
  );

  it.each([
    ['number', 40],
    ['numeric_string', 40],
    ['many', null],
  ])('reads total served as a %s', async (variant, total) => {
    await variants({ total: variant });
    const p = await page();
    expect(p.total).toBe(total);
    expect(p.count).toBe(40);
  });
});

describe('error bodies: {detail: string}, {detail: [...]}, {error: {code, message}}', () => {
  it.each(['documented', 'detail_string', 'detail_list', 'error_object'])(
    '%s: the same kind and message from every shape',
    async (variant) => {
      await variants({ errors: variant });
      const c = client();
      const agent = await failure(c.getAgent('no-such-agent'));
      expect(agent).toMatchObject({
        kind: 'not_found',
        status: 404,
        message: 'Agent no-such-agent not found',
      });
      const list = await failure(c.checkBalance('no-such-list'));
      expect(list).toMatchObject({
        kind: 'not_found',
        status: 404,
        message: 'Bulk list no-such-list not found',
      });
      const key = await failure(
        createApiClient({ baseUrl: sb.baseUrl, apiKey: async () => 'wrong-key-123' }).getWorkspaceInfo(),
      );
      expect(key).toMatchObject({ kind: 'unauthorized', status: 401, message: 'Invalid credentials' });
      // An error body always carries the service's own code when the shape has one.
      if (variant === 'error_object' || variant === 'documented') expect(key.code).toBe('401 Unauthorized');
    },
  );

  it('reads the fields a 422 validation list names', async () => {
    // The client never sends an upload without its required fields; strip them on the way out to
    // read the service's answer.
    const strip = createApiClient({
      baseUrl: sb.baseUrl,
      apiKey: async () => apiKey,
      fetch: (url, init) => {
        const form = init?.body as FormData;
        form.delete('campaign_start_time');
        form.delete('call_config');
        return fetch(url, init);
      },
    });
    const e = await failure(strip.saveCampaign(upload(3)));
    expect(e).toMatchObject({ kind: 'rejected', status: 422 });
    expect(e.fields).toEqual(['campaign_start_time', 'call_config']);
    expect(e.message).toBe('campaign_start_time: Field required; call_config: Field required');
  });
});

describe('strict rules, as the client meets them', () => {
  it('refuses to send an upload without its window or call_config, naming the field', async () => {
    const { call_config: _c, ...noConfig } = upload(3);
    const e = await failure(client().saveCampaign(noConfig as CampaignUpload));
    expect(e).toMatchObject({ kind: 'rejected', status: undefined });
    expect(e.message).toMatch(/^call_config:/);
    const { campaign_end_time: _e, ...noEnd } = upload(6000);
    expect((await failure(client().uploadCampaignCsv(noEnd as CampaignUpload))).message).toMatch(
      /^campaign_end_time:/,
    );
  });

  it('always asks history for an explicit window', async () => {
    const e = await failure(client().listCallHistory({ limit: 5 } as never));
    expect(e).toMatchObject({ kind: 'rejected', status: undefined });
    expect(e.message).toMatch(/start_date/);
  });

  it('individual call: refuses two number sources locally, and is queued (not refused) without credits', async () => {
    const base = { name: 'Asha Rao', mobile_number: '+919812345678', agent_id: agentId };
    const two = await failure(
      client().startIndividualCall({ ...base, number_pool_id: poolId, from_number: '+14158675309' } as never),
    );
    expect(two.message).toMatch(/exactly one of number_pool_id, from_number_id or from_number/);
    await sb.control('POST', '/workspace', { credits: 0 });
    try {
      const call = await client().startIndividualCall({ ...base, number_pool_id: poolId });
      expect(call.data.call_status).toBe('registered');
    } finally {
      await sb.control('POST', '/workspace', { credits: 25000 });
    }
  });

  it('campaign start: refuses a start without caller numbers or pool locally, naming the field', async () => {
    const none = await failure(client().startCampaign({ agent_id: agentId, list_id: 'x', from_numbers: [] }));
    expect(none).toMatchObject({ kind: 'rejected', status: undefined });
    expect(none.message).toMatch(/^from_numbers:/);
    const noPool = await failure(
      client().startCampaignV2({ agent_id: agentId, list_id: 'x', number_pool_id: '' }),
    );
    expect(noPool.message).toMatch(/^number_pool_id:/);
  });

  it('make-call-async: refuses both or neither number sources locally', async () => {
    const neither = await failure(client().makeCallAsync({ bulk_list_id: 'x', agent_id: agentId } as never));
    expect(neither).toMatchObject({ kind: 'rejected', status: undefined });
    expect(neither.message).toMatch(/exactly one of from_numbers or number_pool_id/);
  });

  it('updates event subscriptions with X-API-KEY alone (no bearer token stored)', async () => {
    const r = await client().editEventSubscriptions({
      agent_id: agentId,
      event_subscriptions: [{ event_type: ['call_completed'], callback_url: 'https://hooks.example.test/x' }],
    });
    expect(r.agent_id).toBe(agentId);
    expect((await client().getAgent(agentId)).eventSubscriptions).toHaveLength(1);
  });
});
