// The do-not-call list end to end in the back end (issue 27): calls synced from a real sandbox
// process over HTTP, a real SQLite data folder, every step through the desk's channels. A number
// suppressed after a call is held back from the next contact list and its launch (the sandbox
// receives the others only); DND_SKIPPED calls and opt-out phrases in English, romanised Hindi and
// Devanagari are offered (and nothing else is); the list exports and imports back through the
// contacts engine; the shared list and a workspace's own combine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchSummary, LaunchView } from '../../../shared/ipc/channels/campaigns.ts';
import type { ContactRow } from '../../../shared/ipc/channels/contacts.ts';
import type { SuppressionEntryView, SuppressionOffer } from '../../../shared/ipc/channels/suppression.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { readSuppressFile } from '../../cli/suppressList.ts';
import { deskOnSandbox, syncNow, value } from '../calls/testing.ts';
import { campaignSettings, launchTarget } from '../campaigns/testing.ts';
import { importThroughService } from '../contacts/testing.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { startSyncSandbox } from '../sync/testing.ts';

const dirs = tempDirs('desk-suppression-');
let sandbox: SandboxProcess;
let desk: Desk;
let workspaceId = '';
let target: { agentId: string; poolId: string };

/** The calls whose record the sandbox serves changed (history-overrides), by role. */
const N = {
  fromCall: '+919811100001',
  dnd: '+919811100002',
  hinglish: '+919811100003',
  devanagari: '+919811100004',
  english: '+919811100005',
};
const calls: Record<keyof typeof N, string> = {
  fromCall: '',
  dnd: '',
  hinglish: '',
  devanagari: '',
  english: '',
};

const importCsv = async (name: string, text: string) =>
  (
    await importThroughService(
      {
        importBegin: async (req) => value(await desk.handle('contacts:import-begin', req)),
        importBatch: async (req) => value(await desk.handle('contacts:import-batch', req)),
        importFinish: async (req) => value(await desk.handle('contacts:import-finish', req)),
      },
      new TextEncoder().encode(text),
      { name },
    )
  ).list;

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  await sandbox.control('POST', '/seed-calls', { count: 40, status: 'completed' });
  const q = new URLSearchParams({
    start_date: '2000-01-01T00:00:00Z',
    end_date: '2100-01-01T00:00:00Z',
    limit: '40',
  });
  const history = (await (
    await fetch(`${sandbox.baseUrl}/calling/history?${q}`, { headers: { 'x-api-key': sandbox.apiKey } })
  ).json()) as { data?: { id: string }[]; calls?: { id: string }[]; history?: { id: string }[] };
  const ids = (history.data ?? history.calls ?? history.history ?? []).map((c) => c.id);
  expect(ids.length).toBe(40);
  const turns = (user: string) => [{ bot: 'Hello, am I speaking with Ravi?' }, { user }];
  const overrides: Record<keyof typeof N, Record<string, unknown>> = {
    fromCall: { to_number: N.fromCall },
    dnd: { to_number: N.dnd, status: 'cancelled', sub_status: 'DND_SKIPPED', transcript: null },
    hinglish: { to_number: N.hinglish, transcript: turns('Bhai mujhe dobara call mat karo, samjhe?') },
    devanagari: { to_number: N.devanagari, transcript: turns('मुझे कॉल मत करो।') },
    english: { to_number: N.english, transcript: turns('Please stop calling this number.') },
  };
  (Object.keys(N) as (keyof typeof N)[]).forEach((role, i) => (calls[role] = ids[i]!));
  for (const role of Object.keys(N) as (keyof typeof N)[])
    await sandbox.control('POST', '/history-overrides', { call_id: calls[role], fields: overrides[role] });
  ({ desk, workspaceId } = await deskOnSandbox(sandbox, dirs.make()));
  value(await desk.handle('agents:sync', {}));
  target = await launchTarget(sandbox, sandbox.apiKey);
  value(await desk.handle('campaigns:numbers', { refresh: true }));
  const { final } = await syncNow(desk);
  expect(final.state).toBe('done');
}, 90_000);
afterAll(async () => {
  await desk?.close();
  await sandbox?.stop();
  dirs.cleanup();
});

const offers = async (kind?: SuppressionOffer['kind']) =>
  value<{ counts: { dndSkipped: number; optOutPhrases: number }; offers: SuppressionOffer[] }>(
    await desk.handle('suppression:offers', kind ? { kind } : {}),
  );
const entries = async (scope: 'workspace' | 'shared' | 'both' = 'both') =>
  value<{ total: number; entries: SuppressionEntryView[] }>(
    await desk.handle('suppression:list', { scope, limit: 500 }),
  ).entries;

