import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { uploadCsvResponseSchema, uploadStatusResponseSchema } from '../../shared/service/upload.ts';
import { allTime, startTestSandbox } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';
import { campaignTimeIn, loanCsv, loanVariablesMap, uploadForm } from '../testing/fixtures.ts';

let t: TestSandbox;
let agentId: string;
let otherAgentId: string;
let poolId: string;
let numberId: string;

beforeAll(async () => {
  t = await startTestSandbox();
  const agents = await t.api<{ data: { agents: Array<{ id: string; agent_display_name: string }> } }>(
    '/agent/all',
  );
  agentId = agents.body.data.agents.find((a) => a.agent_display_name === 'Loan Repayment Reminder')?.id ?? '';
  otherAgentId =
    agents.body.data.agents.find((a) => a.agent_display_name !== 'Loan Repayment Reminder')?.id ?? '';
  const nums = await t.api<{ workspace_numbers: Array<{ id: string; number_pool_id: string }> }>(
    '/workspace/numbers',
  );
  poolId = nums.body.workspace_numbers[0]?.number_pool_id ?? '';
  numberId = nums.body.workspace_numbers[0]?.id ?? '';
});
afterAll(() => t.close());

const upload = (form: FormData) =>
  t.api<Record<string, unknown>>('/campaign/upload-csv', { method: 'POST', body: form });
const status = (id: string) => t.api<Record<string, unknown>>(`/campaign/upload-status/${id}`);
const start = (json: unknown) =>
  t.api<Record<string, unknown>>('/campaign/make-call-async', { method: 'POST', json });

/** FastAPI's body for missing form fields. */
const missing = (fields: string[]) => ({
  detail: fields.map((f) => ({ type: 'missing', loc: ['body', f], msg: 'Field required', input: null })),
});

async function uploaded(
  rows: number,
  opts: Parameters<typeof loanCsv>[1] = {},
  fields: Record<string, string> = {},
) {
  const r = await upload(uploadForm(loanCsv(rows, opts), { agent_id: agentId, ...fields }));
  expect(r.status, r.text).toBe(200);
  return uploadCsvResponseSchema.parse(r.body);
}

