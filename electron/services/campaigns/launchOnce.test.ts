// One campaign, one launch, through the desk's channels against the built-in sandbox (real HTTP,
// real SQLite): a launched draft leaves Drafts and is refused a second launch (and a save); it
// opens with its state, timeline and settings; "Duplicate as new campaign" counts the contacts
// the copy shares with running or recent campaigns, and the confirmation repeats it with the
// plan's figures; the campaigns list shows it once, with Terminate only while it can be
// terminated; a launch the service refused is corrected and sent again from the same campaign.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantToCampaignTime } from '../../../shared/domain/dates.ts';
import type {
  CampaignDraft,
  CampaignPlan,
  CampaignSettings,
  LaunchSummary,
  LaunchView,
  Overlaps,
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

const dirs = tempDirs('desk-launch-once-');
let desk: Desk;
let control: (method: string, path: string, body?: unknown) => Promise<unknown>;
let agentId: string;
let poolId: string;

const value = <T>(r: Result<unknown>): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value as T;
};
type Stats = {
  credits: number;
  starts: Array<{ bulk_list_id: string; accepted: number }>;
  start_attempts: unknown[];
};
const stats = async () => (await control('GET', '/stats?deliveries_limit=0')) as Stats;
type Row = { launchId: string | null; serviceId: string | null; status: string; canTerminate: boolean };

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

const day = 86_400_000;
const settings = (over: Partial<CampaignSettings> = {}): CampaignSettings =>
  campaignSettings({ agentId, poolId }, over);

async function importList(
  name: string,
  rows: number,
  seed: number,
): Promise<{ list: ContactList; valid: number }> {
  const file = join(dirs.make(), `${name}.csv`);
  const { valid } = writeMessyContacts(file, rows, seed);
  const { list } = await importThroughService(
    {
      importBegin: async (req) => value(await desk.handle('contacts:import-begin', req)),
      importBatch: async (req) => value(await desk.handle('contacts:import-batch', req)),
      importFinish: async (req) => value(await desk.handle('contacts:import-finish', req)),
    },
    new Uint8Array(readFileSync(file)),
    { name },
  );
  return { list, valid };
}

