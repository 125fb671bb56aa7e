// POST /_sandbox/variants over real HTTP: each documented shape, exactly as served, per operation.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loanCsv, uploadForm } from '../testing/fixtures.ts';
import { startTestSandbox } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';

let t: TestSandbox;
let agentId: string;
let processedList: string;
const day = 'start_date=2026-10-01T00:00:00Z&end_date=2026-10-02T00:00:00Z';

beforeAll(async () => {
  t = await startTestSandbox();
  const agents = await t.api<{ data: { agents: Array<{ id: string; agent_display_name: string }> } }>(
    '/agent/all',
  );
  agentId = agents.body.data.agents.find((a) => a.agent_display_name === 'Loan Repayment Reminder')?.id ?? '';
  const seeded = await t.control('/seed-calls', {
    method: 'POST',
    json: {
      count: 30,
      status: 'completed',
      start_date: '2026-10-01T03:00:00Z',
      end_date: '2026-10-01T12:00:00Z',
    },
  });
  expect(seeded.status).toBe(200);
  processedList = (await upload()).bulk_list_id;
  await t.advance(10);
});
afterAll(() => t.close());
afterEach(async () => {
  await t.control('/variants', { method: 'DELETE' });
});

const choose = async (v: Record<string, string>) => {
  const r = await t.control('/variants', { method: 'POST', json: v });
  expect(r.status, r.text).toBe(200);
};
async function upload(): Promise<Record<string, unknown> & { bulk_list_id: string }> {
  const r = await t.api<Record<string, unknown> & { bulk_list_id: string }>('/campaign/upload-csv', {
    method: 'POST',
    body: uploadForm(loanCsv(5000), { agent_id: agentId }),
  });
  expect(r.status, r.text).toBe(200);
  return r.body;
}
const keys = (o: unknown) => Object.keys(o as object).sort();

describe('the control operation', () => {
  it('shows the defaults, changes some, refuses unknown names and values, and resets', async () => {
    const defaults = {
      balance: 'merged',
      upload_status: 'merged',
      transcript: 'bot_user',
      timestamps: 'iso_z',
      total: 'number',
      errors: 'documented',
    };
    expect((await t.control('/variants')).body).toEqual({ variants: defaults });
    const r = await t.control('/variants', { method: 'POST', json: { balance: 'schema', total: 'many' } });
    expect(r.body).toEqual({ variants: { ...defaults, balance: 'schema', total: 'many' } });
    for (const bad of [{ balance: 'odd' }, { colour: 'blue' }]) {
      const refused = await t.control('/variants', { method: 'POST', json: bad });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: { code: 'invalid_parameter' } });
    }
    expect((await t.control('/variants', { method: 'DELETE' })).body).toEqual({ variants: defaults });
  });
});

describe('POST /campaign/check-balance/{id}', () => {
  it.each([
    [
      'merged',
      ['available_credits', 'bulk_list_id', 'message', 'required_credits', 'status', 'sufficient_balance'],
    ],
    ['schema', ['bulk_list_id', 'message', 'status']],
    ['guidance', ['available_credits', 'bulk_list_id', 'required_credits', 'sufficient_balance']],
  ])('%s shape', async (variant, fields) => {
    await choose({ balance: variant });
    const r = await t.api(`/campaign/check-balance/${processedList}`, { method: 'POST' });
    expect(r.status).toBe(200);
    expect(keys(r.body)).toEqual([...fields].sort());
  });
});

describe('POST /campaign/upload-csv and GET /campaign/upload-status/{id}', () => {
  const schemaCounters = [
    'campaign_name',
    'invalidated_rows_count',
    'invalidated_rows_csv_url',
    'total_callees',
  ];
  const guidanceCounters = ['failed_rows', 'processed_rows', 'successful_rows', 'total_rows'];
  it.each([
    ['merged', 'verifying', 'completed', [...schemaCounters, ...guidanceCounters, 'message']],
    ['schema', 'verifying', 'completed', schemaCounters],
    ['guidance', 'uploaded', 'completed', [...guidanceCounters, 'message']],
    ['ready', 'verifying', 'ready', [...schemaCounters, ...guidanceCounters, 'message']],
  ])('%s: %s, then processing, then %s', async (variant, first, last, fields) => {
    await choose({ upload_status: variant });
    const up = await upload();
    expect(up.status).toBe(first);
    if (variant === 'guidance') expect(keys(up)).toEqual(['bulk_list_id', 'message', 'status']);
    const status = async () =>
      (await t.api<Record<string, unknown>>(`/campaign/upload-status/${up.bulk_list_id}`)).body;
    expect((await status()).status).toBe(first);
    await t.advance(3);
    expect((await status()).status).toBe('processing');
    await t.advance(10);
    const done = await status();
    expect(done.status).toBe(last);
    expect(keys(done)).toEqual(['bulk_list_id', 'status', ...fields].sort());
  });
});

