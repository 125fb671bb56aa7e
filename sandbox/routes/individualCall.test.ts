import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { individualCallResponseSchema } from '../../shared/service/individualCall.ts';
import { startTestSandbox } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';

let t: TestSandbox;
let agentId: string;
let numberId: string;
let number: string;
let poolId: string;

beforeAll(async () => {
  t = await startTestSandbox();
  const agents = await t.api<{ data: { agents: Array<{ id: string; agent_display_name: string }> } }>(
    '/agent/all',
  );
  agentId = agents.body.data.agents.find((a) => a.agent_display_name === 'Loan Repayment Reminder')?.id ?? '';
  const nums = await t.api<{
    workspace_numbers: Array<{ id: string; number: string; number_pool_id: string }>;
  }>('/workspace/numbers');
  const first = nums.body.workspace_numbers[0];
  numberId = first?.id ?? '';
  number = first?.number ?? '';
  poolId = first?.number_pool_id ?? '';
});
afterAll(() => t.close());

const base = () => ({ name: 'Mr. Rajesh Kumar', mobile_number: '+919876543210', agent_id: agentId });
const post = (json: unknown) =>
  t.api<Record<string, unknown>>('/calling/v2/outbound/individual', { method: 'POST', json });

describe('POST /calling/v2/outbound/individual', () => {
  it('starts a call: ongoing, with callee_name and the values substituted into the prompt', async () => {
    const r = await post({
      ...base(),
      number_pool_id: poolId,
      custom_args_values: { loan_amount: '25,000', due_date: '15/12/2026', language: 'Hindi', city: 'Pune' },
      smart_formatter: { extract_first_name: true },
      callback_url: 'https://example.test/hook',
      callback_args: { headers: { 'Content-Type': 'application/json' }, params: { ref: 'abc' } },
    });
    expect(r.status).toBe(200);
    const body = individualCallResponseSchema.parse(r.body);
    expect(body.data).toMatchObject({
      call_direction: 'outbound',
      call_status: 'ongoing',
      agent_id: agentId,
    });
    expect(body.data.initiated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/); // no offset, as the seed's sample
    expect(body.data.custom_args_values).toMatchObject({
      callee_name: 'Rajesh',
      original_callee_name: 'Mr. Rajesh Kumar',
    });
    const stored = t.sb.context.store.calls.get(body.data.call_id);
    expect(stored?.prompt_text).toContain(
      'calling Rajesh from Pune about their loan instalment of 25,000, due on 15/12/2026',
    );
    expect(stored?.prompt_text).not.toContain('@{{');
    expect(stored?.callback_url).toBe('https://example.test/hook');
    const details = await t.api<{ data: { call_status: string; callee_name: string } }>(
      `/calling/call-details?id=${body.data.call_id}`,
    );
    expect(details.body.data).toMatchObject({ call_status: 'ongoing', callee_name: 'Rajesh' });
  });

  it('uses name as callee_name when custom_args_values has none, and transliterates on request', async () => {
    const r = await post({
      ...base(),
      name: 'Priya',
      from_number_id: numberId,
      smart_formatter: { transliteration: true, transliteration_language: { source: 'en', target: 'hi' } },
    });
    expect(r.status).toBe(200);
    const data = (r.body.data ?? {}) as { custom_args_values: Record<string, string> };
    expect(data.custom_args_values.callee_name).toBe('प्रिया');
    expect(data.custom_args_values.original_callee_name).toBe('Priya');
  });

  it('accepts from_number (a workspace number) and queues a call outside its call window', async () => {
    const r = await post({
      ...base(),
      from_number: number,
      // A one-minute window twelve hours away from now, whatever the time is.
      call_config: {
        call_time: { call_start_time: windowAway(12), call_end_time: windowAway(12, 1), timezone: 'UTC' },
      },
    });
    expect(r.status).toBe(200);
    expect((r.body.data as { call_status: string }).call_status).toBe('registered');
  });

  it.each([
    ['no number source', {}, /exactly one of number_pool_id, from_number_id or from_number \(none given\)/],
    [
      'both from_number_id and from_number',
      { from_number_id: 'x', from_number: '+14158675309' },
      /exactly one .*\(got from_number_id and from_number\)/,
    ],
    [
      'both number_pool_id and from_number',
      { number_pool_id: 'p', from_number: '+14158675309' },
      /exactly one .*\(got number_pool_id and from_number\)/,
    ],
    [
      'all three number sources',
      { number_pool_id: 'p', from_number_id: 'x', from_number: '+14158675309' },
      /\(got number_pool_id and from_number_id and from_number\)/,
    ],
  ])('answers the validation error for %s', async (_what, extra, message) => {
    const r = await post({ ...base(), ...extra });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { code: 'invalid_parameter', message: expect.stringMatching(message) } });
  });

  it.each(['name', 'mobile_number', 'agent_id'])(
    'answers the validation error when %s is missing',
    async (field) => {
      const body: Record<string, unknown> = { ...base(), number_pool_id: poolId };
      delete body[field];
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        error: { code: 'invalid_parameter', message: expect.stringContaining(field) },
      });
    },
  );

  it.each(['9876543210', '+91 98765 43210', '+0123456789', '+91987654321012345'])(
    'refuses the non-E.164 mobile_number %s',
    async (mobile) => {
      const r = await post({ ...base(), mobile_number: mobile, number_pool_id: poolId });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        error: { code: 'invalid_parameter', message: expect.stringContaining('mobile_number') },
      });
    },
  );

  it('refuses unknown numbers, pools, versions and agents', async () => {
    expect((await post({ ...base(), from_number_id: 'nope' })).status).toBe(400);
    expect((await post({ ...base(), from_number: '+14150000000' })).status).toBe(400);
    expect((await post({ ...base(), number_pool_id: 'nope' })).status).toBe(400);
    expect((await post({ ...base(), number_pool_id: poolId, version_id: 'nope' })).status).toBe(400);
    // The seed lists only validation errors, 401 and 500 here: an agent that is not a UUID, or not
    // one of the workspace's, is an invalid parameter.
    for (const agentId of ['nope', '0b6f5f3e-4a1d-4c55-9a8e-2f1f3c0d9e77']) {
      const r = await post({ ...base(), number_pool_id: poolId, agent_id: agentId });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        error: { code: 'invalid_parameter', message: expect.stringContaining('agent_id') },
      });
    }
  });

  it('refuses a call_time.scheduled_at that is not a date-time', async () => {
    for (const scheduledAt of ['garbage', '2026-02-30T10:00:00', '2026-11-24 10:00']) {
      const r = await post({
        ...base(),
        number_pool_id: poolId,
        call_config: { call_time: { scheduled_at: scheduledAt } },
      });
      expect(r.status, scheduledAt).toBe(400);
      expect(r.body).toMatchObject({
        error: { code: 'invalid_parameter', message: expect.stringContaining('scheduled_at') },
      });
    }
  });

  it('answers a clear error for a body that is not JSON', async () => {
    const r = await t.api('/calling/v2/outbound/individual', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'invalid_parameter' } });
  });

  it('queues the call (registered) when credits run out, and places it once credits are back', async () => {
    await t.control('/workspace', { method: 'POST', json: { credits: 0 } });
    const r = await post({ ...base(), number_pool_id: poolId });
    expect(r.status).toBe(200);
    const data = individualCallResponseSchema.parse(r.body).data;
    expect(data.call_status).toBe('registered');
    const details = async () =>
      (
        await t.api<{ data: { call_status: string; call_sub_status: string } }>(
          `/calling/call-details?id=${data.call_id}`,
        )
      ).body.data;
    await t.advance(120);
    expect(await details()).toMatchObject({ call_status: 'registered', call_sub_status: 'QUEUED' });
    await t.control('/workspace', { method: 'POST', json: { credits: 25000 } });
    await t.advance(61);
    expect((await details()).call_status).not.toBe('registered');
  });

  it('answers 401 with the seed body without a valid key', async () => {
    const r = await t.api('/calling/v2/outbound/individual', {
      method: 'POST',
      json: base(),
      headers: { 'x-api-key': 'bad' },
    });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: { code: '401 Unauthorized', message: 'Invalid credentials' } });
  });
});

describe('POST /calling/outbound/individual (deprecated v1)', () => {
  it('needs exactly one of from_number_id and from_number', async () => {
    const v1 = (json: unknown) => t.api('/calling/outbound/individual', { method: 'POST', json });
    expect((await v1({ ...base(), number_pool_id: poolId })).status).toBe(400);
    expect((await v1({ ...base(), from_number_id: numberId })).status).toBe(200);
  });
});

/** HH:MM (UTC) `hours` from now, plus `extraMinutes`. */
function windowAway(hours: number, extraMinutes = 0): string {
  const d = new Date(Date.now() + hours * 3600_000 + extraMinutes * 60_000);
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}
