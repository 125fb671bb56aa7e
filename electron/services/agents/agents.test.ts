import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentDetail, AgentSummary, AgentSyncState } from '../../../shared/ipc/channels/agents.ts';
import type { Workspace } from '../../../shared/ipc/channels/workspaces.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import { startSandboxProcess } from '../api/testing/sandboxProcess.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';
import { AGENT_PAGE_SIZE } from './readAgents.ts';

// The agent library through the desk's channels, against the sandbox run as its own process
// (real HTTP, started with --bearer), on a real SQLite data folder.

const apiKey = 'agents-test-key-0123';
const bearer = 'agents-test-bearer-4567';
const dirs = tempDirs('desk-agents-');
const desks: Desk[] = [];
let sb: SandboxProcess;

beforeAll(async () => {
  sb = await startSandboxProcess({ apiKey, bearer, seed: 7 });
});
afterAll(() => sb.stop());
afterEach(async () => {
  await Promise.all(desks.splice(0).map((d) => d.close()));
  dirs.cleanup();
});

const value = <T>(r: Result<unknown>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
};

const open = async (dataDir: string, secrets: SessionSecretStore) => {
  const desk = await createDesk({ dataDir, host: 'browser', version: '1', sandbox: 'off', secrets });
  desks.push(desk);
  return desk;
};

/** A desk whose active workspace is the sandbox process (with the bearer unless told otherwise). */
async function deskOn(baseUrl: string, opts: { bearerToken?: string | null } = {}) {
  const dataDir = dirs.make();
  const secrets = new SessionSecretStore();
  const desk = await open(dataDir, secrets);
  const token = opts.bearerToken === undefined ? bearer : opts.bearerToken;
  const ws = value<Workspace>(
    await desk.handle('workspaces:create', {
      name: 'Sandbox process',
      baseUrl,
      apiKey,
      ...(token === null ? {} : { bearerToken: token }),
    }),
  );
  value(await desk.handle('workspaces:set-active', { id: ws.id }));
  return { desk, dataDir, secrets, workspaceId: ws.id };
}

const list = async (desk: Desk, search?: string) =>
  value<{ agents: AgentSummary[]; sync: AgentSyncState }>(
    await desk.handle('agents:list', search === undefined ? {} : { search }),
  );
const sync = async (desk: Desk) =>
  value<{ agents: number; sync: AgentSyncState }>(await desk.handle('agents:sync', {}));
const get = async (desk: Desk, agentId: string) =>
  value<{ agent: AgentDetail }>(await desk.handle('agents:get', { agentId })).agent;
const byName = async (desk: Desk, name: string) => {
  const found = (await list(desk)).agents.find((a) => a.name === name);
  if (!found) throw new Error(`no agent ${name}`);
  return found;
};

