import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentDetail, AgentSummary } from '../../../shared/ipc/channels/agents.ts';
import type { Workspace } from '../../../shared/ipc/channels/workspaces.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import { createDesk } from '../createDesk.ts';
import { DATABASE_FILE_NAME } from '../db/openDatabase.ts';
import { tempDirs } from '../db/testing.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';

// Every documented (and observed) shape of the agent listing and of the agent by id, served over
// real HTTP by a minimal service, synced by the desk: the library reads each one, and the stored
// raw answer keeps fields it does not know.

const dirs = tempDirs('desk-agents-tolerant-');
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  dirs.cleanup();
});

const value = <T>(r: Result<unknown>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
};

const listItems = [
  { id: 'doc', agent_display_name: 'Documented', mystery_list_field: { kept: true } },
  { id: 'obs', agent_display_name: 'Observed', active_agent_version_id: 'v2', is_archived: false },
  { id: 'multi', agent_display_name: 'Multi node', is_archived: 'true', call_count: 'many' },
  { id: 'bare', custom_variables: ['callee_name', 'policy_no'] },
];

/** Agent by id, each in another envelope. */
const details: Record<string, unknown> = {
  // Documented: {agents: {...}}, root agent_config, custom_variables as an object, voice object.
  doc: {
    agents: {
      id: 'doc',
      agent_display_name: 'Documented',
      language: 'en-US',
      voice: { id: 'v-1', name: 'Asha', voice_preview: null },
      agent_config: {
        custom_variables: { callee_name: 'string', mobile_number: 'string', product: 'string' },
        agent_prompt: 'Hi @{{callee_name}}, about @{{product}} and @{{offer}}.',
        intro_message: 'Hello',
      },
      mystery_detail_field: 'kept-42',
    },
  },
  // Observed: {agent: {...}}, versions with prompt sections, custom_variables as a list,
  // event_type as one string (old docs).
  obs: {
    agent: {
      id: 'obs',
      agent_display_name: 'Observed',
      active_agent_version_id: 'v2',
      ab_versions: { v1: { slug: 'first' }, v2: { slug: 'second', description: 'new', call_traffic: 1 } },
      version_details: {
        v1: {
          agent_config: {
            agent_prompt: { prompt_sections: [{ section_title: 'Task', section_content: 'Old @{{a}}' }] },
          },
        },
        v2: {
          language: 'hi-IN',
          voice: 'Ananya',
          agent_config: {
            custom_variables: ['callee_name', 'mobile_number', 'amount'],
            agent_prompt: {
              prompt_sections: [
                { section_title: 'Task', section_content: 'Collect @{{amount}} from @{{callee_name}}' },
                { section_title: 'FAQ', section_content: 'Due @{{due_date}}' },
              ],
            },
          },
          event_subscriptions: [
            {
              event_type: 'call_completed',
              callback_url: 'https://h.test/x',
              headers: { Auth: 'secret-header-1' },
            },
          ],
          unknown_version_field: [1, 2],
        },
      },
    },
  },
  // {data: {...}}, multi-node: no prompt.
  multi: {
    data: {
      id: 'multi',
      agent_display_name: 'Multi node',
      orchestration_mode: 'multi_node',
      agent_config: { agent_prompt: null },
    },
  },
  // The bare object.
  bare: { id: 'bare', custom_variables: ['callee_name', 'policy_no'] },
};

/** PATCH /agent/v1 answers per agent: each error shape of the service. */
const refusals: Record<string, [number, unknown]> = {
  doc: [
    400,
    { error: { code: 'invalid_parameter', message: 'callback_url must be reachable from the service' } },
  ],
  obs: [403, { detail: 'This agent is locked by another editor' }],
  bare: [422, { detail: [{ loc: ['body', 'event_subscriptions', 0, 'callback_url'], msg: 'invalid url' }] }],
};

const envelopes: Record<string, (items: unknown[]) => unknown> = {
  'observed {status, data: {agents}}': (items) => ({ status: 'success', data: { agents: items } }),
  'documented {agents: [...]}': (items) => ({ agents: items }),
  '{data: [...]}': (items) => ({ data: items }),
  'a bare list': (items) => items,
};

