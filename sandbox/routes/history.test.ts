import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  historyDefaultEndDate,
  historyDefaultStartDate,
  historyResponseSchema,
} from '../../shared/service/history.ts';
import type { HistoryResponse } from '../../shared/service/history.ts';
import { allTime, startTestSandbox } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';

let t: TestSandbox;
let agentId: string;

beforeAll(async () => {
  t = await startTestSandbox();
  const agents = await t.api<{ data: { agents: Array<{ id: string }> } }>('/agent/all');
  agentId = agents.body.data.agents[0]?.id ?? '';
  // 300 completed calls in early October 2026, 200 failed in November (UTC).
  const a = await t.control('/seed-calls', {
    method: 'POST',
    json: {
      count: 300,
      status: 'completed',
      agent_id: agentId,
      start_date: '2026-10-01T00:00:00Z',
      end_date: '2026-10-10T00:00:00Z',
    },
  });
  expect(a.status).toBe(200);
  const b = await t.control('/seed-calls', {
    method: 'POST',
    json: {
      count: 200,
      status: 'failed',
      bulk_list_id: 'list-1',
      start_date: '2026-11-01T00:00:00+05:30',
      end_date: '2026-11-05T00:00:00+05:30',
    },
  });
  expect(b.status).toBe(200);
});
afterAll(() => t.close());

/** History with an all-time window unless the query names a date itself. */
const history = (q: string) =>
  t.api<HistoryResponse>(
    `/calling/history${/start_date|end_date/.test(q) ? q : `?${allTime}${q.replace(/^\?/, '&')}`}`,
  );
const enc = encodeURIComponent;

