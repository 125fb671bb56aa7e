// `clean --suppress` and `--workspace`, as the operator runs them: the CLI as a child process, a
// do-not-call file as CSV (Windows-1252, semicolons, national numbers) and as .xlsx, and an app
// data folder whose workspace and shared lists hold more numbers; `launch --suppress` against a
// sandbox process, whose record of what it received holds none of the held-back numbers.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantToCampaignTime } from '../../shared/domain/dates.ts';
import { xlsxBytes } from '../../shared/testing/xlsxWriter.ts';
import { startSandboxProcess } from '../services/api/testing/sandboxProcess.ts';
import type { SandboxProcess } from '../services/api/testing/sandboxProcess.ts';
import { launchTarget, runCli } from '../services/campaigns/testing.ts';
import { openDbClient } from '../services/db/client.ts';

const cli = fileURLToPath(new URL('./main.ts', import.meta.url));
let dir = '';
const run = (args: string[]) => {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const contacts = () => {
  const path = join(dir, 'contacts.csv');
  const rows = Array.from({ length: 10 }, (_, i) => `+91 98765 0000${i},Customer ${i}`);
  writeFileSync(path, `Mobile Number,Name\n${rows.join('\n')}\n`);
  return path;
};
const outputs = (name: string) => ({
  out: join(dir, `${name}-upload.csv`),
  rejects: join(dir, `${name}-rejects.csv`),
  report: join(dir, `${name}-report.json`),
});
const cleanArgs = (o: ReturnType<typeof outputs>) => [
  'clean',
  contacts(),
  '--country',
  'IN',
  '--out',
  o.out,
  '--rejects',
  o.rejects,
  '--report',
  o.report,
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'desk-cli-suppress-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('clean --suppress', () => {
  it('holds back the numbers of a CSV do-not-call file (legacy encoding, semicolons, national numbers), counted per reason', () => {
    const dnc = join(dir, 'dnc.csv');
    // "Café" in Windows-1252: the engine decodes it as it would a contact list.
    writeFileSync(
      dnc,
      Buffer.from(
        'Phone;Note;reason\r\n9876500001;Caf\xe9;complaint\r\n098765 00004;x;\r\n12345;bad;manual\r\n',
        'latin1',
      ),
    );
    const o = outputs('csv');
    const r = run([...cleanArgs(o), '--suppress', dnc]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2 held back (do-not-call): complaint 1, imported 1');
    const upload = readFileSync(o.out, 'utf8');
    expect(upload).not.toContain('+919876500001');
    expect(upload).not.toContain('+919876500004');
    expect(upload.trim().split('\n')).toHaveLength(9);
    const report = JSON.parse(readFileSync(o.report, 'utf8')) as { suppressed: unknown };
    expect(report.suppressed).toEqual({ total: 2, by_reason: { complaint: 1, imported: 1 } });
  });

  it('reads an .xlsx do-not-call file', () => {
    const dnc = join(dir, 'dnc.xlsx');
    writeFileSync(
      dnc,
      xlsxBytes({
        sheets: [
          {
            name: 'DNC',
            rows: [
              ['Mobile Number', 'reason'],
              ['+919876500007', 'opted_out'],
            ],
          },
        ],
      }),
    );
    const o = outputs('xlsx');
    const r = run([...cleanArgs(o), '--suppress', dnc]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 held back (do-not-call): opted_out 1');
    expect(readFileSync(o.out, 'utf8')).not.toContain('+919876500007');
  });

  it("applies a workspace's list and the shared list from the data folder with --workspace", async () => {
    const data = join(dir, 'data');
    mkdirSync(data);
    const db = await openDbClient({ file: join(data, 'campaign-desk.sqlite'), readLane: false });
    try {
      for (const [id, name] of [
        ['w1', 'Production'],
        ['w2', 'Other'],
      ] as const)
        await db.call('workspaces.insert', {
          id,
          name,
          baseUrl: 'https://api.example.com/v0',
          isSandbox: false,
          secretStorage: 'keychain',
        });
      const entry = (e164: number) => ({
        e164,
        reason: 'opted_out' as const,
        sources: [],
        addedBy: 't',
        addedAt: '2026-11-01T00:00:00.000Z',
        expiresAt: null,
      });
      await db.call('suppression.add', { workspaceId: 'w1', entries: [entry(919876500002)] });
      await db.call('suppression.add', { workspaceId: '', entries: [entry(919876500003)] });
      await db.call('suppression.add', { workspaceId: 'w2', entries: [entry(919876500005)] });
    } finally {
      await db.close();
    }
    const o = outputs('ws');
    const r = run([...cleanArgs(o), '--workspace', 'production', '--data', data]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2 held back (do-not-call): opted_out 2');
    const upload = readFileSync(o.out, 'utf8');
    expect(upload).not.toContain('+919876500002');
    expect(upload).not.toContain('+919876500003');
    expect(upload).toContain('+919876500005');

    const missing = run([...cleanArgs(outputs('missing')), '--workspace', 'Nope', '--data', data]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(`campaign-desk: no workspace named "Nope" in ${data}`);
    const alone = run([...cleanArgs(outputs('alone')), '--workspace', 'Production']);
    expect(alone.code).toBe(2);
  });
});

describe('launch --suppress', () => {
  let sb: SandboxProcess;
  beforeAll(async () => {
    sb = await startSandboxProcess({ apiKey: 'suppress-cli-key-0123456789', seed: 12 });
    await sb.control('POST', '/workspace', { credits: 1_000_000 });
  }, 60_000);
  afterAll(async () => {
    await sb?.stop();
  });

  it("holds back the file's numbers and the shared list of the data folder: the summary counts them and the service never receives them", async () => {
    const { agentId, poolId } = await launchTarget(sb, sb.apiKey);
    const list = join(dir, 'launch.csv');
    const numbers = Array.from({ length: 6 }, (_, i) => `98765111${String(i).padStart(2, '0')}`);
    writeFileSync(
      list,
      `Phone,Name,Loan Amount,Due Date,Language,City\n${numbers.map((n, i) => `${n},C ${i},5000,15/12/2026,Hindi,Pune`).join('\n')}\n`,
    );
    const dnc = join(dir, 'launch-dnc.csv');
    writeFileSync(dnc, `Mobile Number,reason\n+91${numbers[1]},opted_out\n`);
    const data = join(dir, 'launch-data');
    mkdirSync(data);
    const db = await openDbClient({ file: join(data, 'campaign-desk.sqlite'), readLane: false });
    await db.call('suppression.add', {
      workspaceId: '',
      entries: [
        {
          e164: Number(`91${numbers[4]}`),
          reason: 'complaint',
          sources: [],
          addedBy: 't',
          addedAt: '2026-11-01T00:00:00.000Z',
          expiresAt: null,
        },
      ],
    });
    await db.close();
    const { now } = await sb.control<{ now: string }>('GET', '/clock');
    const from = Math.max(Date.parse(now), Date.now()) + 86_400_000;
    const maps = [
      ['callee_name', 'Name'],
      ['loan_amount', 'Loan Amount'],
      ['due_date', 'Due Date'],
      ['language', 'Language'],
      ['city', 'City'],
    ].flatMap(([v, c]) => ['--map', `${v}=${c}`]);
    const r = await runCli(
      [
        'launch',
        list,
        '--data',
        data,
        '--base-url',
        sb.baseUrl,
        '--agent',
        agentId,
        '--name',
        'Held back',
        '--pool',
        poolId,
        '--country',
        'IN',
        ...maps,
        '--start',
        instantToCampaignTime(from, 'Asia/Kolkata'),
        '--end',
        instantToCampaignTime(from + 5 * 86_400_000, 'Asia/Kolkata'),
        '--timezone',
        'Asia/Kolkata',
        '--suppress',
        dnc,
        '--yes',
      ],
      { CAMPAIGN_DESK_API_KEY: sb.apiKey },
    );
    expect(r.stderr).toContain('2 held back (do-not-call): opted_out 1, complaint 1');
    expect(r.summary).toContain('Calls to place:    4');
    expect(r.summary).toContain('Held back:         2 on the do-not-call list');
    expect(r.code).toBe(0);
    const received = await sb.control<{ lists: { campaign_name: string; numbers: string[] }[] }>(
      'GET',
      '/received',
    );
    const got = received.lists.find((l) => l.campaign_name === 'Held back')!.numbers;
    expect(got.sort()).toEqual([0, 2, 3, 5].map((i) => `+91${numbers[i]}`));
  }, 120_000);
});