describe('offers from results', () => {
  it('offers the DND_SKIPPED call and the opt-out phrases of both scripts, nothing from other transcripts', async () => {
    value(await desk.handle('suppression:scan', {}));
    const dnd = await offers('dnd_skipped');
    expect(dnd.offers.map((o) => [o.callId, o.number])).toEqual([[calls.dnd, N.dnd]]);
    const phrases = (await offers('opt_out_phrase')).offers;
    expect(phrases.map((o) => [o.callId, o.number, o.phrase]).sort()).toEqual(
      [
        [calls.hinglish, N.hinglish, 'call mat karo'],
        [calls.devanagari, N.devanagari, 'कॉल मत करो'],
        [calls.english, N.english, 'stop calling'],
      ].sort(),
    );
    // The other 35 calls have transcripts too ("Yes, speaking.", …): none is offered.
    expect(dnd.counts).toEqual({ dndSkipped: 1, optOutPhrases: 3 });
    // Offers are never entries by themselves.
    expect(await entries()).toEqual([]);
    // A second scan offers nothing twice.
    value(await desk.handle('suppression:scan', {}));
    expect((await offers()).counts).toEqual({ dndSkipped: 1, optOutPhrases: 3 });
  });
});

describe('a number suppressed after a call', () => {
  it('is held back from the next list (with its reason) and from its launch; the sandbox never receives it', async () => {
    const added = value<{ added: number }>(
      await desk.handle('suppression:from-calls', { callIds: [calls.fromCall] }),
    );
    expect(added.added).toBe(1);
    // One click takes the DND offer.
    const taken = value<{ resolved: number; counts: { dndSkipped: number } }>(
      await desk.handle('suppression:resolve-offers', { all: 'dnd_skipped', accept: true }),
    );
    expect(taken).toMatchObject({ resolved: 1, counts: { dndSkipped: 0 } });
    const list = await entries();
    expect(list.map((e) => [e.number, e.reason]).sort()).toEqual([
      [N.fromCall, 'opted_out'],
      [N.dnd, 'dnd_registry'],
    ]);
    expect(list.find((e) => e.number === N.fromCall)!.sources.map((s) => [s.kind, s.ref])).toContainEqual([
      'call',
      calls.fromCall,
    ]);

    const others = Array.from({ length: 8 }, (_, i) => `98222${String(i).padStart(5, '0')}`);
    const csv = [
      'Mobile Number,Name,Loan Amount,Due Date,Language,City',
      ...[N.fromCall.slice(3), ...others.slice(0, 4), N.dnd, ...others.slice(4)].map(
        (n, i) => `${n},Customer ${i},5000,15/12/2026,Hindi,Pune`,
      ),
    ].join('\n');
    const contacts = await importCsv('next month', `${csv}\n`);
    expect(contacts.counts.valid).toBe(10);
    const check = value<{ total: number; byReason: Record<string, number> }>(
      await desk.handle('suppression:list-check', { listId: contacts.id }),
    );
    expect(check).toEqual({ total: 2, byReason: { opted_out: 1, dnd_registry: 1 } });
    const held = value<{ total: number; rows: ContactRow[] }>(
      await desk.handle('contacts:rows', { listId: contacts.id, filter: 'suppressed', offset: 0, limit: 50 }),
    );
    expect(held.total).toBe(2);
    expect(held.rows.map((r) => [r.e164, r.suppressed])).toEqual([
      [N.fromCall, 'opted_out'],
      [N.dnd, 'dnd_registry'],
    ]);
    const out = join(dirs.make(), 'upload.csv');
    value(await desk.handle('contacts:export', { listId: contacts.id, kind: 'upload', path: out }));
    const upload = readFileSync(out, 'utf8');
    expect(upload).not.toContain(N.fromCall);
    expect(upload).not.toContain(N.dnd);
    expect(upload.trim().split('\n')).toHaveLength(9);

    const settings = campaignSettings(target, { listId: contacts.id, name: 'After opt-outs' });
    const summary = value<LaunchSummary>(await desk.handle('campaigns:launch-summary', { settings }));
    expect(summary.heldBack).toBe(2);
    expect(summary.calls).toBe(8);
    let launch = value<LaunchView>(await desk.handle('campaigns:launch', { settings }));
    for (let i = 0; i < 300 && (launch.state === 'pending' || launch.state === 'waiting'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      launch = value<{ launch: LaunchView }>(
        await desk.handle('campaigns:timeline', { id: launch.id }),
      ).launch;
    }
    expect(launch.state).toBe('started');
    const received = await sandbox.control<{ lists: { campaign_name: string; numbers: string[] }[] }>(
      'GET',
      '/received',
    );
    const numbers = received.lists.find((l) => l.campaign_name === 'After opt-outs')!.numbers;
    expect(numbers.sort()).toEqual(others.map((n) => `+91${n}`).sort());
  }, 60_000);
});

describe('the shared list and a workspace list', () => {
  it('combine for a workspace; another workspace sees only the shared one', async () => {
    const shared = '+919833300001';
    const own = '+919833300002';
    value(
      await desk.handle('suppression:add', { numbers: ['98333 00001'], shared: true, reason: 'complaint' }),
    );
    value(await desk.handle('suppression:add', { numbers: [own], reason: 'wrong_number' }));
    const contacts = await importCsv(
      'both lists',
      `Mobile Number,Name\n${shared},A\n${own},B\n+919833300003,C\n`,
    );
    const check = async () =>
      value<{ total: number; byReason: Record<string, number> }>(
        await desk.handle('suppression:list-check', { listId: contacts.id }),
      );
    expect(await check()).toEqual({ total: 2, byReason: { complaint: 1, wrong_number: 1 } });
    expect((await entries('shared')).map((e) => e.number)).toEqual([shared]);

    const other = value<{ id: string }>(
      await desk.handle('workspaces:create', {
        name: 'Other',
        baseUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        sessionOnly: true,
      }),
    );
    value(await desk.handle('workspaces:set-active', { id: other.id }));
    try {
      expect(await check()).toEqual({ total: 1, byReason: { complaint: 1 } });
      const rows = value<{ rows: ContactRow[] }>(
        await desk.handle('contacts:rows', {
          listId: contacts.id,
          filter: 'suppressed',
          offset: 0,
          limit: 10,
        }),
      ).rows;
      expect(rows.map((r) => r.e164)).toEqual([shared]);
    } finally {
      value(await desk.handle('workspaces:set-active', { id: workspaceId }));
    }
  });

  it('removes with undo, keeping the history of the number', async () => {
    const own = '+919833300002';
    const removed = value<{ removed: number; undoToken: string }>(
      await desk.handle('suppression:remove', { numbers: [own] }),
    );
    expect(removed.removed).toBe(1);
    expect((await entries('workspace')).map((e) => e.number)).not.toContain(own);
    value(await desk.handle('suppression:undo-remove', { undoToken: removed.undoToken }));
    expect((await entries('workspace')).find((e) => e.number === own)?.reason).toBe('wrong_number');
    const history = value<{ events: { action: string }[] }>(
      await desk.handle('suppression:history', { number: own }),
    );
    expect(history.events.map((e) => e.action)).toEqual(['added', 'removed', 'restored']);
  });
});

describe('export and import', () => {
  it('round-trips the list through a CSV read by the contacts engine, merging with the earliest reason', async () => {
    const before = await entries('workspace');
    const file = join(dirs.make(), 'dnc.csv');
    const exported = value<{ rows: number; path: string }>(
      await desk.handle('suppression:export', { scope: 'workspace', path: file }),
    );
    expect(exported.rows).toBe(before.length);

    const fresh = value<{ id: string }>(
      await desk.handle('workspaces:create', {
        name: 'Laptop two',
        baseUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        sessionOnly: true,
      }),
    );
    value(await desk.handle('workspaces:set-active', { id: fresh.id }));
    try {
      // Laptop two already has one of the numbers, added later by hand: the file's earlier reason wins.
      value(await desk.handle('suppression:add', { numbers: [N.fromCall], reason: 'manual' }));
      // Two rows the list cannot take (no valid number) are counted as skipped, not dropped silently.
      const text = readFileSync(file, 'utf8').replace(/\r?\n?$/, '\n') + 'not a number,manual\n,manual\n';
      const list = await importCsv('dnc file', text);
      const r = value<{ added: number; merged: number; skipped: number }>(
        await desk.handle('suppression:import-list', { listId: list.id }),
      );
      expect(r).toEqual({ added: before.length - 1, merged: 1, skipped: 2 });
      const after = await entries('workspace');
      const key = (e: SuppressionEntryView) => [e.number, e.reason, e.addedAt, e.addedBy, e.expiresAt];
      expect(after.map(key).sort()).toEqual(before.map(key).sort());
      for (const e of before) {
        const again = after.find((a) => a.number === e.number)!;
        for (const s of e.sources) expect(again.sources).toContainEqual(s);
        expect(again.sources.some((s) => s.kind === 'file')).toBe(true);
      }
    } finally {
      value(await desk.handle('workspaces:set-active', { id: workspaceId }));
    }
  });

  it('exports .xlsx that the contacts engine reads back with every number and reason', async () => {
    const before = await entries('both');
    const file = join(dirs.make(), 'dnc.xlsx');
    const exported = value<{ rows: number; path: string }>(
      await desk.handle('suppression:export', { scope: 'both', format: 'xlsx', path: file }),
    );
    expect(exported.rows).toBe(before.length);
    const read = await readSuppressFile(file, 'IN');
    expect([...read].map(([n, r]) => [`+${n}`, r]).sort()).toEqual(
      before.map((e) => [e.number, e.reason]).sort(),
    );
  });

  it('refuses a number it cannot read, naming it', async () => {
    const r = value<{ added: number; refused: { number: string; message: string }[] }>(
      await desk.handle('suppression:add', { numbers: ['12345'] }),
    );
    expect(r.added).toBe(0);
    expect(r.refused[0]!.message).toMatch(/12345 is not a valid phone number/);
  });
});
