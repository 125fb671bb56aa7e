// `campaign-desk calls qa-report` as a child process on a data folder the app filled: calls synced
// from the real sandbox over HTTP, review marks made through the desk; the CSV, exit codes and
// one-line errors.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallSummary } from '../../shared/ipc/channels/calls.ts';
import type { ReviewReason } from '../../shared/ipc/channels/review.ts';
import type { SandboxProcess } from '../services/api/testing/sandboxProcess.ts';
import { deskOnSandbox, syncNow, value } from '../services/calls/testing.ts';
import { LOCK_FILE_NAME } from '../services/dataDirLock.ts';
import { tempDirs } from '../services/db/testing.ts';
import { QA_REPORT_COLUMNS } from '../services/review/qaReport.ts';
import { linkCampaign } from '../services/review/testing.ts';
import { startSyncSandbox } from '../services/sync/testing.ts';

const cli = fileURLToPath(new URL('./main.ts', import.meta.url));
const CAMPAIGN = 'bl-cli-qa';
const dirs = tempDirs('desk-cli-qa-');
let sandbox: SandboxProcess;
let data = '';
let calls: CallSummary[] = [];

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  const now = Date.now();
  await sandbox.control('POST', '/seed-calls', {
    count: 25,
    bulk_list_id: CAMPAIGN,
    start_date: new Date(now - 4 * 3_600_000).toISOString(),
    end_date: new Date(now - 3_600_000).toISOString(),
  });
  await sandbox.control('POST', '/seed-calls', { count: 30 });
  data = dirs.make();
  const { desk, workspaceId } = await deskOnSandbox(sandbox, data);
  try {
    await linkCampaign(desk, { dataDir: data, workspaceId, bulkListId: CAMPAIGN });
    expect((await syncNow(desk)).final.state).toBe('done');
    calls = value<{ rows: CallSummary[] }>(
      await desk.handle('calls:list', { filter: { bulkListId: CAMPAIGN }, offset: 0, limit: 100 }),
    ).rows;
    const reasons = value<{ reasons: ReviewReason[] }>(await desk.handle('review:reasons', {})).reasons;
    value(await desk.handle('review:set-reviewer', { name: 'Night shift' }));
    value(await desk.handle('review:set', { callId: calls[0]!.id, reviewed: true, note: '=cmd|calc' }));
    value(
      await desk.handle('review:set', {
        callId: calls[1]!.id,
        flagReasonId: reasons.find((r) => r.label === 'Opt-out request')!.id,
      }),
    );
  } finally {
    await desk.close();
  }
}, 90_000);
afterAll(async () => {
  await sandbox?.stop();
  dirs.cleanup();
});

describe('campaign-desk calls qa-report', () => {
  it('writes every call of the campaign with its review, cells formula-safe, into place whole', async () => {
    const folder = join(data, 'out');
    mkdirSync(folder);
    const out = join(folder, 'qa.csv');
    const r = await run(['calls', 'qa-report', '--data', data, '--campaign', CAMPAIGN, '--out', out]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout.trim()).toBe(`Wrote the QA report of 25 calls to ${out}`);
    expect(readdirSync(folder)).toEqual(['qa.csv']);
    const text = readFileSync(out, 'utf8');
    const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
    expect(parsed.meta.fields).toEqual([...QA_REPORT_COLUMNS]);
    expect(parsed.data.map((row) => row.call_id).sort()).toEqual(calls.map((c) => c.id).sort());
    const byId = new Map(parsed.data.map((row) => [row.call_id, row]));
    // A note a spreadsheet would run as a formula is neutralised, as in every export.
    expect(byId.get(calls[0]!.id)).toMatchObject({
      reviewed: 'yes',
      note: "'=cmd|calc",
      reviewer: 'Night shift',
    });
    expect(byId.get(calls[1]!.id)).toMatchObject({ reviewed: 'yes', flag_reason: 'Opt-out request' });
    expect(parsed.data.filter((row) => row.reviewed === 'no')).toHaveLength(23);
  }, 60_000);

  it('says what is wrong in one line: usage (2), an unknown campaign or workspace, a folder in use (1)', async () => {
    const out = join(data, 'other.csv');
    const usage = await run(['calls', 'qa-report', '--data', data, '--out', out]);
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim()).toBe(
      'campaign-desk calls: --campaign <bulk list id> is required (see campaign-desk calls --help)',
    );
    const unknown = await run(['calls', 'qa-report', '--data', data, '--campaign', 'bl-nope', '--out', out]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe(
      `campaign-desk calls qa-report: no calls of campaign bl-nope are stored in ${data} (sync first, or check the id)`,
    );
    expect(readdirSync(data)).not.toContain('other.csv'); // no empty report left behind
    const workspace = await run([
      'calls',
      'qa-report',
      '--data',
      data,
      '--campaign',
      CAMPAIGN,
      '--workspace',
      'Nope',
      '--out',
      out,
    ]);
    expect([workspace.code, workspace.stderr.trim()]).toEqual([
      1,
      `campaign-desk calls qa-report: no workspace named "Nope" in ${data}`,
    ]);
    const locked = dirs.make();
    writeFileSync(join(locked, LOCK_FILE_NAME), String(process.pid));
    const inUse = await run(['calls', 'qa-report', '--data', locked, '--campaign', CAMPAIGN, '--out', out]);
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toMatch(
      /^campaign-desk calls qa-report: Campaign Desk is already running with the data folder/,
    );
  }, 60_000);
});
