import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentByIdResponseSchema,
  agentListResponseSchema,
  normalizeAgent,
} from '../../shared/service/agent.ts';
import { startTestSandbox } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.close());

describe('POST /_sandbox/agents', () => {
  it('adds agents after the built-in ones, archived every n-th, with versions, listed across pages', async () => {
    const r = await t.control<{ agents: Array<{ id: string; name: string; archived: boolean }> }>('/agents', {
      method: 'POST',
      json: {
        count: 30,
        name_prefix: 'Paged',
        archive_every: 10,
        versions: 2,
        prompt: 'Hi @{{callee_name}}, @{{city}}',
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.body.agents).toHaveLength(30);
    expect(r.body.agents.filter((a) => a.archived).map((a) => a.name)).toEqual([
      'Paged 10',
      'Paged 20',
      'Paged 30',
    ]);

    const names: string[] = [];
    for (let offset = 0; ; offset += 20) {
      const page = agentListResponseSchema.parse((await t.api(`/agent/all?limit=20&offset=${offset}`)).body);
      names.push(...page.map((a) => a.agent_display_name ?? ''));
      if (page.length < 20) break;
    }
    expect(names.filter((n) => n.startsWith('Paged '))).toEqual(r.body.agents.map((a) => a.name));

    const detail = normalizeAgent(
      agentByIdResponseSchema.parse((await t.api(`/agent/${r.body.agents[0]!.id}`)).body),
    );
    expect(detail.versions.map((v) => v.slug)).toEqual(['v1', 'v2']);
    expect(detail.versions.find((v) => v.isActive)?.slug).toBe('v2');
    expect(detail.promptText).toContain('Hi @{{callee_name}}, @{{city}}');
    expect(detail.variables).toEqual(expect.arrayContaining(['callee_name', 'mobile_number', 'city']));
  });

  it('names the field of a bad request', async () => {
    const r = await t.control<{ error?: unknown }>('/agents', { method: 'POST', json: { count: 0 } });
    expect(r.status).toBe(400);
    expect(r.text).toMatch(/count/);
    const extra = await t.control('/agents', { method: 'POST', json: { count: 1, nope: 1 } });
    expect(extra.status).toBe(400);
  });
});
