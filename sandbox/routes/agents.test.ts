import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentByIdResponseSchema,
  agentListResponseSchema,
  normalizeAgent,
} from '../../shared/service/agent.ts';
import { extractPlaceholders } from '../../shared/domain/template.ts';
import { startTestSandbox, testBearer } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';

let t: TestSandbox;
let agents: Array<{ id: string; agent_display_name?: string | null }>;

beforeAll(async () => {
  t = await startTestSandbox();
  agents = agentListResponseSchema.parse((await t.api('/agent/all')).body);
});
afterAll(() => t.close());

const patch = (json: unknown, headers: Record<string, string> = { authorization: `Bearer ${testBearer}` }) =>
  t.api<Record<string, unknown>>('/agent/v1', { method: 'PATCH', json, headers });

describe('agents', () => {
  it('lists at least three agents in the documented envelope, without prompt text', async () => {
    const r = await t.api<{ status: string; data: { agents: Array<Record<string, unknown>> } }>('/agent/all');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('success');
    expect(agents.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(r.body)).not.toContain('@{{');
    expect((await t.api<typeof r.body>('/agent/all?limit=1&offset=1')).body.data.agents).toHaveLength(1);
  });

  it('serves each agent by id with the full prompt text, its variables and versions', async () => {
    let multiSection = 0;
    for (const a of agents) {
      const r = await t.api(`/agent/${a.id}`);
      expect(r.status).toBe(200);
      const detail = agentByIdResponseSchema.parse(r.body);
      const view = normalizeAgent(detail);
      expect(view.promptText).toBeTruthy();
      const used = extractPlaceholders(view.promptText ?? '');
      expect(used.length).toBeGreaterThanOrEqual(3);
      expect(view.variables).toEqual(expect.arrayContaining(['callee_name', 'mobile_number', ...used]));
      // The documented root config carries the same full text as the active version's sections.
      expect(detail.agent_config?.agent_prompt).toBe(view.promptText);
      expect(view.versions.some((v) => v.isActive)).toBe(true);
      if ((view.promptText ?? '').split('\n## ').length >= 3) multiSection++;
    }
    expect(multiSection).toBeGreaterThanOrEqual(1);
  });

  it('answers 404 for an unknown agent', async () => {
    const r = await t.api('/agent/nope');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('PATCH /agent/v1 edit_event_subscriptions', () => {
  const subs = [
    {
      event_type: ['call_completed', 'all_processing_completed'],
      callback_url: 'https://hooks.example.test/a',
      headers: { Authorization: 'Bearer mine' },
      method_type: 'POST',
    },
    {
      event_type: ['recording_completed'],
      callback_url: 'http://127.0.0.1:9/b',
      headers: {},
      method_type: 'PUT',
    },
  ];

  it('replaces the subscriptions and shows them on the agent', async () => {
    const id = agents[0]?.id ?? '';
    const r = await patch({ operation: 'edit_event_subscriptions', agent_id: id, event_subscriptions: subs });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ message: 'Agent updated successfully!', agent_id: id });
    let view = normalizeAgent(agentByIdResponseSchema.parse((await t.api(`/agent/${id}`)).body));
    expect(view.eventSubscriptions).toHaveLength(2);
    // event_type is an array (seed, Resources): the single string of old docs is refused, nothing changes.
    const single = await patch({
      operation: 'edit_event_subscriptions',
      agent_id: id,
      event_subscriptions: [{ event_type: 'call_started', callback_url: 'https://hooks.example.test/c' }],
    });
    expect(single.status).toBe(400);
    expect(single.body).toMatchObject({
      error: { code: 'invalid_parameter', message: expect.stringContaining('event_type') },
    });
    view = normalizeAgent(agentByIdResponseSchema.parse((await t.api(`/agent/${id}`)).body));
    expect(view.eventSubscriptions).toHaveLength(2);
    // Replacement, not merge.
    await patch({
      operation: 'edit_event_subscriptions',
      agent_id: id,
      event_subscriptions: [{ event_type: ['call_started'], callback_url: 'https://hooks.example.test/c' }],
    });
    view = normalizeAgent(agentByIdResponseSchema.parse((await t.api(`/agent/${id}`)).body));
    expect(view.eventSubscriptions).toEqual([
      {
        event_type: ['call_started'],
        callback_url: 'https://hooks.example.test/c',
        headers: {},
        method_type: 'POST',
      },
    ]);
  });

  it('is authenticated by X-API-KEY alone when the sandbox runs without --bearer', async () => {
    const plain = await startTestSandbox({ bearerToken: undefined });
    try {
      const list = await plain.api<{ data: { agents: Array<{ id: string }> } }>('/agent/all');
      const body = {
        operation: 'edit_event_subscriptions',
        agent_id: list.body.data.agents[0]?.id,
        event_subscriptions: subs,
      };
      // As the docs' curl sends it: the key, no Authorization header.
      const r = await plain.api('/agent/v1', { method: 'PATCH', json: body });
      expect(r.status, r.text).toBe(200);
      // Any bearer a client sends along is not checked.
      const withBearer = await plain.api('/agent/v1', {
        method: 'PATCH',
        json: body,
        headers: { authorization: 'Bearer anything' },
      });
      expect(withBearer.status).toBe(200);
      const noKey = await plain.api('/agent/v1', {
        method: 'PATCH',
        json: body,
        headers: { 'x-api-key': '' },
      });
      expect(noKey.status).toBe(401);
    } finally {
      await plain.close();
    }
  });

  it('with --bearer: needs the bearer token as well as the key', async () => {
    const body = {
      operation: 'edit_event_subscriptions',
      agent_id: agents[0]?.id,
      event_subscriptions: subs,
    };
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: testBearer }] as Array<
      Record<string, string>
    >) {
      const r = await patch(body, headers);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: { code: '401 Unauthorized', message: 'Invalid credentials' } });
    }
    const noKey = await t.api('/agent/v1', {
      method: 'PATCH',
      json: body,
      headers: { authorization: `Bearer ${testBearer}`, 'x-api-key': '' },
    });
    expect(noKey.status).toBe(401);
  });

  it.each([
    ['an unknown event type', { event_type: ['call_exploded'], callback_url: 'https://x.test/' }],
    ['an empty event type list', { event_type: [], callback_url: 'https://x.test/' }],
    ['a URL that is not http(s)', { event_type: ['call_started'], callback_url: 'ftp://x.test/' }],
    ['a relative URL', { event_type: ['call_started'], callback_url: '/hook' }],
    [
      'an unknown method',
      { event_type: ['call_started'], callback_url: 'https://x.test/', method_type: 'DELETE' },
    ],
  ])('refuses %s', async (_what, sub) => {
    const r = await patch({
      operation: 'edit_event_subscriptions',
      agent_id: agents[0]?.id,
      event_subscriptions: [sub],
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'invalid_parameter' } });
  });

  it('refuses other operations and unknown agents', async () => {
    expect((await patch({ operation: 'attach_kb', agent_id: agents[0]?.id })).status).toBe(400);
    const r = await patch({
      operation: 'edit_event_subscriptions',
      agent_id: 'nope',
      event_subscriptions: [],
    });
    expect(r.status).toBe(404);
  });
});