async function settled(id: string): Promise<LaunchView> {
  let t = value<{ launch: LaunchView }>(await desk.handle('campaigns:timeline', { id }));
  for (let i = 0; i < 300 && (t.launch.state === 'pending' || t.launch.state === 'waiting'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    t = value(await desk.handle('campaigns:timeline', { id }));
  }
  return t.launch;
}

describe('a launched campaign', () => {
  let list: ContactList;
  let valid: number;
  let draft: CampaignDraft;
  let launched: LaunchView;
  beforeAll(async () => {
    ({ list, valid } = await importList('once', 60, 5));
    draft = value<CampaignDraft>(
      await desk.handle('campaigns:save-draft', { settings: settings({ listId: list.id, name: 'Once' }) }),
    );
    const sent = value<LaunchView>(
      await desk.handle('campaigns:launch', { settings: draft.settings, draftId: draft.id }),
    );
    launched = await settled(sent.id);
  }, 90_000);

  it('leaves Drafts, opens with its state, id, timeline and settings, and is refused a second launch or a save', async () => {
    expect(launched).toMatchObject({ state: 'started', draftId: draft.id });
    const id = launched.serviceId!;
    const drafts = value<{ drafts: CampaignDraft[] }>(await desk.handle('campaigns:drafts', {})).drafts;
    expect(drafts.map((d) => d.id)).not.toContain(draft.id);

    const opened = value<{ launch: LaunchView; entries: TimelineEntry[]; settings: CampaignSettings }>(
      await desk.handle('campaigns:open', { id: launched.id }),
    );
    expect(opened.launch).toMatchObject({ state: 'started', serviceId: id });
    expect(opened.settings).toEqual(draft.settings);
    expect(opened.entries.map((e) => `${e.step}:${e.outcome}`)).toEqual([
      'save:sent',
      'save:ok',
      'start:sent',
      'start:ok',
    ]);

    // The same draft again, its start moved: refused, nothing sent, nothing written.
    const attempts = (await stats()).start_attempts.length;
    const moved = settings({
      listId: list.id,
      name: 'Once',
      start: instantToCampaignTime(Date.now() + 3 * day, 'Asia/Kolkata'),
    });
    expect(await desk.handle('campaigns:launch', { settings: moved, draftId: draft.id })).toMatchObject({
      ok: false,
      error: { code: 'conflict', field: 'draftId', message: expect.stringContaining('already launched') },
    });
    expect(
      await desk.handle('campaigns:launch-summary', { settings: moved, draftId: draft.id }),
    ).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(await desk.handle('campaigns:save-draft', { id: draft.id, settings: moved })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(await desk.handle('campaigns:delete-draft', { id: draft.id })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect((await stats()).start_attempts).toHaveLength(attempts);
    expect((await stats()).starts.find((s) => s.bulk_list_id === id)?.accepted).toBe(1);
    const reopened = value<{ settings: CampaignSettings }>(
      await desk.handle('campaigns:open', { id: launched.id }),
    );
    expect(reopened.settings.start).toBe(draft.settings.start);
  }, 60_000);

  it('is listed once, merged with the service record, Terminate offered while it runs and not after', async () => {
    const listed = value<{ campaigns: Row[] }>(
      await desk.handle('campaigns:list', { refresh: true }),
    ).campaigns;
    const rows = listed.filter((c) => c.serviceId === launched.serviceId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ launchId: launched.id, canTerminate: true });
    await control('POST', '/clock', { advance_seconds: 2 * 86_400 + 3_600 });
    value(await desk.handle('campaigns:terminate', { campaignId: launched.serviceId! }));
    const after = value<{ campaigns: Row[] }>(
      await desk.handle('campaigns:list', { refresh: true }),
    ).campaigns;
    expect(after.filter((c) => c.serviceId === launched.serviceId)).toEqual([
      expect.objectContaining({ launchId: launched.id, status: 'terminated', canTerminate: false }),
    ]);
    const opened = value<{ launch: LaunchView }>(await desk.handle('campaigns:open', { id: launched.id }));
    expect(opened.launch.terminatedAt).not.toBeNull();
  }, 60_000);

  it('"Duplicate as new campaign" copies its settings into a new draft and counts the contacts it shares; the confirmation repeats it with the plan\'s figures', async () => {
    const copy = value<{ draft: CampaignDraft; overlaps: Overlaps }>(
      await desk.handle('campaigns:duplicate', { id: launched.id }),
    );
    expect(copy.draft.id).not.toBe(draft.id);
    expect(copy.draft.settings).toEqual({ ...draft.settings, name: 'Once (copy)' });
    // Every valid number of the list is in "Once" (terminated today: ran in the last 7 days).
    expect(copy.overlaps.contacts).toBe(valid);
    expect(copy.overlaps.campaigns).toEqual([
      expect.objectContaining({ launchId: launched.id, name: 'Once', contacts: valid }),
    ]);
    const drafts = value<{ drafts: CampaignDraft[] }>(await desk.handle('campaigns:drafts', {})).drafts;
    expect(drafts.map((d) => d.id)).toContain(copy.draft.id);

    // A list sharing 20 numbers with it: counted by E.164 (the other rows are new numbers).
    const { list: other } = await importList('other', 20, 5);
    expect(
      value<Overlaps>(await desk.handle('campaigns:overlaps', { listId: other.id })).contacts,
    ).toBeGreaterThan(0);

    const s = { ...copy.draft.settings, start: instantToCampaignTime(Date.now() + 3 * day, 'Asia/Kolkata') };
    const summary = value<LaunchSummary>(
      await desk.handle('campaigns:launch-summary', { settings: s, draftId: copy.draft.id }),
    );
    const plan = value<CampaignPlan>(await desk.handle('campaigns:plan', { settings: s }));
    expect(summary).toMatchObject({
      name: 'Once (copy)',
      list: 'once',
      calls: plan.calls,
      callsNotFitting: plan.callsNotFitting,
      credits: { needed: plan.credits.needed, available: plan.credits.available },
      window: { start: '09:00', end: '18:00' },
      timezone: 'Asia/Kolkata',
      start: s.start,
      end: s.end,
      callers: { kind: 'pool', pool: poolId },
      agent: { id: agentId, name: 'Loan Repayment Reminder', version: null },
      overlaps: { contacts: valid },
    });
  }, 60_000);
});

describe('a launch the service refused', () => {
  it('never offers Terminate, and is corrected and sent again from the same campaign (one campaign, one start)', async () => {
    const { list, valid } = await importList('short', 40, 7);
    // The sandbox's clock may be ahead of ours (an earlier test moved it): start after both.
    const clock = (await control('GET', '/clock')) as { now: string };
    const base = Math.max(Date.parse(clock.now), Date.now());
    const draft = value<CampaignDraft>(
      await desk.handle('campaigns:save-draft', {
        settings: settings({
          listId: list.id,
          name: 'Short',
          start: instantToCampaignTime(base + 2 * day, 'Asia/Kolkata'),
          end: instantToCampaignTime(base + 9 * day, 'Asia/Kolkata'),
        }),
      }),
    );
    // The service refuses the save once (credits are checked before anything is sent, so a refusal
    // of the service's own is made here with the sandbox's fault injection).
    await control('POST', '/faults', { path: '/campaign/save', kind: 'error', status: 400, max_count: 1 });
    let refused: LaunchView;
    try {
      refused = await settled(
        value<LaunchView>(
          await desk.handle('campaigns:launch', { settings: draft.settings, draftId: draft.id }),
        ).id,
      );
    } finally {
      await control('DELETE', '/faults');
    }
    expect(refused.state).toBe('failed');
    const listed = value<{ campaigns: Row[] }>(
      await desk.handle('campaigns:list', { refresh: true }),
    ).campaigns;
    expect(listed.filter((c) => c.launchId === refused.id)).toEqual([
      expect.objectContaining({ canTerminate: false }),
    ]);
    // Corrected (a lower concurrency) and sent again: the same launch, started once.
    const corrected = { ...draft.settings, concurrency: 20 };
    value(await desk.handle('campaigns:save-draft', { id: draft.id, settings: corrected }));
    const again = value<LaunchView>(
      await desk.handle('campaigns:launch', { settings: corrected, draftId: draft.id }),
    );
    expect(again.id).toBe(refused.id);
    const done = await settled(again.id);
    expect(done).toMatchObject({ state: 'started', valid });
    expect((await stats()).starts.find((s) => s.bulk_list_id === done.serviceId)?.accepted).toBe(1);
    const all = value<{ campaigns: Row[] }>(await desk.handle('campaigns:list', {})).campaigns;
    expect(all.filter((c) => c.launchId === refused.id)).toHaveLength(1);
  }, 90_000);
});