/** A base URL nothing listens on (the service is "offline"). */
async function deadBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}/v0`;
}

/** Points the workspace at another server (its key and token entered again, as a new server needs). */
const moveWorkspace = async (desk: Desk, id: string, baseUrl: string) =>
  value(await desk.handle('workspaces:update', { id, baseUrl, apiKey, bearerToken: bearer }));

/** What the service itself now holds for the agent (read straight from the sandbox). */
async function serviceSubscriptions(agentId: string): Promise<unknown[]> {
  const res = await fetch(`${sb.baseUrl}/agent/${agentId}`, { headers: { 'x-api-key': apiKey } });
  const body = (await res.json()) as {
    agents: {
      active_agent_version_id: string;
      version_details: Record<string, { event_subscriptions: unknown[] }>;
    };
  };
  return body.agents.version_details[body.agents.active_agent_version_id]?.event_subscriptions ?? [];
}

describe('agent library sync (sandbox process, real HTTP)', () => {
  let seeded: Array<{ id: string; name: string; archived: boolean }>;
  beforeAll(async () => {
    const r = await sb.control<{ agents: typeof seeded }>('POST', '/agents', {
      count: AGENT_PAGE_SIZE + 12,
      name_prefix: 'Paged',
      archive_every: 20,
      versions: 2,
    });
    seeded = r.agents;
  });

  it('reads every page of the listing, then each agent by id, into SQLite, archived ones marked', async () => {
    const { desk } = await deskOn(sb.baseUrl);
    const done = await sync(desk);
    // 3 built-in agents + more than one page of seeded ones.
    expect(done.agents).toBe(3 + seeded.length);
    expect(done.agents).toBeGreaterThan(AGENT_PAGE_SIZE);
    expect(done.sync).toMatchObject({ running: false, lastError: null });
    expect(done.sync.syncedAt).not.toBeNull();

    const { agents, sync: state } = await list(desk);
    expect(agents).toHaveLength(3 + seeded.length);
    expect(state.ageSeconds).toBeGreaterThanOrEqual(0);
    expect(
      agents
        .filter((a) => a.archived)
        .map((a) => a.name)
        .sort(),
    ).toEqual(
      seeded
        .filter((a) => a.archived)
        .map((a) => a.name)
        .sort(),
    );
    const last = agents.find((a) => a.name === `Paged ${seeded.length}`);
    expect(last).toMatchObject({ versions: 2, isLocalDraft: false, language: 'en-IN' });
    expect(last?.variables).toEqual(['callee_name', 'due_date']);

    const loan = await byName(desk, 'Loan Repayment Reminder');
    expect(loan.variables).toEqual(['callee_name', 'loan_amount', 'due_date', 'language', 'city']);
    expect((await list(desk, 'paged 1')).agents.map((a) => a.name).sort()).toEqual(
      ['Paged 1', ...Array.from({ length: 10 }, (_, i) => `Paged 1${i}`)].sort(),
    );
    expect((await list(desk, '%')).agents).toEqual([]);
  });

  it("shows an agent's versions (active marked), prompt placeholders and where each variable occurs", async () => {
    const { desk } = await deskOn(sb.baseUrl);
    await sync(desk);
    const loan = await get(desk, (await byName(desk, 'Loan Repayment Reminder')).id);
    expect(loan.voice).not.toBeNull();
    expect(loan.agentVersions.filter((v) => v.isActive)).toHaveLength(1);
    const active = loan.agentVersions.find((v) => v.isActive)!;
    expect(active.id).toBe(loan.activeVersionId);
    expect(active.pieces.map((p) => p.text).join('')).toBe(active.promptText);
    const placeholders = active.pieces
      .filter((p) => p.kind === 'placeholder')
      .map((p) => p.kind === 'placeholder' && p.name);
    expect(placeholders).toEqual(expect.arrayContaining(['callee_name', 'loan_amount', 'due_date']));
    const names = active.variables.map((v) => v.name);
    expect(names.slice(0, 2)).toEqual(['mobile_number', 'callee_name']);
    expect(active.variables.find((v) => v.name === 'mobile_number')?.builtIn).toBe(true);
    const due = active.variables.find((v) => v.name === 'due_date')!;
    expect(due.declared).toBe(true);
    expect(due.occurrences.length).toBeGreaterThan(0);
    for (const o of due.occurrences) expect(o.excerpt).toContain('@{{due_date}}');
  });

  it('keeps the cached library (with its age) when the service is stopped, and says why a refresh failed', async () => {
    const own = await startSandboxProcess({ apiKey, bearer, seed: 3 });
    let stopped = false;
    try {
      const { desk } = await deskOn(own.baseUrl);
      await sync(desk);
      const before = await list(desk);
      expect(before.agents.length).toBe(3);
      await own.stop();
      stopped = true;
      const refresh = await desk.handle('agents:sync', {});
      expect(refresh).toMatchObject({ ok: false, error: { code: 'unreachable' } });
      const after = await list(desk);
      expect(after.agents).toEqual(before.agents);
      expect(after.sync.syncedAt).toBe(before.sync.syncedAt);
      expect(after.sync.ageSeconds).toBeGreaterThanOrEqual(0);
      expect(after.sync.lastError).toMatch(/^Unreachable/);
      const detail = await get(desk, before.agents[0]!.id);
      expect(detail.agentVersions.length).toBeGreaterThan(0);
    } finally {
      if (!stopped) await own.stop();
    }
  });

  it('emits agents:sync-changed while syncing and when done', async () => {
    const { desk } = await deskOn(sb.baseUrl);
    // The switch to the workspace started a sync of its own: let it finish first.
    await expect.poll(async () => (await list(desk)).sync.running, { timeout: 20_000 }).toBe(false);
    const seen: AgentSyncState[] = [];
    desk.on('agents:sync-changed', (p) => seen.push(p.sync));
    await sync(desk);
    await expect.poll(() => seen.some((s) => !s.running && s.syncedAt !== null)).toBe(true);
    expect(seen.some((s) => s.running)).toBe(true);
  });
});

describe('event subscriptions editor (PATCH /agent/v1 against the sandbox)', () => {
  const sub = (over: Record<string, unknown> = {}) => ({
    eventTypes: ['call_completed', 'all_processing_completed'],
    callbackUrl: 'https://hooks.example.test/calls',
    method: 'POST',
    headers: [{ name: 'X-Hook-Secret', value: 'hook-secret-value-99' }],
    ...over,
  });

  it('saves, masks header values, keeps a masked value when not re-entered, and removes', async () => {
    const { desk } = await deskOn(sb.baseUrl);
    await sync(desk);
    const agentId = (await byName(desk, 'Insurance Renewal')).id;
    const saved = value<{ outcome: string; agent: AgentDetail }>(
      await desk.handle('agents:save-subscriptions', { agentId, subscriptions: [sub()] }),
    );
    expect(saved.outcome).toBe('saved');
    expect(saved.agent.subscriptions).toEqual([
      {
        key: 'c:0',
        eventTypes: ['call_completed', 'all_processing_completed'],
        callbackUrl: 'https://hooks.example.test/calls',
        method: 'POST',
        headers: [{ name: 'X-Hook-Secret', masked: '••••••99' }],
      },
    ]);
    expect(JSON.stringify(saved.agent)).not.toContain('hook-secret-value');
    expect(await serviceSubscriptions(agentId)).toEqual([
      {
        event_type: ['call_completed', 'all_processing_completed'],
        callback_url: 'https://hooks.example.test/calls',
        headers: { 'X-Hook-Secret': 'hook-secret-value-99' },
        method_type: 'POST',
      },
    ]);

    // Edited: new URL and method, the header sent without a value keeps the stored one.
    const edited = value<{ outcome: string }>(
      await desk.handle('agents:save-subscriptions', {
        agentId,
        subscriptions: [
          sub({
            from: 'c:0',
            callbackUrl: 'http://127.0.0.1:9/edited',
            method: 'put',
            headers: [{ name: 'X-Hook-Secret' }],
          }),
        ],
      }),
    );
    expect(edited.outcome).toBe('saved');
    expect(await serviceSubscriptions(agentId)).toEqual([
      expect.objectContaining({
        callback_url: 'http://127.0.0.1:9/edited',
        method_type: 'PUT',
        headers: { 'X-Hook-Secret': 'hook-secret-value-99' },
      }),
    ]);
    const removed = value<{ agent: AgentDetail }>(
      await desk.handle('agents:save-subscriptions', { agentId, subscriptions: [] }),
    );
    expect(removed.agent.subscriptions).toEqual([]);
    expect(await serviceSubscriptions(agentId)).toEqual([]);
  });

  it('names the field of each invalid entry before sending anything', async () => {
    const { desk } = await deskOn(sb.baseUrl);
    await sync(desk);
    const agentId = (await byName(desk, 'Delivery Feedback Survey')).id;
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ callbackUrl: 'ftp://x.test/a' }, 'subscriptions.1.callbackUrl', /http:\/\/ or https:\/\//],
      [{ callbackUrl: 'not a url' }, 'subscriptions.1.callbackUrl', /http:\/\/ or https:\/\//],
      [{ eventTypes: [] }, 'subscriptions.1.eventTypes', /at least one event type/],
      [
        { eventTypes: ['call_exploded'] },
        'subscriptions.1.eventTypes',
        /"call_exploded" is not an event type/,
      ],
      [{ method: 'GET' }, 'subscriptions.1.method', /POST, PUT or PATCH/],
      [
        { callbackUrl: 'https://hook-user:hook-pass@hooks.example.test/a' },
        'subscriptions.1.callbackUrl',
        /must not contain a user name or password .*send credentials as a header instead/,
      ],
      [
        { callbackUrl: 'https://token@hooks.example.test/a' },
        'subscriptions.1.callbackUrl',
        /user:password@/,
      ],
      [
        { headers: [{ name: 'Bad Name', value: 'v' }] },
        'subscriptions.1.headers.0.name',
        /not a valid header name/,
      ],
      [
        { headers: [{ name: 'X-New' }] },
        'subscriptions.1.headers.0.value',
        /enter a value for the header "X-New"/,
      ],
    ];
    for (const [over, field, message] of cases) {
      const r = await desk.handle('agents:save-subscriptions', {
        agentId,
        subscriptions: [sub(), sub(over)],
      });
      expect(r, field).toMatchObject({ ok: false, error: { code: 'invalid_request', field } });
      if (!r.ok) expect(r.error.message).toMatch(message);
    }
    expect(await serviceSubscriptions(agentId)).toEqual([]);
    expect((await get(desk, agentId)).subscriptionsDraft).toBeNull();
  });

  it('never shows the credentials of a callback URL the service holds with them', async () => {
    const { desk } = await deskOn(sb.baseUrl);
    await sync(desk);
    const agentId = (await byName(desk, 'Insurance Renewal')).id;
    // Set straight on the service (as another client could have): the app refuses to send one.
    const res = await fetch(`${sb.baseUrl}/agent/v1`, {
      method: 'PATCH',
      headers: { 'x-api-key': apiKey, authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        operation: 'edit_event_subscriptions',
        agent_id: agentId,
        event_subscriptions: [
          {
            event_type: ['call_completed'],
            callback_url: 'https://hook-user:hook-pass@hooks.example.test/x',
          },
        ],
      }),
    });
    expect(res.status).toBe(200);
    await sync(desk);
    const agent = await get(desk, agentId);
    expect(agent.subscriptions.map((s) => s.callbackUrl)).toEqual(['https://•••@hooks.example.test/x']);
    expect(JSON.stringify(agent)).not.toContain('hook-pass');
    // Saved back unchanged, it is refused with the rule (never sent on with credentials).
    const r = await desk.handle('agents:save-subscriptions', {
      agentId,
      subscriptions: [
        {
          from: 'c:0',
          eventTypes: ['call_completed'],
          callbackUrl: agent.subscriptions[0]!.callbackUrl,
          method: 'POST',
          headers: [],
        },
      ],
    });
    expect(r).toMatchObject({ ok: false, error: { field: 'subscriptions.0.callbackUrl' } });
    await desk.handle('agents:save-subscriptions', { agentId, subscriptions: [] });
  });

  it('a wrong bearer token gets a 401 in plain words naming Settings → Workspaces, the edit kept as a draft', async () => {
    const { desk } = await deskOn(sb.baseUrl, { bearerToken: 'wrong-bearer-token' });
    await sync(desk);
    const agentId = (await byName(desk, 'Delivery Feedback Survey')).id;
    const r = await desk.handle('agents:save-subscriptions', { agentId, subscriptions: [sub()] });
    expect(r).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    if (!r.ok) {
      expect(r.error.message).toMatch(/refused this workspace's credentials \(401\)/);
      expect(r.error.message).toMatch(/Settings → Workspaces/);
      expect(r.error.message).toMatch(/kept as a draft/);
    }
    const agent = await get(desk, agentId);
    expect(agent.subscriptionsDraft?.subscriptions.map((s) => s.callbackUrl)).toEqual([
      'https://hooks.example.test/calls',
    ]);
    expect(agent.hasSubscriptionsDraft).toBe(true);
    expect(await serviceSubscriptions(agentId)).toEqual([]);
  });

  it('a workspace without a bearer still tries; the 401 says it needs one and where to add it', async () => {
    const { desk } = await deskOn(sb.baseUrl, { bearerToken: null });
    await sync(desk);
    const agentId = (await byName(desk, 'Delivery Feedback Survey')).id;
    const r = await desk.handle('agents:save-subscriptions', { agentId, subscriptions: [sub()] });
    expect(r).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    if (!r.ok) expect(r.error.message).toMatch(/needs a bearer token .*Add it in Settings → Workspaces/);
  });

  it('offline, Save keeps the edit as a draft that survives a restart, and saves it once back online', async () => {
    const { desk, dataDir, secrets, workspaceId } = await deskOn(sb.baseUrl);
    await sync(desk);
    const agentId = (await byName(desk, 'Insurance Renewal')).id;
    // Offline: the workspace's service stops answering (a closed port).
    await moveWorkspace(desk, workspaceId, await deadBaseUrl());
    const offline = value<{ outcome: string; message: string; agent: AgentDetail }>(
      await desk.handle('agents:save-subscriptions', { agentId, subscriptions: [sub()] }),
    );
    expect(offline.outcome).toBe('draft');
    expect(offline.message).toMatch(/cannot be reached.*kept as a draft/);
    expect(offline.agent.subscriptionsDraft?.subscriptions[0]?.headers).toEqual([
      { name: 'X-Hook-Secret', masked: '••••••99' },
    ]);
    expect(await serviceSubscriptions(agentId)).toEqual([]);

    // Restart of the back end on the same data folder: the draft is still there.
    await desk.close();
    desks.splice(desks.indexOf(desk), 1);
    const again = await open(dataDir, secrets);
    const reloaded = await get(again, agentId);
    expect(reloaded.subscriptionsDraft?.reason).toMatch(/kept as a draft/);
    expect(reloaded.subscriptionsDraft?.subscriptions).toEqual(
      offline.agent.subscriptionsDraft?.subscriptions,
    );
    expect((await list(again)).agents.find((a) => a.id === agentId)?.hasSubscriptionsDraft).toBe(true);

    // Back online: the draft is saved as it is (the masked header value was kept in the back end).
    await moveWorkspace(again, workspaceId, sb.baseUrl);
    const saved = value<{ outcome: string; agent: AgentDetail }>(
      await again.handle('agents:save-subscriptions', {
        agentId,
        subscriptions: [sub({ from: 'd:0', headers: [{ name: 'X-Hook-Secret' }] })],
      }),
    );
    expect(saved.outcome).toBe('saved');
    expect(saved.agent.subscriptionsDraft).toBeNull();
    expect(await serviceSubscriptions(agentId)).toEqual([
      expect.objectContaining({ headers: { 'X-Hook-Secret': 'hook-secret-value-99' } }),
    ]);
    value(await again.handle('agents:save-subscriptions', { agentId, subscriptions: [] }));
  });

  it('discards a draft on request', async () => {
    const { desk, workspaceId } = await deskOn(sb.baseUrl);
    await sync(desk);
    const agentId = (await byName(desk, 'Delivery Feedback Survey')).id;
    await moveWorkspace(desk, workspaceId, await deadBaseUrl());
    value(await desk.handle('agents:save-subscriptions', { agentId, subscriptions: [sub()] }));
    const discarded = value<{ agent: AgentDetail }>(
      await desk.handle('agents:discard-subscriptions-draft', { agentId }),
    );
    expect(discarded.agent.subscriptionsDraft).toBeNull();
    expect(discarded.agent.hasSubscriptionsDraft).toBe(false);
  });

  it('a draft saved later sends the masked header values it kept', async () => {
    const { desk } = await deskOn(sb.baseUrl, { bearerToken: 'wrong-bearer-token' });
    await sync(desk);
    const agentId = (await byName(desk, 'Loan Repayment Reminder')).id;
    await desk.handle('agents:save-subscriptions', { agentId, subscriptions: [sub()] });
    const ws = value<{ activeId: string }>(await desk.handle('workspaces:list', {}));
    value(await desk.handle('workspaces:update', { id: ws.activeId, bearerToken: bearer }));
    const saved = value<{ outcome: string; agent: AgentDetail }>(
      await desk.handle('agents:save-subscriptions', {
        agentId,
        subscriptions: [sub({ from: 'd:0', headers: [{ name: 'X-Hook-Secret' }] })],
      }),
    );
    expect(saved.outcome).toBe('saved');
    expect(saved.agent.subscriptionsDraft).toBeNull();
    expect(await serviceSubscriptions(agentId)).toEqual([
      expect.objectContaining({ headers: { 'X-Hook-Secret': 'hook-secret-value-99' } }),
    ]);
    value(await desk.handle('agents:save-subscriptions', { agentId, subscriptions: [] }));
  });
});

describe('local draft agents', () => {
  it('come from a pasted prompt, are marked local, survive a restart, and cannot take subscriptions', async () => {
    const { desk, dataDir, secrets } = await deskOn(sb.baseUrl);
    const created = value<{ agent: AgentDetail }>(
      await desk.handle('agents:create-draft', {
        name: 'Pasted',
        prompt: 'Hello @{{ callee_name }}, your order @{{order_id}} ships to @{{City}}.',
      }),
    ).agent;
    expect(created).toMatchObject({
      isLocalDraft: true,
      archived: false,
      variables: ['callee_name', 'order_id', 'City'],
    });
    expect(created.agentVersions[0]?.variables.map((v) => v.name)).toEqual([
      'mobile_number',
      'callee_name',
      'order_id',
      'City',
    ]);
    const refused = await desk.handle('agents:save-subscriptions', {
      agentId: created.id,
      subscriptions: [],
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'agentId' } });

    const updated = value<{ agent: AgentDetail }>(
      await desk.handle('agents:update-draft', {
        agentId: created.id,
        prompt: 'Hi @{{callee_name}} from @{{branch}}',
      }),
    ).agent;
    expect(updated.variables).toEqual(['callee_name', 'branch']);
    await desk.close();
    desks.splice(desks.indexOf(desk), 1);
    const again = await open(dataDir, secrets);
    await sync(again);
    const kept = (await list(again)).agents.find((a) => a.id === created.id);
    expect(kept).toMatchObject({ name: 'Pasted', isLocalDraft: true, variables: ['callee_name', 'branch'] });
    expect(
      value<{ deleted: boolean }>(await again.handle('agents:delete-draft', { agentId: created.id })),
    ).toEqual({
      deleted: true,
    });
    const synced = (await list(again)).agents[0]!;
    expect(await again.handle('agents:delete-draft', { agentId: synced.id })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });
});