describe('GET /calling/history and call details', () => {
  const page = async () =>
    (
      await t.api<{ calls: Array<Record<string, string>>; total: unknown }>(
        `/calling/history?${day}&status=completed&limit=30`,
      )
    ).body;

  it('serves transcript turns as {bot}/{user} or as {role, content}, in history and call details', async () => {
    const withTurns = (await page()).calls.find((c) => (c.transcript ?? '').length > 2);
    const id = withTurns?.id ?? '';
    expect(JSON.parse(withTurns?.transcript ?? '[]')[0]).toHaveProperty('bot');
    await choose({ transcript: 'role_content' });
    const again = (await page()).calls.find((c) => c.id === id);
    const turns = JSON.parse(again?.transcript ?? '[]') as Array<Record<string, string>>;
    expect(turns[0]).toEqual({ role: 'assistant', content: expect.any(String) });
    expect(turns.every((x) => keys(x).join() === 'content,role')).toBe(true);
    const details = await t.api<{ data: { transcription_url: Array<Record<string, string>> } }>(
      `/calling/call-details?id=${id}`,
    );
    expect(details.body.data.transcription_url).toEqual(turns);
  });

  it.each([
    ['iso_z', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/],
    ['micro_offset', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/],
    ['offset_no_fraction', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30$/],
    ['naive_micro', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/],
  ])('serves created_at and call_attempt_time as %s', async (variant, pattern) => {
    await choose({ timestamps: variant });
    const calls = (await page()).calls;
    expect(calls.length).toBe(30);
    for (const c of calls) {
      expect(c.created_at).toMatch(pattern);
      expect(c.call_attempt_time).toMatch(pattern);
    }
  });

  it.each([
    ['number', 30],
    ['numeric_string', '30'],
    ['many', 'many'],
  ])('serves total as %s', async (variant, total) => {
    await choose({ total: variant });
    expect((await page()).total).toEqual(total);
  });
});

describe('error bodies of every v0 operation', () => {
  const cases = async () => ({
    unauthorized: await t.api('/workspace', { headers: { 'x-api-key': 'wrong' } }),
    agent: await t.api('/agent/nope'),
    balance: await t.api('/campaign/check-balance/nope', { method: 'POST' }),
    history: await t.api(`/calling/history?${day}&status=done`),
  });

  it('documented: each operation its own shape', async () => {
    const c = await cases();
    expect(c.unauthorized.body).toEqual({
      error: { code: '401 Unauthorized', message: 'Invalid credentials' },
    });
    expect(c.agent.body).toEqual({ error: { code: 'not_found', message: 'Agent nope not found' } });
    expect(c.balance.body).toEqual({ detail: 'Bulk list nope not found' });
    expect(c.history.body).toMatchObject({ error: { code: 'invalid_parameter' } });
  });

  it.each([
    ['detail_string', (m: string) => ({ detail: m })],
    [
      'detail_list',
      (m: string) => ({ detail: [{ type: 'value_error', loc: ['body'], msg: m, input: null }] }),
    ],
    ['error_object', (m: string, code: string) => ({ error: { code, message: m } })],
  ])('%s: every refusal in that shape, same status and message', async (variant, shape) => {
    await choose({ errors: variant });
    const c = await cases();
    expect(c.unauthorized.status).toBe(401);
    expect(c.unauthorized.body).toEqual(shape('Invalid credentials', '401 Unauthorized'));
    expect(c.agent.status).toBe(404);
    expect(c.agent.body).toEqual(shape('Agent nope not found', 'not_found'));
    expect(c.balance.status).toBe(404);
    expect(c.balance.body).toEqual(shape('Bulk list nope not found', 'not_found'));
    expect(c.history.status).toBe(400);
    // The control API keeps its own shape whatever is chosen.
    expect((await t.control('/variants', { method: 'POST', json: { total: 'odd' } })).body).toMatchObject({
      error: { code: 'invalid_parameter' },
    });
  });
});
