// Acceptance (integration: the desk with its built-in sandbox over real HTTP, a real SQLite file):
// on the project generator's messy lists, with the agent's variables mapped to columns the
// generator sometimes leaves empty, the number of rows the app predicts the service will refuse
// equals the number the service refused, for both flows (large: upload-csv and its rejects file;
// standard: campaign/save and its counts). The launch is refused before anything is sent while
// such rows would go with "Remove invalid rows" off; the refused rows are mapped back to the
// operator's list (grid reason, Campaign results "refused", the timeline's counts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantToCampaignTime } from '../../../shared/domain/dates.ts';
import { campaignSettings } from './testing.ts';
import type { AgentLint } from '../../../shared/ipc/channels/agents.ts';
import type {
  CampaignPlan,
  CampaignSettings,
  LaunchSummary,
  LaunchView,
  TimelineEntry,
} from '../../../shared/ipc/channels/campaigns.ts';
import type { ContactFilter, ContactList, ContactRow } from '../../../shared/ipc/channels/contacts.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import { generate, importThroughService } from '../contacts/testing.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';

const dirs = tempDirs('desk-refusals-');
let desk: Desk;
let control: (method: string, path: string, body?: unknown) => Promise<unknown>;
let agentId: string;
let poolId: string;

const value = <T>(r: Result<unknown>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
};