describe('upload-csv and upload status on the virtual clock', () => {
  it('accepts a 6,000-row CSV as verifying, then processing, then completed', async () => {
    const up = await uploaded(6000);
    expect(up).toMatchObject({
      status: 'verifying',
      campaign_name: 'Test campaign',
      total_callees: 0,
      invalidated_rows_count: 0,
      invalidated_rows_csv_url: null,
    });
    let s = uploadStatusResponseSchema.parse((await status(up.bulk_list_id)).body);
    expect(s.status).toBe('verifying');
    await t.advance(2.5); // 2 s verifying, then 2,000 rows per second
    s = uploadStatusResponseSchema.parse((await status(up.bulk_list_id)).body);
    expect(s.status).toBe('processing');
    expect(s.processed_rows).toBe(1000);
    expect(s.total_rows).toBe(6000);
    await t.advance(3);
    s = uploadStatusResponseSchema.parse((await status(up.bulk_list_id)).body);
    expect(s).toMatchObject({
      status: 'completed',
      total_callees: 6000,
      invalidated_rows_count: 0,
      invalidated_rows_csv_url: null,
      processed_rows: 6000,
      successful_rows: 6000,
      failed_rows: 0,
    });
  });

  it('fails an upload with invalid rows, counts them, and serves them as CSV', async () => {
    const up = await uploaded(5000, { badPhoneRows: [3, 10], emptyNameRows: [20], duplicateRows: [40] });
    await t.advance(10);
    const s = uploadStatusResponseSchema.parse((await status(up.bulk_list_id)).body);
    expect(s).toMatchObject({
      status: 'failed',
      invalidated_rows_count: 4,
      failed_rows: 4,
      successful_rows: 4996,
    });
    expect(s.invalidated_rows_csv_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v0\/files\/invalid-rows\//);
    // The file is public like a storage URL: no key needed.
    const file = await fetch(s.invalidated_rows_csv_url ?? '');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('text/csv');
    const parsed = Papa.parse<Record<string, string>>((await file.text()).trim(), { header: true });
    expect(parsed.data.map((r) => r['Row Number'])).toEqual(['3', '10', '20', '40']);
    expect(parsed.data[0]?.Reason).toContain('12345');
    expect(parsed.data[2]?.Reason).toContain('Name is empty');
    expect(parsed.data[3]?.Reason).toContain('repeats row 1');
    expect(parsed.data[0]?.Name).toBe('Customer 3, Jr');
    // A failed list never starts.
    const r = await start({ bulk_list_id: up.bulk_list_id, agent_id: agentId, number_pool_id: poolId });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ detail: expect.stringContaining('failed') });
  });

  it('honours remove_invalid_rows: the list completes without the invalid rows', async () => {
    const up = await uploaded(5000, { badPhoneRows: [5] }, { remove_invalid_rows: 'true' });
    await t.advance(10);
    const s = uploadStatusResponseSchema.parse((await status(up.bulk_list_id)).body);
    expect(s).toMatchObject({ status: 'completed', total_callees: 4999, invalidated_rows_count: 1 });
    expect(s.invalidated_rows_csv_url).toBeTruthy();
  });

  it('refuses files under 5,000 rows with a detail naming the standard flow', async () => {
    const r = await upload(uploadForm(loanCsv(4999), { agent_id: agentId }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: expect.stringMatching(/5,000.*4999.*\/campaign\/save/s) });
  });

  it.each([
    [
      'an unknown agent variable',
      { variables_map: JSON.stringify({ ...loanVariablesMap, shoe_size: 'Name' }) },
      /shoe_size/,
    ],
    [
      'a column the CSV lacks',
      { variables_map: JSON.stringify({ ...loanVariablesMap, city: 'Town' }) },
      /"Town"/,
    ],
    [
      'an unmapped agent variable',
      { variables_map: JSON.stringify({ callee_name: 'Name' }) },
      /has no CSV column/,
    ],
    ['variables_map that is not JSON', { variables_map: '{callee_name:' }, /not valid JSON/],
    ['a bad country code', { country_code: 'India' }, /country_code/],
    ['call_config that is not JSON', { call_config: 'x' }, /call_config/],
    [
      'call_config with a bad time zone',
      { call_config: JSON.stringify({ call_time: { timezone: 'Mars/Base' } }) },
      /timezone/,
    ],
    ['a start time in the past', { campaign_start_time: '01/01/2020, 09:00' }, /future/],
    ['a malformed start time', { campaign_start_time: '2026-12-01 09:00' }, /DD\/MM\/YYYY/],
    [
      'an end time before the start',
      { campaign_start_time: campaignTimeIn(48), campaign_end_time: campaignTimeIn(47) },
      /after/,
    ],
  ])('refuses %s with { detail }', async (_what, fields, message) => {
    const r = await upload(uploadForm(loanCsv(5000), { agent_id: agentId, ...fields }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: expect.stringMatching(message) });
  });

  it('refuses a bad CSV: no Mobile Number column, binary content, unknown agent, no file, not multipart', async () => {
    const noPhone = loanCsv(5000).replace('Mobile Number', 'Phone');
    let r = await upload(uploadForm(noPhone, { agent_id: agentId }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: expect.stringContaining('Mobile Number') });
    const binary = new FormData();
    binary.set('file', new Blob([new Uint8Array([0, 159, 146, 150, 0, 1])]), 'photo.jpg');
    for (const [k, v] of uploadForm('', { agent_id: agentId }).entries()) if (k !== 'file') binary.set(k, v);
    r = await upload(binary);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: expect.stringContaining('photo.jpg') });
    r = await upload(uploadForm(loanCsv(5000), { agent_id: 'nope' }));
    expect(r.status).toBe(404);
    expect(r.body).toHaveProperty('detail');
    const noFile = uploadForm('', { agent_id: agentId });
    noFile.delete('file');
    r = await upload(noFile);
    expect(r.status).toBe(422);
    expect(r.body).toEqual(missing(['file']));
    r = await t.api('/campaign/upload-csv', { method: 'POST', json: { agent_id: agentId } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: expect.stringContaining('multipart') });
  });

  it.each(['/campaign/upload-csv', '/campaign/save'])(
    '%s: answers 422 naming each missing required field (start/end time, call_config, blank name)',
    async (path) => {
      const form = uploadForm(loanCsv(5000), {
        agent_id: agentId,
        campaign_name: '  ',
      });
      form.delete('campaign_start_time');
      form.delete('campaign_end_time');
      form.delete('call_config');
      const r = await t.api(path, { method: 'POST', body: form });
      expect(r.status).toBe(422);
      expect(r.body).toEqual(
        missing(['campaign_name', 'campaign_start_time', 'campaign_end_time', 'call_config']),
      );
      const one = uploadForm(loanCsv(5000), { agent_id: agentId });
      one.delete('call_config');
      const r1 = await t.api(path, { method: 'POST', body: one });
      expect(r1.status).toBe(422);
      expect(r1.body).toEqual(missing(['call_config']));
    },
  );

  it('answers 404 { detail } for an unknown bulk list', async () => {
    const r = await status('nope');
    expect(r.status).toBe(404);
    expect(r.body).toHaveProperty('detail');
  });
});

