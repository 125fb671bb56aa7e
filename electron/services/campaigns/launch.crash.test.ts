// Acceptance (integration, real HTTP against the sandbox in its own process, the real CLI in a child
// process, a real SQLite file): the launch is killed with SIGKILL right after each step is written
// (CAMPAIGN_DESK_TEST_CRASH_AFTER) and run again, and the start request meets a timeout, a reset, a
// cut body and a 5xx. Every time the sandbox accepted exactly one start for the list and there is
// one call per valid row.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantToCampaignTime } from '../../../shared/domain/dates.ts';
import { startSandboxProcess } from '../api/testing/sandboxProcess.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { acceptedStarts, callsOfList, launchTarget, runCli, writeMessyContacts } from './testing.ts';

const apiKey = 'launch-test-key-0123456789';
let sb: SandboxProcess;
let dir: string;
let agentId: string;
let poolId: string;
let small: { path: string; valid: number };
let large: { path: string; valid: number };

beforeAll(async () => {
  sb = await startSandboxProcess({ apiKey, seed: 9 });
  await sb.control('POST', '/clock', { speed: 20 }); // upload processing moves on the virtual clock
  await sb.control('POST', '/workspace', { credits: 1_000_000 });
  dir = mkdtempSync(join(tmpdir(), 'desk-launch-'));
  ({ agentId, poolId } = await launchTarget(sb, apiKey));
  small = { path: join(dir, 'small.csv'), ...writeMessyContacts(join(dir, 'small.csv'), 60, 3) };
  large = { path: join(dir, 'large.csv'), ...writeMessyContacts(join(dir, 'large.csv'), 6_000, 4) };
}, 60_000);
afterAll(async () => {
  await sb?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const window = async () => {
  const { now } = await sb.control<{ now: string }>('GET', '/clock');
  const at = Date.parse(now);
  // Real now can be behind the virtual clock: start a day after both.
  const from = Math.max(at, Date.now()) + 86_400_000;
  return {
    start: instantToCampaignTime(from, 'Asia/Kolkata'),
    end: instantToCampaignTime(from + 20 * 86_400_000, 'Asia/Kolkata'),
  };
};

async function launch(file: string, name: string, env: Record<string, string> = {}, extra: string[] = []) {
  const { start, end } = await window();
  const report = join(dir, `${name}.json`);
  const args = [
    'launch',
    file,
    '--data',
    join(dir, 'data'),
    '--base-url',
    sb.baseUrl,
    '--agent',
    agentId,
    '--name',
    name,
    '--pool',
    poolId,
    '--country',
    'IN',
    '--map',
    'callee_name=Name',
    '--map',
    'loan_amount=Loan Amount',
    '--map',
    'due_date=Due Date',
    '--map',
    'language=Language',
    '--map',
    'city=City',
    '--start',
    start,
    '--end',
    end,
    '--timezone',
    'Asia/Kolkata',
    '--window',
    '00:00-00:00',
    '--remove-invalid',
    '--yes',
    '--report',
    report,
    ...extra,
  ];
  const run = await runCli(args, { CAMPAIGN_DESK_API_KEY: apiKey, CAMPAIGN_DESK_TIMEOUT_MS: '3000', ...env });
  return { ...run, report };
}

async function expectStartedOnce(id: string, valid: number) {
  expect(await acceptedStarts(sb, id)).toBe(1);
  expect(await callsOfList(sb, id)).toBe(valid);
}

describe('launch (standard flow, 60 rows) killed after every step, then run again', () => {
  it.each(['save:sent', 'save:ok', 'start:sent', 'start:ok'])(
    'after %s: one accepted start and one call per valid row',
    async (point) => {
      const name = `std ${point}`;
      const crashed = await launch(small.path, name, { CAMPAIGN_DESK_TEST_CRASH_AFTER: point });
      expect(crashed.signal).toBe('SIGKILL');
      const again = await launch(small.path, name);
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      const id = again.stdout.trim();
      await expectStartedOnce(id, small.valid);
      const report = JSON.parse(readFileSync(again.report, 'utf8')) as Record<string, unknown>;
      expect(report).toMatchObject({
        flow: 'standard',
        id,
        status: 'started',
        valid: small.valid,
        invalid: 60 - small.valid,
      });
      // A third run resumes the finished launch: the same id, no new start.
      const third = await launch(small.path, name);
      expect([third.code, third.stdout.trim()]).toEqual([0, id]);
      await expectStartedOnce(id, small.valid);
    },
    120_000,
  );
});

describe('launch (large flow, 6,000 rows) killed after every step, then run again', () => {
  it.each([
    'upload:sent',
    'upload:ok',
    'upload-status:ok',
    'balance:sent',
    'balance:ok',
    'make-call-async:sent',
    'make-call-async:ok',
  ])(
    'after %s: one accepted start and one call per valid row',
    async (point) => {
      const name = `large ${point}`;
      const crashed = await launch(large.path, name, { CAMPAIGN_DESK_TEST_CRASH_AFTER: point });
      expect(crashed.signal).toBe('SIGKILL');
      const again = await launch(large.path, name);
      expect([again.code, again.stderr]).toEqual([0, '']);
      const id = again.stdout.trim();
      await expectStartedOnce(id, large.valid);
      const report = JSON.parse(readFileSync(again.report, 'utf8')) as { steps: Array<{ step: string }> };
      expect(report).toMatchObject({ flow: 'large', id, status: 'started', valid: large.valid });
      // Reused the list the service had: one upload answered, whatever the crash point.
      const uploads = report.steps.filter(
        (s) => s.step === 'upload' && (s as { outcome?: string }).outcome === 'ok',
      );
      expect(uploads).toHaveLength(1);
    },
    120_000,
  );
});

describe('the start request meets a timeout, a reset, a cut body and a 5xx', () => {
  // The standard flow's pool start is POST /campaign/v2/start; the large flow's make-call-async.
  it.each([
    { kind: 'latency', latency_ms: 5_000, label: 'timeout (answered late)' },
    { kind: 'drop', label: 'connection reset' },
    { kind: 'truncate', label: 'cut body' },
    { kind: 'error', status: 503, label: '5xx' },
  ])(
    '$label on the start: one accepted start and one call per valid row',
    async ({ label, ...fault }) => {
      await sb.control('POST', '/faults', {
        path: '/v0/campaign/v2/start',
        method: 'POST',
        max_count: 1,
        ...fault,
      });
      try {
        const run = await launch(small.path, `fault ${label}`);
        expect([run.code, run.stderr]).toEqual([0, '']);
        const id = run.stdout.trim();
        await expectStartedOnce(id, small.valid);
        const report = JSON.parse(readFileSync(run.report, 'utf8')) as {
          steps: Array<{ step: string; outcome: string }>;
        };
        expect(report.steps.some((s) => s.step === 'start' && s.outcome === 'ambiguous')).toBe(true);
        expect(report.steps.some((s) => s.step === 'verify-start')).toBe(true);
      } finally {
        await sb.control('DELETE', '/faults');
      }
    },
    120_000,
  );

  it('a cut body on make-call-async (large flow): one accepted start', async () => {
    await sb.control('POST', '/faults', {
      path: '/v0/campaign/make-call-async',
      method: 'POST',
      max_count: 1,
      kind: 'truncate',
    });
    try {
      const run = await launch(large.path, 'fault large cut body');
      expect([run.code, run.stderr]).toEqual([0, '']);
      await expectStartedOnce(run.stdout.trim(), large.valid);
    } finally {
      await sb.control('DELETE', '/faults');
    }
  }, 120_000);
});

describe('launch exit codes', () => {
  it('exits 75 when the service is unreachable, and a re-run resumes and starts once', async () => {
    await sb.control('POST', '/faults', {
      path: '/v0/campaign/save',
      method: 'POST',
      max_count: 10,
      kind: 'drop',
    });
    try {
      const first = await launch(small.path, 'exit unreachable');
      expect(first.code, first.stderr).toBe(75);
      expect(first.stderr.trim().split('\n')).toHaveLength(1);
      expect(first.stderr).toMatch(/run the same command again/);
      await sb.control('DELETE', '/faults');
      const again = await launch(small.path, 'exit unreachable');
      expect([again.code, again.stderr]).toEqual([0, '']);
      await expectStartedOnce(again.stdout.trim(), small.valid);
    } finally {
      await sb.control('DELETE', '/faults');
    }
  }, 120_000);

  it('exits 1 with the service refusal in one line', async () => {
    const run = await launch(small.path, 'exit refused', {}, []);
    expect(run.code).toBe(0); // control: the same file and settings start
    const refused = await runCli(
      [
        'launch',
        small.path,
        '--data',
        join(dir, 'data'),
        '--base-url',
        sb.baseUrl,
        '--agent',
        'no-such-agent',
        '--name',
        'exit refused 2',
        '--pool',
        poolId,
        '--country',
        'IN',
        '--map',
        'callee_name=Name',
        '--start',
        (await window()).start,
        '--end',
        (await window()).end,
        '--timezone',
        'Asia/Kolkata',
        '--remove-invalid',
        '--yes',
      ],
      { CAMPAIGN_DESK_API_KEY: apiKey },
    );
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n'), refused.stderr).toHaveLength(1);
    expect(refused.stderr).toMatch(/^campaign-desk launch: .*agent/i);
  }, 120_000);
});

describe('when the service cannot tell whether the start happened', () => {
  it('leaves the launch for the operator: exit 3 (not the refusal code 1) saying so, no second start on a re-run', async () => {
    await sb.control('POST', '/faults', {
      faults: [
        { path: '/v0/campaign/v2/start', method: 'POST', max_count: 1, kind: 'drop' },
        { path: '/v0/campaign/all', method: 'GET', kind: 'error', status: 500 },
        { path: '/v0/calling/history', method: 'GET', kind: 'error', status: 500 },
      ],
    });
    try {
      const first = await launch(small.path, 'cannot tell');
      expect(first.code, first.stderr).toBe(3);
      expect(first.stderr).toMatch(
        /^campaign-desk launch: The service cannot tell whether this campaign started/,
      );
      const report = JSON.parse(readFileSync(first.report, 'utf8')) as { id: string; status: string };
      expect(report.status).toBe('needs-decision');
      await sb.control('DELETE', '/faults');
      const again = await launch(small.path, 'cannot tell');
      expect(again.code).toBe(3);
      expect(await acceptedStarts(sb, report.id)).toBe(0); // the dropped start never reached the service
    } finally {
      await sb.control('DELETE', '/faults');
    }
  }, 120_000);
});