describe('GET /calling/history', () => {
  it('answers the page envelope with the seed defaults (limit 10, offset 0) and every call-record field', async () => {
    const r = await history('');
    expect(r.status).toBe(200);
    const page = historyResponseSchema.parse(r.body);
    expect(page).toMatchObject({ limit: 10, offset: 0, count: 10, total: 500 });
    const call = r.body.calls[0] as Record<string, unknown>;
    // The seed's fields and nothing else (no bulk_list_id: membership comes from the filter).
    expect(Object.keys(call).sort()).toEqual(
      [
        'id',
        'to_number',
        'name',
        'status',
        'sub_status',
        'transcript',
        'audio_recording',
        'created_at',
        'agent',
        'call_duration',
        'call_attempt_time',
        'call_cost',
        'call_type',
        'inbound_from',
        'credits_processed',
        'from_numbers',
        'voicemail_detected',
      ].sort(),
    );
    for (const field of [
      'id',
      'to_number',
      'name',
      'status',
      'sub_status',
      'transcript',
      'audio_recording',
      'created_at',
      'agent',
      'call_duration',
      'call_attempt_time',
      'call_cost',
      'call_type',
      'inbound_from',
      'credits_processed',
      'from_numbers',
      'voicemail_detected',
    ]) {
      expect(call, field).toHaveProperty(field);
    }
    expect(Object.keys(call.agent as object).sort()).toEqual(
      ['agent_name', 'agent_version_id', 'id', 'orchestration_mode', 'version'].sort(),
    );
  });

  it('orders newest first and pages with limit/offset without overlap', async () => {
    const p1 = await history('?limit=7&offset=0');
    const p2 = await history('?limit=7&offset=7');
    const both = [...p1.body.calls, ...p2.body.calls];
    expect(new Set(both.map((c) => c.id)).size).toBe(14);
    const times = both.map((c) => Date.parse(c.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
    const last = await history('?limit=7&offset=497');
    expect(last.body).toMatchObject({ count: 3, total: 500, offset: 497 });
  });

  it('filters by status, agent_id, bulk_list_id and date range', async () => {
    expect((await history('?status=completed')).body.total).toBe(300);
    expect((await history('?status=failed&limit=50')).body.calls.every((c) => c.status === 'failed')).toBe(
      true,
    );
    expect((await history('?status=ongoing')).body.total).toBe(0);
    expect((await history(`?agent_id=${agentId}`)).body.total).toBeGreaterThanOrEqual(300);
    expect((await history('?bulk_list_id=list-1')).body.total).toBe(200);
    expect((await history('?bulk_list_id=nope')).body.total).toBe(0);
    const oct = await history(
      `?start_date=${encodeURIComponent('2026-10-01T00:00:00+00:00')}&end_date=${encodeURIComponent('2026-10-20T23:59:59+00:00')}`,
    );
    expect(oct.body.total).toBe(300);
    const novIst = await history(
      `?start_date=${enc('2026-11-01T00:00:00+05:30')}&end_date=${enc('2026-12-01T00:00:00+05:30')}&limit=1`,
    );
    expect(novIst.body.total).toBe(200);
  });

  it('applies the fixed default day when dates are left out, each on its own', async () => {
    const day = await startTestSandbox();
    try {
      const seed = (start: string, end: string, count: number) =>
        day.control('/seed-calls', { method: 'POST', json: { count, start_date: start, end_date: end } });
      expect((await seed('2025-09-25T01:00:00+05:30', '2025-09-25T22:00:00+05:30', 7)).status).toBe(200);
      expect((await seed('2026-10-01T00:00:00Z', '2026-10-05T00:00:00Z', 40)).status).toBe(200);
      const none = await day.api<HistoryResponse>('/calling/history?limit=0');
      expect(none.body.total).toBe(7); // the stale default day only, never "everything"
      const explicit = await day.api<HistoryResponse>(`/calling/history?${allTime}&limit=0`);
      expect(explicit.body.total).toBe(47);
      // Only end_date: start defaults to the fixed day's start.
      const onlyEnd = await day.api<HistoryResponse>(
        `/calling/history?end_date=${enc('2026-12-01T00:00:00Z')}&limit=0`,
      );
      expect(onlyEnd.body.total).toBe(47);
      // Only start_date (after the fixed day): end defaults to the fixed day's end, before it.
      const onlyStart = await day.api(`/calling/history?start_date=${enc('2026-10-01T00:00:00Z')}`);
      expect(onlyStart.status).toBe(400);
      expect(onlyStart.body).toEqual({
        error: { code: 'invalid_parameter', message: expect.stringContaining(historyDefaultEndDate) },
      });
      expect(historyDefaultStartDate).toBe('2025-09-25T00:00:00+05:30');
    } finally {
      await day.close();
    }
  });

  it('answers limit=0 with an empty page and the total', async () => {
    const r = await history('?limit=0');
    expect(r.body).toMatchObject({ calls: [], count: 0, total: 500 });
  });

  it.each([
    ['a date without offset', `?start_date=2026-10-01T00:00:00&end_date=${enc('2026-10-02T00:00:00Z')}`],
    ['a non-date', '?start_date=2026-10-01T00:00:00Z&end_date=yesterday'],
    ['an impossible date', '?start_date=2026-02-31T00:00:00Z&end_date=2026-03-31T00:00:00Z'],
    ['a negative limit', '?limit=-1'],
    ['a non-numeric limit', '?limit=ten'],
    ['a non-numeric offset', '?offset=1.5'],
    ['a negative offset', '?offset=-3'],
    ['an offset past the integer range', '?offset=99999999999999999999'],
    ['an offset past 2^63', '?offset=9223372036854775808&limit=1'],
    ['a limit with spaces', '?limit=%205%20'],
    ['an unknown status', '?status=done'],
    ['a limit over the maximum', '?limit=1001'],
    ['end before start', '?start_date=2026-10-02T00:00:00Z&end_date=2026-10-01T00:00:00Z'],
  ])('answers 400 with the error object for %s', async (_what, q) => {
    const r = await history(q);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: { code: 'invalid_parameter', message: expect.any(String) } });
  });

  it('answers 401 with the seed body without a key or with a wrong key', async () => {
    for (const key of ['', 'wrong-key']) {
      const r = await t.api('/calling/history', { headers: { 'x-api-key': key } });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: { code: '401 Unauthorized', message: 'Invalid credentials' } });
    }
  });
});

describe('GET /calling/call-details', () => {
  it('answers the documented data object for a known call', async () => {
    const page = await history('?status=completed&limit=1');
    const call = page.body.calls[0];
    const r = await t.api<{ status: string; data: Record<string, unknown> }>(
      `/calling/call-details?id=${call?.id}&send_analysis=true`,
    );
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('success');
    expect(r.body.data).toMatchObject({
      id: call?.id,
      call_direction: 'outbound',
      call_status: 'completed',
      to_number: call?.to_number,
      agent_id: agentId,
    });
    expect(Array.isArray(r.body.data.transcription_url)).toBe(true);
    expect(r.body.data).toHaveProperty('platform_analysis');
  });

  it('answers 404 for an unknown id and 400 without an id', async () => {
    expect((await t.api('/calling/call-details?id=nope')).status).toBe(404);
    const r = await t.api('/calling/call-details');
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'invalid_parameter' } });
  });
});
