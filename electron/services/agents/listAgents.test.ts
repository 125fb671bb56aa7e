import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSummary } from '../../../shared/ipc/channels/agents.ts';
import type { Workspace } from '../../../shared/ipc/channels/workspaces.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk, DeskOptions } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';
import { mappableVariables } from './agentVariables.ts';

const dirs = tempDirs('desk-agents-');
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  dirs.cleanup();
});

const start = async (extra: Partial<DeskOptions> = {}) => {
  const desk = await createDesk({
    dataDir: dirs.make(),
    host: 'browser',
    version: '1',
    secrets: new SessionSecretStore(),
    ...extra,
  });
  cleanups.push(() => desk.close());
  return desk;
};
const value = <T>(r: { ok: boolean; value?: unknown; error?: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value as T;
};
const agents = async (desk: Desk) =>
  value<{ agents: AgentSummary[] }>(await desk.handle('agents:list', {})).agents;
const useWorkspace = async (desk: Desk, baseUrl: string, apiKey: string) => {
  const ws = value<Workspace>(await desk.handle('workspaces:create', { name: 'Other', baseUrl, apiKey }));
  value(await desk.handle('workspaces:set-active', { id: ws.id }));
};
const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise((r) => server.close(r)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v0`;
};

describe('mappableVariables', () => {
  it('drops mobile_number, blanks and repeats, keeping order', () => {
    expect(mappableVariables(['callee_name', 'mobile_number', ' city ', '', 'callee_name'])).toEqual([
      'callee_name',
      'city',
    ]);
  });
});

describe('agents:list (real sandbox in a worker, real HTTP)', () => {
  it("lists the Sandbox workspace's agents with their variables, without mobile_number", async () => {
    const desk = await start();
    const list = await agents(desk);
    expect(list.length).toBeGreaterThanOrEqual(3);
    const loan = list.find((a) => a.name === 'Loan Repayment Reminder');
    expect(loan?.variables).toEqual(['callee_name', 'loan_amount', 'due_date', 'language', 'city']);
    for (const agent of list) {
      expect(agent.id).not.toBe('');
      expect(agent.variables.length).toBeGreaterThan(1);
      expect(agent.variables).not.toContain('mobile_number');
    }
    expect(await desk.handle('agents:list', { extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });

  it('says Invalid credentials when the key is wrong', async () => {
    const desk = await start();
    const { workspaces } = value<{ workspaces: Workspace[] }>(await desk.handle('workspaces:list', {}));
    await useWorkspace(desk, workspaces[0]!.baseUrl, 'wrong-key');
    expect(await desk.handle('agents:list', {})).toEqual({
      ok: false,
      error: { code: 'unauthorized', message: 'Invalid credentials' },
    });
  });

  it('names the host when the service is unreachable', async () => {
    const desk = await start({ sandbox: 'off' });
    const closed = createServer();
    const baseUrl = await listen(closed);
    cleanups.pop();
    await new Promise((r) => closed.close(r));
    await useWorkspace(desk, baseUrl, 'k');
    const result = await desk.handle('agents:list', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'unreachable' } });
    expect(JSON.stringify(result)).toContain(new URL(baseUrl).host);
  });

  it("reads an agent by id when its list row declares no variables, using the prompt's placeholders", async () => {
    // A minimal service on real HTTP: rows without custom_variables; the detail has only a prompt.
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/v0/agent/all'))
        res.end(
          JSON.stringify({
            agents: [
              { id: 'a1', agent_display_name: 'Prompt only' },
              { id: 'a2', is_archived: true },
            ],
          }),
        );
      else if (req.url === '/v0/agent/a1')
        res.end(
          JSON.stringify({
            agents: {
              id: 'a1',
              agent_config: { agent_prompt: 'Call @{{ name }} at @{{mobile_number}} about @{{order_id}}.' },
            },
          }),
        );
      else {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { message: 'no' } }));
      }
    });
    const baseUrl = await listen(server);
    const desk = await start({ sandbox: 'off' });
    await useWorkspace(desk, baseUrl, 'k');
    expect(await agents(desk)).toEqual([{ id: 'a1', name: 'Prompt only', variables: ['name', 'order_id'] }]);
  });
});