beforeAll(async () => {
  const secrets = new SessionSecretStore();
  desk = await createDesk({ dataDir: dirs.make(), host: 'browser', version: '1', secrets });
  const ws = value<{ workspaces: Array<{ id: string; baseUrl: string; isSandbox: boolean }> }>(
    await desk.handle('workspaces:list', {}),
  ).workspaces.find((w) => w.isSandbox)!;
  const apiKey = (await secrets.get(ws.id, 'apiKey'))!;
  control = async (method, path, body) => {
    const res = await fetch(`${ws.baseUrl.replace(/\/v0$/, '/_sandbox')}${path}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return res.json();
  };
  // Upload processing moves on the virtual clock: fast, with credits for every call.
  await control('POST', '/clock', { speed: 50 });
  await control('POST', '/workspace', { credits: 1_000_000 });
  value(await desk.handle('agents:sync', {}));
  const { agents } = value<{ agents: Array<{ id: string; name: string }> }>(
    await desk.handle('agents:list', {}),
  );
  agentId = agents.find((a) => a.name === 'Loan Repayment Reminder')!.id;
  poolId = value<{ pools: string[] }>(await desk.handle('campaigns:numbers', { refresh: true })).pools[0]!;
}, 60_000);
afterAll(async () => {
  await desk?.close();
  dirs.cleanup();
});

async function settings(listId: number, removeInvalid: boolean): Promise<CampaignSettings> {
  const { now } = (await control('GET', '/clock')) as { now: string };
  // The sandbox's clock runs ahead of real time: start a day after both.
  const from = Math.max(Date.parse(now), Date.now()) + 86_400_000;
  const base = campaignSettings({ agentId, poolId });
  return {
    ...base,
    listId,
    name: `Refusals ${listId}`,
    start: instantToCampaignTime(from, 'Asia/Kolkata'),
    end: instantToCampaignTime(from + 20 * 86_400_000, 'Asia/Kolkata'),
    call: { ...base.call, retryCount: 0 },
    removeInvalid,
  };
}

/** A generated list imported with no variables (the agent's mapping is chosen afterwards, as seen). */
async function importGenerated(rows: number, seed: number): Promise<ContactList> {
  const { bytes } = generate(rows, seed);
  return (
    await importThroughService(
      {
        importBegin: async (req) => value(await desk.handle('contacts:import-begin', req)),
        importBatch: async (req) => value(await desk.handle('contacts:import-batch', req)),
        importFinish: async (req) => value(await desk.handle('contacts:import-finish', req)),
      },
      bytes,
      { name: `generated ${rows}` },
    )
  ).list;
}

async function untilSettled(id: string) {
  let t = value<{ launch: LaunchView; entries: TimelineEntry[] }>(
    await desk.handle('campaigns:timeline', { id }),
  );
  for (let i = 0; i < 600 && (t.launch.state === 'pending' || t.launch.state === 'waiting'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    t = value(await desk.handle('campaigns:timeline', { id }));
  }
  return t;
}

/** Every row of a grid filter. */
async function rowsOf(listId: number, filter: ContactFilter): Promise<ContactRow[]> {
  const out: ContactRow[] = [];
  for (;;) {
    const page = value<{ total: number; rows: ContactRow[] }>(
      await desk.handle('contacts:rows', { listId, filter, offset: out.length, limit: 500 }),
    );
    out.push(...page.rows);
    if (page.rows.length === 0 || out.length >= page.total) return out;
  }
}

describe.each([
  { flow: 'standard', rows: 1_500, seed: 23 },
  { flow: 'large', rows: 7_000, seed: 24 },
] as const)('$flow flow: a generated list of $rows rows', ({ flow, rows, seed }) => {
  let list: ContactList;
  let lint: AgentLint;

  beforeAll(async () => {
    list = await importGenerated(rows, seed);
    lint = value<AgentLint>(await desk.handle('agents:lint', { listId: list.id, agentId }));
  }, 120_000);

  it('predicts refusals from the empty mapped variables and blocks the launch while they would be sent', async () => {
    expect(lint.rowsServiceWillDrop).toBeGreaterThan(0);
    // Each row counts once: not more than the per-variable counts together, not fewer than the largest.
    const perVariable = lint.emptyColumns.map((c) => c.emptyRows);
    expect(lint.rowsServiceWillDrop).toBeLessThanOrEqual(perVariable.reduce((a, b) => a + b, 0));
    expect(lint.rowsServiceWillDrop).toBeGreaterThanOrEqual(Math.max(...perVariable));
    const blocked = await desk.handle('campaigns:launch', { settings: await settings(list.id, false) });
    expect(blocked).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', field: 'mapping', message: expect.stringContaining('would refuse') },
    });
  });

  it('the plan, the confirmation and the launch count the same calls: the rows sent less the rows the service drops', async () => {
    const s = await settings(list.id, true);
    const calls = lint.uploadRows - lint.rowsServiceWillDrop;
    // Exactly the credits for the calls: enough, though fewer than the rows the file carries.
    await control('POST', '/workspace', { credits: calls });
    try {
      const plan = value<CampaignPlan>(await desk.handle('campaigns:plan', { settings: s }));
      expect(plan).toMatchObject({
        calls,
        rowsServiceWillDrop: lint.rowsServiceWillDrop,
        flow,
        credits: { needed: calls, available: calls, sufficient: true },
      });
      const summary = value<LaunchSummary>(await desk.handle('campaigns:launch-summary', { settings: s }));
      expect(summary).toMatchObject({
        calls,
        rowsServiceWillDrop: lint.rowsServiceWillDrop,
        credits: { needed: calls, available: calls },
      });
      // One credit short: the summary refuses it (no confirmation), with both figures.
      await control('POST', '/workspace', { credits: calls - 1 });
      expect(await desk.handle('campaigns:launch-summary', { settings: s })).toMatchObject({
        ok: false,
        error: {
          field: 'credits',
          message: expect.stringContaining(
            `needs ${calls.toLocaleString('en-US')} credits (one a call) and the workspace has ${(calls - 1).toLocaleString('en-US')}`,
          ),
        },
      });
    } finally {
      await control('POST', '/workspace', { credits: 1_000_000 });
    }
  });

  it('the service refuses exactly the predicted rows, and they are mapped back to the list', async () => {
    // Credits for the calls only (not for the rows dropped): the app and the service both start it.
    await control('POST', '/workspace', { credits: lint.uploadRows - lint.rowsServiceWillDrop });
    const sent = value<LaunchView>(
      await desk.handle('campaigns:launch', { settings: await settings(list.id, true) }),
    );
    expect(sent.flow).toBe(flow);
    expect(sent.rowsServiceWillDrop).toBe(lint.rowsServiceWillDrop);
    const t = await untilSettled(sent.id).finally(() =>
      control('POST', '/workspace', { credits: 1_000_000 }),
    );
    expect(t.launch.state, JSON.stringify(t.entries)).toBe('started');
    // The acceptance figure: predicted = refused by the service.
    expect(t.launch.serviceInvalid).toBe(lint.rowsServiceWillDrop);
    expect(t.launch.arrived).toBe(sent.valid - lint.rowsServiceWillDrop);
    const checked = t.entries.find(
      (e) => e.step === (flow === 'large' ? 'upload-status' : 'save') && e.outcome === 'ok',
    );
    expect(checked?.message).toContain(
      `${(sent.valid - lint.rowsServiceWillDrop).toLocaleString('en-US')} of ${sent.valid.toLocaleString('en-US')} rows arrived; the service refused ${lint.rowsServiceWillDrop.toLocaleString('en-US')}`,
    );

    // Mapped to the operator's rows: exactly the rows the app's filter shows, each with the service's reason.
    const predicted = await rowsOf(list.id, lint.refusalFilter as ContactFilter);
    expect(predicted).toHaveLength(lint.rowsServiceWillDrop);
    for (const r of predicted) expect(r.refused, `row ${r.row}`).toMatch(/ is empty \(needed for \w+\)$/);
    const all = await rowsOf(list.id, 'all');
    expect(all.filter((r) => r.refused !== undefined).map((r) => r.row)).toEqual(predicted.map((r) => r.row));

    // Campaign results call them refused, not "not called yet".
    const results = value<{ counts: Record<string, number> }>(
      await desk.handle('calls:campaign-results', {
        bulkListId: t.launch.serviceId!,
        outcomes: ['refused'],
        offset: 0,
        limit: 10,
      }),
    );
    expect(results.counts.refused).toBe(lint.rowsServiceWillDrop);
  }, 120_000);
});
