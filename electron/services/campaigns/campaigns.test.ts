// The campaigns channels through the desk, with the built-in sandbox (real HTTP) as the Sandbox
// workspace's service: validation naming fields with nothing sent, the plan, drafts over a restart,
// a 60-row launch from an imported list that goes out at once and starts once, and a launch made
// while the service is unreachable that waits in the queue until confirmed or auto-sent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantToCampaignTime } from '../../../shared/domain/dates.ts';
import type {
  CampaignPlan,
  CampaignSettings,
  LaunchView,
  TimelineEntry,
} from '../../../shared/ipc/channels/campaigns.ts';
import type { ContactList } from '../../../shared/ipc/channels/contacts.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import { importThroughService } from '../contacts/testing.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';
import { campaignSettings, writeMessyContacts } from './testing.ts';

const dirs = tempDirs('desk-campaigns-');
let desk: Desk;
let secrets: SessionSecretStore;
let control: (method: string, path: string, body?: unknown) => Promise<unknown>;
let baseUrl: string;
let apiKey: string;
let agentId: string;
let poolId: string;

const value = <T>(r: Result<unknown>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
};

beforeAll(async () => {
  secrets = new SessionSecretStore();
  desk = await createDesk({ dataDir: dirs.make(), host: 'browser', version: '1', secrets });
  const ws = value<{ workspaces: Array<{ id: string; baseUrl: string; isSandbox: boolean }> }>(
    await desk.handle('workspaces:list', {}),
  ).workspaces.find((w) => w.isSandbox)!;
  baseUrl = ws.baseUrl;
  apiKey = (await secrets.get(ws.id, 'apiKey'))!;
  control = async (method, path, body) => {
    const res = await fetch(`${baseUrl.replace(/\/v0$/, '/_sandbox')}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return res.json();
  };
  value(await desk.handle('agents:sync', {}));
  const { agents } = value<{ agents: Array<{ id: string; name: string }> }>(
    await desk.handle('agents:list', {}),
  );
  agentId = agents.find((a) => a.name === 'Loan Repayment Reminder')!.id;
  const numbers = value<{ pools: string[] }>(await desk.handle('campaigns:numbers', { refresh: true }));
  poolId = numbers.pools[0]!;
}, 60_000);
afterAll(async () => {
  await desk?.close();
  dirs.cleanup();
});

const day = 86_400_000;
const settings = (over: Partial<CampaignSettings> = {}): CampaignSettings =>
  campaignSettings({ agentId, poolId }, over);

describe('validation', () => {
  it('names every bad field and sends nothing', async () => {
    const before = (await control('GET', '/stats?deliveries_limit=0')) as { start_attempts: unknown[] };
    const bad = settings({
      name: ' ',
      numberSource: { kind: 'numbers', fromNumbers: [] },
      start: instantToCampaignTime(Date.now() - day, 'Asia/Kolkata'),
      end: instantToCampaignTime(Date.now() - 2 * day, 'Asia/Kolkata'),
      callbackUrl: 'ftp://x',
    });
    const { errors } = value<{ errors: Array<{ field: string }> }>(
      await desk.handle('campaigns:validate', { settings: bad }),
    );
    expect(errors.map((e) => e.field).sort()).toEqual([
      'callbackUrl',
      'end',
      'listId',
      'name',
      'numberSource',
      'start',
    ]);
    const refused = await desk.handle('campaigns:launch', { settings: bad });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'listId' } });
    const after = (await control('GET', '/stats?deliveries_limit=0')) as { start_attempts: unknown[] };
    expect(after.start_attempts).toEqual(before.start_attempts);
  });
});

describe('a 60-row campaign (standard flow) from an imported list', () => {
  let list: ContactList;
  let valid: number;
  beforeAll(async () => {
    const file = join(dirs.make(), 'small.csv');
    valid = writeMessyContacts(file, 60, 5).valid;
    list = (
      await importThroughService(
        {
          importBegin: async (req) => value(await desk.handle('contacts:import-begin', req)),
          importBatch: async (req) => value(await desk.handle('contacts:import-batch', req)),
          importFinish: async (req) => value(await desk.handle('contacts:import-finish', req)),
        },
        new Uint8Array(readFileSync(file)),
        { name: 'small' },
      )
    ).list;
  }, 60_000);

  it('refuses a test call with a local draft agent, naming the agent field, and takes callback_args as the service does', async () => {
    const draft = value<{ agent: { id: string } }>(
      await desk.handle('agents:create-draft', { name: 'Offline draft', prompt: 'Hello {{callee_name}}' }),
    ).agent;
    const refused = await desk.handle('campaigns:test-call', {
      settings: settings({ listId: list.id, agentId: draft.id }),
      mobileNumber: '+919876543210',
      row: 2,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'agentId', message: expect.stringContaining('local draft') },
    });
    // callback_args is {headers, params} (seed §4): a flat map of headers is refused at the boundary.
    const flat = await desk.handle('campaigns:test-call', {
      settings: settings({ listId: list.id }),
      mobileNumber: '+919876543210',
      row: 2,
      callbackArgs: { 'X-Token': 'abc' } as never,
    });
    expect(flat).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const placed = await desk.handle('campaigns:test-call', {
      settings: settings({ listId: list.id }),
      mobileNumber: '+919876543210',
      row: 2,
      callbackArgs: { headers: { 'X-Token': 'abc' }, params: { source: 'desk' } },
    });
    expect(placed, JSON.stringify(placed)).toMatchObject({ ok: true, value: { callId: expect.any(String) } });
  });

  it('places a test call to a number typed as lists take it, ringing now with its own call_time', async () => {
    const placed = value<{ callId: string; calledNumber: string; note: string }>(
      await desk.handle('campaigns:test-call', {
        settings: settings({ listId: list.id, countryCode: 'IN' }),
        mobileNumber: '98765 43210',
        row: 2,
      }),
    );
    expect(placed.calledNumber).toBe('+919876543210');
    expect(placed.note).toMatch(/^Rings now: the test call carries its own window/);
    const refused = await desk.handle('campaigns:test-call', {
      settings: settings({ listId: list.id, countryCode: 'IN' }),
      mobileNumber: '12345',
      row: 2,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { field: 'mobileNumber', message: '12345 is not a valid phone number for IN (+91).' },
    });
  });

  it('reads the credits from the service for the plan, with when it said so (no Test connection needed)', async () => {
    await control('POST', '/workspace', { credits: 24_321 });
    try {
      const plan = value<CampaignPlan>(
        await desk.handle('campaigns:plan', { settings: settings({ listId: list.id }) }),
      );
      expect(plan.credits).toMatchObject({
        available: 24_321,
        sufficient: true,
        source: 'service',
        reason: null,
      });
      expect(Date.now() - Date.parse(plan.credits.checkedAt!)).toBeLessThan(60_000);
      expect(plan.timezone).toBe('Asia/Kolkata');
    } finally {
      await control('POST', '/workspace', { credits: 1_000_000 });
    }
  });

  it('refuses a launch over the credits before anything is uploaded, with both figures', async () => {
    const listing = async () =>
      (
        (await (
          await fetch(`${baseUrl}/campaign/all?limit=1`, { headers: { 'x-api-key': apiKey } })
        ).json()) as { pagination: { total: number } }
      ).pagination.total;
    const lists = await listing();
    const starts = ((await control('GET', '/stats?deliveries_limit=0')) as { start_attempts: unknown[] })
      .start_attempts.length;
    await control('POST', '/workspace', { credits: 10 });
    try {
      const refused = await desk.handle('campaigns:launch', {
        settings: settings({ listId: list.id, name: 'Over the credits' }),
      });
      expect(refused).toMatchObject({
        ok: false,
        error: {
          code: 'invalid_request',
          field: 'credits',
          message: `Not enough credits: this campaign needs ${valid} credits (one a call) and the workspace has 10. Add credits or send fewer rows, then launch again. Nothing was uploaded.`,
        },
      });
      expect(await listing()).toBe(lists);
      const after = (await control('GET', '/stats?deliveries_limit=0')) as { start_attempts: unknown[] };
      expect(after.start_attempts).toHaveLength(starts);
      const launches = value<{ campaigns: Array<{ name: string }> }>(await desk.handle('campaigns:list', {}));
      expect(launches.campaigns.map((c) => c.name)).not.toContain('Over the credits');
    } finally {
      await control('POST', '/workspace', { credits: 1_000_000 });
    }
  });

  it('refuses calls that cannot fit before the end unless the shortfall is accepted', async () => {
    const listing = async () =>
      (
        (await (
          await fetch(`${baseUrl}/campaign/all?limit=1`, { headers: { 'x-api-key': apiKey } })
        ).json()) as { pagination: { total: number } }
      ).pagination.total;
    const lists = await listing();
    // One line (1% concurrency), 330 s a call, a one-hour window: about 10 calls fit.
    const tight = (over: Partial<CampaignSettings> = {}) =>
      settings({
        listId: list.id,
        name: 'Too tight',
        concurrency: 1,
        end: instantToCampaignTime(Date.now() + 2 * day + 3_600_000, 'Asia/Kolkata'),
        call: { ...settings().call, windowStart: '00:00', windowEnd: '00:00', maxCallLengthSeconds: 600 },
        ...over,
      });
    const plan = value<CampaignPlan>(await desk.handle('campaigns:plan', { settings: tight() }));
    expect(plan.callsNotFitting).toBeGreaterThan(0);
    const refused = await desk.handle('campaigns:launch', { settings: tight() });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        field: 'acceptShortfall',
        message: expect.stringContaining(`${plan.callsNotFitting} of ${valid} calls do not fit`),
      },
    });
    expect(await listing()).toBe(lists);
    const accepted = value<LaunchView>(
      await desk.handle('campaigns:launch', { settings: tight({ acceptShortfall: true }) }),
    );
    expect(accepted.state).not.toBe('failed');
  });

  it('plans the calls into the daily windows with the credits needed', async () => {
    const plan = value<CampaignPlan>(
      await desk.handle('campaigns:plan', { settings: settings({ listId: list.id }) }),
    );
    // Not called: the list's invalid and duplicate rows (this list has some).
    expect(60 - valid).toBeGreaterThan(0);
    expect(plan).toMatchObject({
      calls: valid,
      invalid: 60 - valid,
      flow: 'standard',
      callsNotFitting: 0,
      credits: { needed: valid },
    });
    expect(plan.days.reduce((n, d) => n + d.calls, 0)).toBe(valid);
    expect(plan.days[0]).toMatchObject({ windowEnd: '18:00' });
    expect(plan.estimatedFinish).not.toBeNull();
  });

  it('goes out at once while the service is reachable and starts once with one call per valid row', async () => {
    const sent = value<LaunchView>(
      await desk.handle('campaigns:launch', { settings: settings({ listId: list.id }) }),
    );
    expect(sent).toMatchObject({ flow: 'standard', valid, invalid: 60 - valid });
    expect(sent.state).not.toBe('queued');
    expect(value<{ launches: LaunchView[] }>(await desk.handle('campaigns:queue', {})).launches).toEqual([]);

    let t = value<{ launch: LaunchView; entries: TimelineEntry[] }>(
      await desk.handle('campaigns:timeline', { id: sent.id }),
    );
    for (let i = 0; i < 200 && t.launch.state === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      t = value(await desk.handle('campaigns:timeline', { id: sent.id }));
    }
    expect(t.launch.state).toBe('started');
    expect(t.entries.map((e) => `${e.step}:${e.outcome}`)).toEqual([
      'save:sent',
      'save:ok',
      'start:sent',
      'start:ok',
    ]);
    const id = t.launch.serviceId!;
    const stats = (await control('GET', '/stats?deliveries_limit=0')) as {
      starts: Array<{ bulk_list_id: string; accepted: number }>;
    };
    expect(stats.starts.find((s) => s.bulk_list_id === id)?.accepted).toBe(1);
    const history = (await (
      await fetch(
        `${baseUrl}/calling/history?bulk_list_id=${id}&start_date=2000-01-01T00:00:00Z&end_date=2100-01-01T00:00:00Z&limit=1`,
        { headers: { 'x-api-key': apiKey } },
      )
    ).json()) as { total: number };
    expect(history.total).toBe(valid);

    const listed = value<{
      campaigns: Array<{ launchId: string | null; serviceId: string | null; status: string }>;
    }>(await desk.handle('campaigns:list', { refresh: true }));
    expect(listed.campaigns.find((c) => c.launchId === sent.id)).toMatchObject({ serviceId: id });
  }, 60_000);
});

describe('a launch made while the service is unreachable', () => {
  /** Imports a small list and launches it while every service request is dropped: it is queued. */
  async function launchOffline(
    name: string,
  ): Promise<{ queued: LaunchView; valid: number; faultId: number }> {
    const file = join(dirs.make(), `${name}.csv`);
    const { valid } = writeMessyContacts(file, 40, 6);
    const { list } = await importThroughService(
      {
        importBegin: async (req) => value(await desk.handle('contacts:import-begin', req)),
        importBatch: async (req) => value(await desk.handle('contacts:import-batch', req)),
        importFinish: async (req) => value(await desk.handle('contacts:import-finish', req)),
      },
      new Uint8Array(readFileSync(file)),
      { name },
    );
    const { faults } = (await control('POST', '/faults', { path: '/v0*', kind: 'drop' })) as {
      faults: Array<{ id: number }>;
    };
    const faultId = faults[faults.length - 1]!.id;
    const queued = value<LaunchView>(
      await desk.handle('campaigns:launch', { settings: settings({ listId: list.id, name }) }),
    );
    expect(queued.state).toBe('queued');
    await control('DELETE', `/faults?id=${faultId}`);
    return { queued, valid, faultId };
  }
  async function settled(id: string): Promise<LaunchView> {
    let t = value<{ launch: LaunchView }>(await desk.handle('campaigns:timeline', { id }));
    for (let i = 0; i < 200 && t.launch.state !== 'started'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      t = value(await desk.handle('campaigns:timeline', { id }));
    }
    return t.launch;
  }

  it('waits in the queue with nothing sent, back online, until the operator confirms it', async () => {
    const before = ((await control('GET', '/stats?deliveries_limit=0')) as { start_attempts: unknown[] })
      .start_attempts.length;
    const { queued, valid } = await launchOffline('Confirmed');
    const q = value<{ launches: LaunchView[]; autoSend: boolean }>(await desk.handle('campaigns:queue', {}));
    expect(q.autoSend).toBe(false);
    expect(q.launches.map((l) => l.id)).toEqual([queued.id]);
    const after = ((await control('GET', '/stats?deliveries_limit=0')) as { start_attempts: unknown[] })
      .start_attempts.length;
    expect(after).toBe(before);

    value(await desk.handle('campaigns:confirm-launch', { id: queued.id }));
    expect(await settled(queued.id)).toMatchObject({ state: 'started', valid });
    expect(value<{ launches: LaunchView[] }>(await desk.handle('campaigns:queue', {})).launches).toEqual([]);
  }, 60_000);

  it('goes out by itself once auto-send is turned on while the service is reachable', async () => {
    const { queued, valid } = await launchOffline('Auto');
    expect(value(await desk.handle('campaigns:set-auto-send', { autoSend: true }))).toEqual({
      autoSend: true,
    });
    expect(await settled(queued.id)).toMatchObject({ state: 'started', valid });
    expect(value<{ launches: LaunchView[] }>(await desk.handle('campaigns:queue', {})).launches).toEqual([]);
    value(await desk.handle('campaigns:set-auto-send', { autoSend: false }));
  }, 60_000);
});

describe('drafts', () => {
  it('survive a restart of the back end; another workspace cannot overwrite one', async () => {
    const dataDir = dirs.make();
    const store = new SessionSecretStore();
    let d = await createDesk({ dataDir, host: 'browser', version: '1', secrets: store, sandbox: 'off' });
    /** A session-only workspace on an address nothing answers, made active. */
    const activeWorkspace = async (name: string, apiKey: string) => {
      const ws = value<{ id: string }>(
        await d.handle('workspaces:create', {
          name,
          baseUrl: 'http://127.0.0.1:9/v0',
          apiKey,
          sessionOnly: true,
        }),
      );
      value(await d.handle('workspaces:set-active', { id: ws.id }));
      return ws;
    };
    const ws = await activeWorkspace('W', 'k-0123456789');
    const saved = await d.handle('campaigns:save-draft', { settings: settings({ name: 'Draft one' }) });
    await d.close();
    d = await createDesk({ dataDir, host: 'browser', version: '1', secrets: store, sandbox: 'off' });
    try {
      if (!saved.ok) throw new Error(JSON.stringify(saved.error));
      const { drafts } = value<{ drafts: Array<{ id: string; settings: CampaignSettings }> }>(
        await d.handle('campaigns:drafts', {}),
      );
      expect(drafts.map((x) => [x.id, x.settings.name])).toEqual([
        [(saved.value as { id: string }).id, 'Draft one'],
      ]);
      // Saved under another workspace's draft id, it is refused and the draft stays as it was.
      await activeWorkspace('Other', 'k-9876543210');
      const draftId = (saved.value as { id: string }).id;
      expect(
        await d.handle('campaigns:save-draft', { id: draftId, settings: settings({ name: 'Overwrite' }) }),
      ).toMatchObject({ ok: false, error: { code: 'not_found', field: 'id' } });
      value(await d.handle('workspaces:set-active', { id: ws.id }));
      expect(
        value<{ drafts: Array<{ settings: CampaignSettings }> }>(
          await d.handle('campaigns:drafts', {}),
        ).drafts.map((x) => x.settings.name),
      ).toEqual(['Draft one']);
    } finally {
      await d.close();
    }
  });
});