async function serve(envelope: (items: unknown[]) => unknown): Promise<string> {
  const server: Server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'PATCH' && url.pathname === '/v0/agent/v1') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const agentId = (JSON.parse(body) as { agent_id: string }).agent_id;
        const [status, answer] = refusals[agentId] ?? [
          200,
          { message: 'Agent updated successfully!', agent_id: agentId },
        ];
        res.statusCode = status;
        res.end(JSON.stringify(answer));
      });
      return;
    }
    if (url.pathname === '/v0/agent/all') {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 20);
      res.end(JSON.stringify(envelope(listItems.slice(offset, offset + limit))));
      return;
    }
    const id = /^\/v0\/agent\/([^/]+)$/.exec(url.pathname)?.[1];
    if (id && details[id]) {
      res.end(JSON.stringify(details[id]));
      return;
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { message: 'Not found' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v0`;
}

describe('tolerant agent sync', () => {
  for (const [name, envelope] of Object.entries(envelopes)) {
    it(`reads the listing as ${name} and every agent-by-id shape, keeping unknown fields`, async () => {
      const baseUrl = await serve(envelope);
      const dataDir = dirs.make();
      const desk = await createDesk({
        dataDir,
        host: 'browser',
        version: '1',
        sandbox: 'off',
        secrets: new SessionSecretStore(),
      });
      cleanups.push(() => desk.close());
      const ws = value<Workspace>(
        await desk.handle('workspaces:create', { name: 'Tolerant', baseUrl, apiKey: 'k' }),
      );
      value(await desk.handle('workspaces:set-active', { id: ws.id }));
      expect(value<{ agents: number }>(await desk.handle('agents:sync', {})).agents).toBe(4);

      const { agents } = value<{ agents: AgentSummary[] }>(await desk.handle('agents:list', {}));
      const byId = Object.fromEntries(agents.map((a) => [a.id, a]));
      expect(byId.doc).toMatchObject({
        name: 'Documented',
        language: 'en-US',
        versions: 0,
        variables: ['callee_name', 'product', 'offer'],
      });
      expect(byId.obs).toMatchObject({
        language: 'hi-IN',
        versions: 2,
        activeVersionId: 'v2',
        variables: ['callee_name', 'amount', 'due_date'],
      });
      expect(byId.multi).toMatchObject({ archived: true, variables: ['callee_name'] });
      expect(byId.bare).toMatchObject({ name: 'bare', variables: ['callee_name', 'policy_no'] });

      const get = async (agentId: string) =>
        value<{ agent: AgentDetail }>(await desk.handle('agents:get', { agentId })).agent;
      const doc = await get('doc');
      expect(doc.voice).toBe('Asha');
      expect(doc.agentVersions).toHaveLength(1);
      expect(doc.agentVersions[0]).toMatchObject({
        id: 'root',
        isActive: true,
        promptText: 'Hi @{{callee_name}}, about @{{product}} and @{{offer}}.',
      });
      expect(doc.agentVersions[0]!.variables.map((v) => [v.name, v.declared])).toEqual([
        ['mobile_number', true],
        ['callee_name', true],
        ['product', true],
        ['offer', false],
      ]);
      const obs = await get('obs');
      expect(obs.voice).toBe('Ananya');
      expect(obs.agentVersions.map((v) => [v.id, v.label, v.isActive])).toEqual([
        ['v1', 'first', false],
        ['v2', 'second', true],
      ]);
      expect(obs.agentVersions[1]!.promptText).toBe(
        '## Task\nCollect @{{amount}} from @{{callee_name}}\n\n## FAQ\nDue @{{due_date}}',
      );
      expect(obs.agentVersions[1]!.variables.find((v) => v.name === 'due_date')?.occurrences).toEqual([
        { line: 5, section: 'FAQ', excerpt: 'Due @{{due_date}}' },
      ]);
      expect(obs.subscriptions).toEqual([
        {
          key: 'c:0',
          eventTypes: ['call_completed'],
          callbackUrl: 'https://h.test/x',
          method: 'POST',
          headers: [{ name: 'Auth', masked: '••••••-1' }],
        },
      ]);
      expect(JSON.stringify(obs)).not.toContain('secret-header-1');
      const multi = await get('multi');
      expect(multi.agentVersions[0]).toMatchObject({ promptText: null, pieces: [] });

      await desk.close();
      cleanups.pop();
      const db = new Database(join(dataDir, DATABASE_FILE_NAME), { readonly: true });
      const raw = Object.fromEntries(
        (
          db.prepare('SELECT id, list_raw, detail_raw FROM agents').all() as Array<{
            id: string;
            list_raw: string;
            detail_raw: string;
          }>
        ).map((r) => [r.id, r]),
      );
      db.close();
      expect(JSON.parse(raw.doc!.list_raw).mystery_list_field).toEqual({ kept: true });
      expect(JSON.parse(raw.doc!.detail_raw).mystery_detail_field).toBe('kept-42');
      expect(JSON.parse(raw.obs!.detail_raw).version_details.v2.unknown_version_field).toEqual([1, 2]);
    });
  }

  it('tells each error shape of a refused save in plain words and keeps the edit as a draft', async () => {
    const baseUrl = await serve(envelopes['documented {agents: [...]}']!);
    const desk = await createDesk({
      dataDir: dirs.make(),
      host: 'browser',
      version: '1',
      sandbox: 'off',
      secrets: new SessionSecretStore(),
    });
    cleanups.push(() => desk.close());
    const ws = value<Workspace>(
      await desk.handle('workspaces:create', { name: 'Refusing', baseUrl, apiKey: 'k', bearerToken: 'b' }),
    );
    value(await desk.handle('workspaces:set-active', { id: ws.id }));
    value(await desk.handle('agents:sync', {}));
    const host = new URL(baseUrl).host;
    const sub = {
      eventTypes: ['call_started'],
      callbackUrl: 'https://h.test/y',
      method: 'POST',
      headers: [],
    };
    const expected: Record<string, [string, string]> = {
      doc: [
        'service_error',
        `${host} refused the subscriptions: callback_url must be reachable from the service. Your changes are kept as a draft.`,
      ],
      obs: [
        'unauthorized',
        `${host} does not allow this change (403): This agent is locked by another editor. Check the bearer token and the API key in Settings → Workspaces. Your changes are kept as a draft.`,
      ],
      bare: [
        'service_error',
        `${host} refused the subscriptions: event_subscriptions.0.callback_url: invalid url. Your changes are kept as a draft.`,
      ],
    };
    for (const [agentId, [code, message]] of Object.entries(expected)) {
      const r = await desk.handle('agents:save-subscriptions', { agentId, subscriptions: [sub] });
      expect(r, agentId).toEqual({ ok: false, error: { code, message } });
      const agent = value<{ agent: AgentDetail }>(await desk.handle('agents:get', { agentId })).agent;
      expect(agent.subscriptionsDraft?.subscriptions.map((s) => s.callbackUrl)).toEqual(['https://h.test/y']);
    }
    const saved = value<{ outcome: string }>(
      await desk.handle('agents:save-subscriptions', { agentId: 'multi', subscriptions: [sub] }),
    );
    expect(saved.outcome).toBe('saved');
  });
});