describe('balance check and make-call-async', () => {
  it('refuses a list that is not ready, then checks balance and starts it exactly once', async () => {
    const up = await uploaded(5000);
    const id = up.bulk_list_id;
    let r = await start({ bulk_list_id: id, agent_id: agentId, number_pool_id: poolId });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ detail: expect.stringMatching(/not ready/) });
    expect((await t.api(`/campaign/check-balance/${id}`, { method: 'POST' })).status).toBe(409);

    await t.advance(5);
    const bal = await t.api<Record<string, unknown>>(`/campaign/check-balance/${id}`, { method: 'POST' });
    expect(bal.status).toBe(200);
    expect(bal.body).toMatchObject({
      status: 'draft',
      bulk_list_id: id,
      required_credits: 5000,
      available_credits: 25000,
      sufficient_balance: true,
    });

    r = await start({
      bulk_list_id: id,
      agent_id: agentId,
      number_pool_id: poolId,
      country_code: '+91',
      call_config: {
        call_retry_config: { retry_count: 2, retry_busy: 10, retry_not_picked: 10, retry_failed: 10 },
        call_time: {
          call_start_time: '09:00',
          call_end_time: '18:00',
          timezone: 'Asia/Kolkata',
          scheduled_at: null,
        },
      },
      concurrency_percentage: 25,
      callback_url: 'https://example.test/done',
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Campaign calls scheduled', bulk_list_id: id, status: 'scheduled' });

    const hist = await t.api<{
      total: number;
      calls: Array<{ status: string; sub_status: string }>;
    }>(`/calling/history?${allTime}&bulk_list_id=${id}&limit=5`);
    // Membership comes from the filter; the rows carry only the seed's fields (no bulk_list_id).
    expect(hist.body.total).toBe(5000);
    expect(hist.body.calls).toHaveLength(5);
    expect(hist.body.calls.every((c) => c.status === 'registered' && c.sub_status === 'IN_DB')).toBe(true);
    expect(hist.body.calls.some((c) => 'bulk_list_id' in c)).toBe(false);
    expect((await status(id)).body).toMatchObject({ status: 'scheduled' });

    r = await start({ bulk_list_id: id, agent_id: agentId, number_pool_id: poolId });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ detail: expect.stringContaining('already started') });
    expect(
      (await t.api<{ total: number }>(`/calling/history?${allTime}&bulk_list_id=${id}&limit=0`)).body.total,
    ).toBe(5000);

    const stats = await t.control<{
      starts: Array<{
        bulk_list_id: string;
        accepted: number;
        refused: number;
        refused_already_started: number;
      }>;
    }>('/stats');
    expect(stats.body.starts.find((s) => s.bulk_list_id === id)).toEqual({
      bulk_list_id: id,
      accepted: 1,
      refused: 2,
      refused_already_started: 1,
    });
  });

  it.each([
    [
      'both from_numbers and number_pool_id',
      (id: string) => ({
        bulk_list_id: id,
        agent_id: agentId,
        from_numbers: ['+14158675309'],
        number_pool_id: poolId,
      }),
    ],
    ['neither from_numbers nor number_pool_id', (id: string) => ({ bulk_list_id: id, agent_id: agentId })],
  ])('answers 422 with a detail body for %s', async (_what, body) => {
    const r = await start(body('any-list'));
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      detail: expect.stringContaining('exactly one of from_numbers or number_pool_id'),
    });
  });

  it('answers 422 for an empty from_numbers and for a call_config key that is individual call only', async () => {
    let r = await start({ bulk_list_id: 'any-list', agent_id: agentId, from_numbers: [] });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ detail: expect.stringContaining('from_numbers') });
    for (const key of ['idle_timeout_warning', 'idle_timeout_end', 'max_call_length']) {
      r = await start({
        bulk_list_id: 'any-list',
        agent_id: agentId,
        number_pool_id: poolId,
        call_config: { [key]: 30, call_retry_config: { retry_count: 1 } },
      });
      expect(r.status, key).toBe(422);
      expect(r.body).toEqual({ detail: expect.stringContaining(key) });
    }
  });

  it('starts only lists of its own flow: make-call-async an upload, campaign/start a saved list', async () => {
    const save = await t.api<Record<string, unknown>>('/campaign/save', {
      method: 'POST',
      body: uploadForm(loanCsv(3), { agent_id: agentId, campaign_name: 'Small' }),
    });
    expect(save.status, save.text).toBe(200);
    const saved = String(save.body.list_id);
    let r = await start({ bulk_list_id: saved, agent_id: agentId, number_pool_id: poolId });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: expect.stringContaining('start it with campaign/start') });

    const up = await uploaded(5000);
    await t.advance(5);
    r = await t.api<Record<string, unknown>>('/campaign/start', {
      method: 'POST',
      json: { agent_id: agentId, list_id: up.bulk_list_id, from_numbers: [numberId] },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: expect.stringContaining('start it with make-call-async') });
    // Neither refusal started anything: the upload still starts once, the saved list too.
    r = await start({ bulk_list_id: up.bulk_list_id, agent_id: agentId, number_pool_id: poolId });
    expect(r.status, r.text).toBe(200);
    r = await t.api<Record<string, unknown>>('/campaign/start', {
      method: 'POST',
      json: { agent_id: agentId, list_id: saved, from_numbers: [numberId] },
    });
    expect(r.status, r.text).toBe(200);
  });

  it('answers 422 for a bad concurrency_percentage and 404 for an unknown list', async () => {
    let r = await start({
      bulk_list_id: 'x',
      agent_id: agentId,
      number_pool_id: poolId,
      concurrency_percentage: 101,
    });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ detail: expect.stringContaining('concurrency_percentage') });
    r = await start({ bulk_list_id: 'nope', agent_id: agentId, number_pool_id: poolId });
    expect(r.status).toBe(404);
  });

  it('starts with from_numbers (ids or numbers), refuses unknown numbers, a wrong agent and too few credits', async () => {
    const up = await uploaded(5000);
    await t.advance(5);
    const id = up.bulk_list_id;
    expect(
      (await start({ bulk_list_id: id, agent_id: agentId, from_numbers: ['+10000000000'] })).status,
    ).toBe(400);
    expect((await start({ bulk_list_id: id, agent_id: otherAgentId, from_numbers: [numberId] })).status).toBe(
      400,
    );
    await t.control('/workspace', { method: 'POST', json: { credits: 10 } });
    const poor = await start({ bulk_list_id: id, agent_id: agentId, from_numbers: [numberId] });
    expect(poor.status).toBe(402);
    expect(poor.body).toEqual({ detail: expect.stringContaining('Insufficient credits') });
    await t.control('/workspace', { method: 'POST', json: { credits: 25000 } });
    expect(
      (await start({ bulk_list_id: id, agent_id: agentId, from_numbers: [numberId, '+14158675309'] })).status,
    ).toBe(200);
  });
});

