// Integration: a history page with malformed records, served by the real sandbox over HTTP
// (POST /_sandbox/history-overrides), synced through the desk's channels and the CLI into a real
// data folder. The page's valid calls are stored, the bad ones quarantined with the reason.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallDetail, QuarantinedRecord } from '../../../shared/ipc/channels/calls.ts';
import { MAX_CALL_DURATION_S } from '../../../shared/service/history.ts';
import { runSyncCommand } from '../../cli/callsCommands.ts';
import type { Io } from '../../cli/io.ts';
import { createApiClient } from '../api/client.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import type { Desk } from '../createDesk.ts';
import { tempDirs } from '../db/testing.ts';
import { startSyncSandbox } from '../sync/testing.ts';
import { deskOnSandbox, syncNow, value } from './testing.ts';

const SEEDED = 40;
const dirs = tempDirs('desk-quarantine-');
let sandbox: SandboxProcess;
let desk: Desk;
let ids: string[] = [];

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  await sandbox.control('POST', '/seed-calls', { count: SEEDED });
  const api = createApiClient({ baseUrl: sandbox.baseUrl, apiKey: async () => sandbox.apiKey });
  const page = await api.listCallHistory({
    start_date: new Date(Date.now() - 32 * 86_400_000).toISOString(),
    end_date: new Date(Date.now() + 86_400_000).toISOString(),
    limit: 100,
  });
  ids = page.calls.map((c) => c.id);
  expect(ids).toHaveLength(SEEDED);
  ({ desk } = await deskOnSandbox(sandbox, dirs.make()));
}, 60_000);
afterAll(async () => {
  await desk?.close();
  await sandbox?.stop();
  dirs.cleanup();
});

const override = (callId: string, fields: Record<string, unknown>) =>
  sandbox.control('POST', '/history-overrides', { call_id: callId, fields });
const quarantine = async () =>
  value<{ total: number; rows: QuarantinedRecord[] }>(await desk.handle('calls:quarantine', {}));

describe('malformed history records', () => {
  it('stores every valid call of the page and quarantines the bad ones with the field, reason and raw JSON', async () => {
    const [rollover, year0, year9999, huge, negativeCost] = ids as [string, string, string, string, string];
    await override(rollover, { created_at: '2025-02-30T25:61:61Z' });
    await override(year0, { created_at: '0000-01-01T00:00:00Z' });
    await override(year9999, { created_at: '9999-12-31T23:59:59.000Z' });
    await override(huge, { call_duration: 1e308 });
    await override(negativeCost, { call_cost: -5 });

    const { final } = await syncNow(desk);
    expect(final.state).toBe('done');
    expect(final.skipped).toBe(4);
    expect(final.quarantined).toBe(4);
    expect(final.calls).toBe(SEEDED - 4);

    const q = await quarantine();
    expect(q.total).toBe(4);
    const byId = new Map(q.rows.map((r) => [r.callId, r]));
    expect(byId.get(rollover)).toMatchObject({
      field: 'created_at',
      reason: expect.stringMatching(/^created_at: "2025-02-30T25:61:61Z" day 30 does not exist in 2025-02$/),
    });
    expect(JSON.parse(byId.get(rollover)!.raw)).toMatchObject({
      id: rollover,
      created_at: '2025-02-30T25:61:61Z',
    });
    expect(byId.get(year0)?.reason).toMatch(/year 0 is outside 1970–2100/);
    expect(byId.get(year9999)?.reason).toMatch(/year 9999 is outside 1970–2100/);
    expect(byId.get(negativeCost)).toMatchObject({
      field: 'call_cost',
      reason: 'call_cost: must not be negative',
    });

    // 1e308 seconds is clamped to 24 h: the call is stored and its detail opens (no RangeError).
    const detail = await desk.handle('calls:get', { callId: huge });
    expect(detail.ok).toBe(true);
    const call = value<{ call: CallDetail }>(detail).call;
    expect(call.callDuration).toBe(MAX_CALL_DURATION_S);
    expect(call.recording.expiresAt === null || !Number.isNaN(Date.parse(call.recording.expiresAt))).toBe(
      true,
    );
    // Refused calls are not stored at all.
    expect((await desk.handle('calls:get', { callId: rollover })).ok).toBe(false);
  }, 60_000);

  it('stores a quarantined record that later arrives valid and takes it out of the quarantine', async () => {
    const rollover = ids[0]!;
    await sandbox.control('DELETE', `/history-overrides?call_id=${rollover}`);
    const { final } = await syncNow(desk);
    expect(final.state).toBe('done');
    expect(final.skipped).toBe(3);
    expect(final.quarantined).toBe(3);
    expect(final.calls).toBe(SEEDED - 3);
    expect(value<{ call: CallDetail }>(await desk.handle('calls:get', { callId: rollover })).call.id).toBe(
      rollover,
    );
    expect((await quarantine()).rows.map((r) => r.callId)).not.toContain(rollover);
  }, 60_000);

  it('leaves malformed records out of a normalised history page (a campaign count), never failing it', async () => {
    const api = createApiClient({ baseUrl: sandbox.baseUrl, apiKey: async () => sandbox.apiKey });
    const page = await api.listCallHistory({
      start_date: new Date(Date.now() - 32 * 86_400_000).toISOString(),
      end_date: new Date(Date.now() + 86_400_000).toISOString(),
      limit: 100,
    });
    expect(page.skipped).toBe(3);
    expect(page.calls).toHaveLength(SEEDED - 3);
    expect(page.total).toBe(SEEDED);
  });

  it('gives `skipped` and `quarantined` in the CLI sync report', async () => {
    const dir = dirs.make();
    const report = join(dir, 'report.json');
    const lines: string[] = [];
    const io: Io = {
      out: (t) => void lines.push(t),
      err: (t) => void lines.push(t),
      status: () => undefined,
      interactive: false,
      ask: async () => null,
      onInterrupt: () => undefined,
      offInterrupt: () => undefined,
    };
    const before = process.env.CAMPAIGN_DESK_API_KEY;
    process.env.CAMPAIGN_DESK_API_KEY = sandbox.apiKey;
    try {
      const code = await runSyncCommand(
        ['--data', join(dir, 'data'), '--base-url', sandbox.baseUrl, '--no-recordings', '--report', report],
        io,
      );
      expect(code).toBe(0);
    } finally {
      if (before === undefined) delete process.env.CAMPAIGN_DESK_API_KEY;
      else process.env.CAMPAIGN_DESK_API_KEY = before;
    }
    const figures = JSON.parse(readFileSync(report, 'utf8')) as Record<string, unknown>;
    expect(figures).toMatchObject({ ok: true, calls: SEEDED - 3, skipped: 3, quarantined: 3 });
    expect(lines.join('\n')).toMatch(/3 skipped records/);
  }, 60_000);
});