describe('standard flow: save, start, v2 start, listing, terminate', () => {
  it('saves a small list, starts it once, lists it and terminates its calls', async () => {
    const save = await t.api<Record<string, unknown>>('/campaign/save', {
      method: 'POST',
      body: uploadForm(loanCsv(20, { badPhoneRows: [2] }), {
        agent_id: agentId,
        remove_invalid_rows: 'true',
        campaign_name: 'Small one',
      }),
    });
    expect(save.status).toBe(200);
    expect(save.body).toMatchObject({
      message: 'Contacts imported successfully!',
      total_rows: 20,
      successful_rows: 19,
      failed_rows: 1,
    });
    expect(save.body.custom_args_values).toHaveLength(19);
    const listId = String(save.body.list_id);

    const startOnce = (path: string, json: unknown) =>
      t.api<Record<string, unknown>>(path, { method: 'POST', json });
    let r = await startOnce('/campaign/start', {
      agent_id: agentId,
      list_id: listId,
      from_numbers: ['+14158675309'],
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: 'campaign registered successfully!',
      has_ongoing_calls: expect.any(Boolean),
    });
    r = await startOnce('/campaign/v2/start', { agent_id: agentId, list_id: listId, number_pool_id: poolId });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: expect.stringContaining('already started') });

    const all = await t.api<{ campaigns: Array<Record<string, unknown>>; pagination: { total: number } }>(
      '/campaign/all?limit=100',
    );
    const mine = all.body.campaigns.find((c) => c.id === listId);
    expect(mine).toMatchObject({
      name: 'Small one',
      campaign_status: 'scheduled',
      registered_count: 19,
      completed_count: 0,
      total_count: 19,
    });
    expect(all.body.pagination.total).toBeGreaterThanOrEqual(1);
    const noCounts = await t.api<{ campaigns: Array<Record<string, unknown>> }>(
      '/campaign/all?call_count=false&limit=100',
    );
    expect(noCounts.body.campaigns.find((c) => c.id === listId)).not.toHaveProperty('total_count');

    const term = await t.api<Record<string, unknown>>('/campaign/terminate', {
      method: 'PATCH',
      json: { campaign_id: listId },
    });
    expect(term.status).toBe(200);
    expect(term.body).toEqual({ message: 'Calls terminated successfully!', terminated_count: 19 });
    expect(
      (
        await t.api<{ total: number }>(
          `/calling/history?${allTime}&bulk_list_id=${listId}&status=cancelled&limit=0`,
        )
      ).body.total,
    ).toBe(19);
    const again = await t.api('/campaign/terminate', { method: 'PATCH', json: { campaign_id: listId } });
    expect(again.status).toBe(400);
    expect(again.body).toHaveProperty('detail');
  });

  it('refuses a save with invalid rows unless remove_invalid_rows, naming the rows', async () => {
    const r = await t.api('/campaign/save', {
      method: 'POST',
      body: uploadForm(loanCsv(10, { badPhoneRows: [4] }), { agent_id: agentId }),
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ detail: expect.stringMatching(/row 4 \(line 5\)/) });
  });

  it('v2 start uses a pool; terminate sub-paths cancel by call id and by number', async () => {
    const save = await t.api<{ list_id: string }>('/campaign/save', {
      method: 'POST',
      body: uploadForm(loanCsv(5), { agent_id: agentId }),
    });
    const listId = save.body.list_id;
    const r = await t.api('/campaign/v2/start', {
      method: 'POST',
      json: { agent_id: agentId, list_id: listId, number_pool_id: poolId },
    });
    expect(r.status).toBe(200);
    const calls = await t.api<{ calls: Array<{ id: string; to_number: string }> }>(
      `/calling/history?${allTime}&bulk_list_id=${listId}`,
    );
    const [a, b] = calls.body.calls;
    let term = await t.api<{ terminated_count: number }>('/campaign/terminate/calls', {
      method: 'PATCH',
      json: { call_ids: [a?.id, 'unknown-id'] },
    });
    expect(term.body.terminated_count).toBe(1);
    term = await t.api<{ terminated_count: number }>('/campaign/terminate/numbers', {
      method: 'PATCH',
      json: { mobile_numbers: [b?.to_number] },
    });
    expect(term.body.terminated_count).toBeGreaterThanOrEqual(1);
    expect(
      (await t.api('/campaign/terminate/numbers', { method: 'PATCH', json: { mobile_numbers: ['12345'] } }))
        .status,
    ).toBe(400);
    expect((await t.api('/campaign/terminate', { method: 'PATCH', json: {} })).status).toBe(400);
  });
});
