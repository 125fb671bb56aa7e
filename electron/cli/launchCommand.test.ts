// `campaign-desk launch`: which launch a run resumes (the resume key and the API key's account), a
// re-run after a refusal with corrected options, and the exit codes of a file that is not there.
// The CLI runs in its own process against the sandbox in its own process (real HTTP, real SQLite).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantToCampaignTime } from '../../shared/domain/dates.ts';
import { generateContacts } from '../../shared/testing/contactsGenerator.ts';
import { startSandboxProcess } from '../services/api/testing/sandboxProcess.ts';
import type { SandboxProcess } from '../services/api/testing/sandboxProcess.ts';
import {
  acceptedStarts,
  callsOfList,
  launchTarget,
  runCli,
  writeMessyContacts,
} from '../services/campaigns/testing.ts';
import { apiKeyFingerprint, launchKeyOf, legacyLaunchKeyOf } from './launch/launchKey.ts';

const apiKey = 'launch-cli-key-0123456789';
let sb: SandboxProcess;
let dir: string;
let agentId: string;
let poolId: string;
let small: { path: string; valid: number };

const maps = [
  ['callee_name', 'Name'],
  ['loan_amount', 'Loan Amount'],
  ['due_date', 'Due Date'],
  ['language', 'Language'],
  ['city', 'City'],
].flatMap(([v, c]) => ['--map', `${v}=${c}`]);

beforeAll(async () => {
  sb = await startSandboxProcess({ apiKey, seed: 11 });
  await sb.control('POST', '/workspace', { credits: 1_000_000 });
  dir = mkdtempSync(join(tmpdir(), 'desk-launch-cli-'));
  ({ agentId, poolId } = await launchTarget(sb, apiKey));
  small = { path: join(dir, 'small.csv'), ...writeMessyContacts(join(dir, 'small.csv'), 60, 5) };
}, 60_000);
afterAll(async () => {
  await sb?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The CLI's arguments of a launch as `launch()` builds them (for a run on a terminal). */
async function launchArgs(name: string, data: string): Promise<string[]> {
  const { now } = await sb.control<{ now: string }>('GET', '/clock');
  const from = Math.max(Date.parse(now), Date.now()) + 86_400_000;
  return [
    'launch',
    small.path,
    '--data',
    data,
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
    ...maps,
    '--start',
    instantToCampaignTime(from, 'Asia/Kolkata'),
    '--end',
    instantToCampaignTime(from + 20 * 86_400_000, 'Asia/Kolkata'),
    '--timezone',
    'Asia/Kolkata',
    '--remove-invalid',
  ];
}

/**
 * The CLI on a terminal (util-linux `script` gives it a pseudo-terminal): once it asks, `answer`
 * is typed. Returns the exit code and what the terminal showed.
 */
function onTerminal(args: string[], answer: string): Promise<{ code: number | null; screen: string }> {
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, fileURLToPath(new URL('./main.ts', import.meta.url)), ...args]
    .map(quote)
    .join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      env: { ...process.env, CAMPAIGN_DESK_API_KEY: apiKey, CAMPAIGN_DESK_TIMEOUT_MS: '3000' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let asked = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no answer in time: ${screen}`));
    }, 110_000);
    child.stdout.on('data', (d: Buffer) => {
      screen += d.toString();
      if (!asked && screen.includes('[y/N]')) {
        asked = true;
        child.stdin.write(`${answer}\r`);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      child.stdin.end();
      resolve({ code, screen });
    });
  });
}

async function launch(
  name: string,
  o: {
    data?: string;
    key?: string;
    baseUrl?: string;
    file?: string;
    extra?: string[];
    map?: boolean;
    yes?: boolean;
    startInDays?: number;
  } = {},
) {
  const { now } = await sb.control<{ now: string }>('GET', '/clock');
  const from = Math.max(Date.parse(now), Date.now()) + (o.startInDays ?? 1) * 86_400_000;
  const report = join(dir, `${name}.json`);
  const args = [
    'launch',
    o.file ?? small.path,
    '--data',
    o.data ?? join(dir, 'data'),
    '--base-url',
    o.baseUrl ?? sb.baseUrl,
    '--agent',
    agentId,
    '--name',
    name,
    '--pool',
    poolId,
    '--country',
    'IN',
    ...(o.map === false ? [] : maps),
    '--start',
    instantToCampaignTime(from, 'Asia/Kolkata'),
    '--end',
    instantToCampaignTime(from + 20 * 86_400_000, 'Asia/Kolkata'),
    '--timezone',
    'Asia/Kolkata',
    '--window',
    '00:00-00:00',
    '--remove-invalid',
    ...(o.yes === false ? [] : ['--yes']),
    '--report',
    report,
    ...(o.extra ?? []),
  ];
  const run = await runCli(args, {
    CAMPAIGN_DESK_API_KEY: o.key ?? apiKey,
    CAMPAIGN_DESK_TIMEOUT_MS: '3000',
  });
  return { ...run, report };
}

type Report = { id: string; status: string; steps: Array<{ step: string; outcome: string }> };
const readReport = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Report;

/** Every file under a folder, recursively. */
const filesUnder = (root: string): string[] =>
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((f) => join(root, f))
    .filter((f) => statSync(f).isFile());

describe('the resume key', () => {
  it('tells API keys apart by a fingerprint, never by the key itself', () => {
    const base = { workspaceId: 'url:http://127.0.0.1:4010/v0', fileSha256: 'ab'.repeat(32), name: 'Nov' };
    const a = launchKeyOf({ ...base, apiKey: 'sk-account-a' });
    expect(launchKeyOf({ ...base, apiKey: 'sk-account-a' })).toBe(a);
    expect(launchKeyOf({ ...base, apiKey: 'sk-account-b' })).not.toBe(a);
    expect(apiKeyFingerprint('sk-account-a')).toBe(
      createHash('sha256').update('sk-account-a').digest('hex').slice(0, 16),
    );
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toContain(apiKeyFingerprint('sk-account-a'));
  });

  it("another account's key runs its own launch, never resumes the first one's; a trailing / does resume", async () => {
    const data = join(dir, 'accounts');
    const first = await launch('accounts', { data });
    expect([first.code, first.stderr]).toEqual([0, '']);
    const id = first.stdout.trim();
    expect(await acceptedStarts(sb, id)).toBe(1);

    // Same command, file, name and data folder with another account's key (the sandbox knows only
    // its own key, so that account's launch is refused): the first account's campaign is not
    // reported as this one's.
    const other = await launch('accounts', { data, key: 'sk-another-account-9876543210' });
    expect(other.stdout).toBe('');
    expect(other.code, other.stderr).toBe(1);
    expect(other.stderr.trim().split('\n')).toHaveLength(1);
    expect(readReport(other.report)).toMatchObject({ status: 'failed', id: null });

    // The first account's key again, the base URL written with a trailing slash: resumed, not started again.
    const again = await launch('accounts', { data, baseUrl: `${sb.baseUrl}/` });
    expect([again.code, again.stdout.trim(), again.stderr]).toEqual([0, id, '']);
    expect(await acceptedStarts(sb, id)).toBe(1);
    expect(await callsOfList(sb, id)).toBe(small.valid);

    // Neither key (nor the first one's fingerprint) is written anywhere in the data folder.
    for (const file of filesUnder(data)) {
      const bytes = readFileSync(file);
      for (const secret of [apiKey, 'sk-another-account-9876543210', apiKeyFingerprint(apiKey)])
        expect(bytes.includes(Buffer.from(secret)), `${secret} found in ${file}`).toBe(false);
    }
  }, 120_000);

  it('a launch an older build recorded (resume key without the fingerprint) is resumed, not started again', async () => {
    const data = join(dir, 'older');
    const first = await launch('older', { data });
    expect([first.code, first.stderr]).toEqual([0, '']);
    const id = first.stdout.trim();
    // As the older build stored it: the key of workspace, file and name only.
    const db = new Database(join(data, 'campaign-desk.sqlite'));
    const legacy = legacyLaunchKeyOf({
      workspaceId: `url:${sb.baseUrl}`,
      fileSha256: createHash('sha256').update(readFileSync(small.path)).digest('hex'),
      name: 'older',
    });
    expect(db.prepare('UPDATE campaign_launches SET launch_key = ?').run(legacy).changes).toBe(1);
    db.close();

    const again = await launch('older', { data });
    expect([again.code, again.stdout.trim(), again.stderr]).toEqual([0, id, '']);
    expect(await acceptedStarts(sb, id)).toBe(1);
  }, 120_000);
});

describe('a re-run after a refusal', () => {
  it('uses the new options and a freshly cleaned upload: refused without --map, started with it', async () => {
    const data = join(dir, 'remap');
    const refused = await launch('remap', { data, map: false });
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^campaign-desk launch: .*variables_map/);
    expect(readReport(refused.report)).toMatchObject({ status: 'failed' });

    const fixed = await launch('remap', { data });
    expect([fixed.code, fixed.stderr]).toEqual([0, '']);
    const id = fixed.stdout.trim();
    expect(await acceptedStarts(sb, id)).toBe(1);
    expect(await callsOfList(sb, id)).toBe(small.valid);
    const report = readReport(fixed.report);
    expect(report).toMatchObject({ status: 'started', id });
    expect(report.steps.filter((s) => s.step === 'save').map((s) => s.outcome)).toEqual(['sent', 'ok']);

    // And from then on it is that launch that is resumed.
    const third = await launch('remap', { data });
    expect([third.code, third.stdout.trim()]).toEqual([0, id]);
    expect(await acceptedStarts(sb, id)).toBe(1);
  }, 120_000);

  it('a launch over the credits is refused before the save, with both figures; with credits the same command saves and starts', async () => {
    const data = join(dir, 'credits');
    const listing = async () =>
      (
        (await (
          await fetch(`${sb.baseUrl}/campaign/all?limit=1`, { headers: { 'x-api-key': apiKey } })
        ).json()) as { pagination: { total: number } }
      ).pagination.total;
    const lists = await listing();
    await sb.control('POST', '/workspace', { credits: 1 });
    try {
      const short = await launch('credits', { data });
      expect(short.code, short.stderr).toBe(1);
      expect(short.stderr).toContain(
        `Not enough credits: this campaign needs ${small.valid} credits (one a call) and the workspace has 1.`,
      );
      expect(readReport(short.report).steps.map((s) => `${s.step}:${s.outcome}`)).toEqual([
        'balance:refused',
      ]);
      expect(await listing()).toBe(lists); // nothing uploaded

      await sb.control('POST', '/workspace', { credits: 1_000_000 });
      const again = await launch('credits', { data });
      expect([again.code, again.stderr]).toEqual([0, '']);
      const id = again.stdout.trim();
      const steps = readReport(again.report).steps.map((s) => `${s.step}:${s.outcome}`);
      expect(steps.filter((s) => s === 'save:ok')).toHaveLength(1);
      expect(await acceptedStarts(sb, id)).toBe(1);
      expect(await callsOfList(sb, id)).toBe(small.valid);
    } finally {
      await sb.control('POST', '/workspace', { credits: 1_000_000 });
    }
  }, 120_000);
});

describe('the confirmation before calls go out', () => {
  it('off a terminal without --yes: the summary, exit 2 naming --yes, nothing sent or recorded; with --yes it starts', async () => {
    const data = join(dir, 'confirm');
    const before = await sb.control<{ start_attempts: unknown[] }>('GET', '/stats?deliveries_limit=0');
    const refused = await launch('confirm', { data, yes: false });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim()).toMatch(/^campaign-desk launch: stdin is not a terminal: add --yes/);
    expect(refused.summary).toContain(`Calls to place:    ${small.valid.toLocaleString('en-US')}`);
    expect(refused.summary).toContain('Campaign:          confirm');
    expect(refused.summary).toMatch(/Credits: +\d[\d,]* needed, 1,000,000 available/);
    expect(refused.summary).toMatch(/Window: +00:00–00:00 daily \(Asia\/Kolkata\)/);
    expect(refused.summary).toContain(`Caller numbers:    number pool ${poolId}`);
    expect(refused.summary).toContain(
      `Agent:             Loan Repayment Reminder (${agentId}), active version`,
    );
    expect(refused.summary).toContain(
      'Overlaps:          none in campaigns running or run in the last 7 days',
    );
    const after = await sb.control<{ start_attempts: unknown[] }>('GET', '/stats?deliveries_limit=0');
    expect(after.start_attempts).toEqual(before.start_attempts);
    const db = new Database(join(data, 'campaign-desk.sqlite'), { readonly: true });
    expect(db.prepare('SELECT count(*) FROM campaign_launches').pluck().get()).toBe(0);
    db.close();

    const started = await launch('confirm', { data });
    expect([started.code, started.stderr]).toEqual([0, '']);
    expect(started.summary).toContain(`Calls to place:    ${small.valid.toLocaleString('en-US')}`);
    expect(await acceptedStarts(sb, started.stdout.trim())).toBe(1);
  }, 120_000);

  it('on a terminal it asks "Start N calls? [y/N]": "n" sends nothing and records nothing, "y" starts', async () => {
    const data = join(dir, 'terminal');
    const attempts = async () =>
      (await sb.control<{ start_attempts: unknown[] }>('GET', '/stats?deliveries_limit=0')).start_attempts
        .length;
    const before = await attempts();
    const no = await onTerminal(await launchArgs('terminal', data), 'n');
    expect(no.screen).toContain(`Calls to place:    ${small.valid.toLocaleString('en-US')}`);
    expect(no.screen).toContain(`Start ${small.valid.toLocaleString('en-US')} calls? [y/N]`);
    expect(no.screen).toMatch(/not started: the calls were not confirmed \(nothing was sent\)/);
    expect(no.code).toBe(1);
    expect(await attempts()).toBe(before);
    const db = new Database(join(data, 'campaign-desk.sqlite'), { readonly: true });
    expect(db.prepare('SELECT count(*) FROM campaign_launches').pluck().get()).toBe(0);
    db.close();
    const yes = await onTerminal(await launchArgs('terminal', data), 'y');
    expect(yes.code, yes.screen).toBe(0);
    expect(await attempts()).toBe(before + 1);
  }, 240_000);

  it('a campaign launched once is not launched again: the same command with another start resumes it, starts nothing', async () => {
    const data = join(dir, 'once');
    const first = await launch('once', { data });
    expect(first.code, first.stderr).toBe(0);
    const id = first.stdout.trim();
    const again = await launch('once', { data, startInDays: 3, extra: ['--concurrency', '20'] });
    expect([again.code, again.stdout.trim(), again.stderr, again.summary]).toEqual([0, id, '', '']);
    expect(await acceptedStarts(sb, id)).toBe(1);
  }, 120_000);
});

describe('the summary names who is called again', () => {
  it('counts the contacts of the file also in campaigns of --data running or run in the last 7 days, as the app does', async () => {
    const data = join(dir, 'overlaps');
    const first = await launch('overlap first', { data });
    expect(first.code, first.stderr).toBe(0);
    const second = await launch('overlap second', { data, yes: false });
    expect(second.code).toBe(2);
    const n = small.valid.toLocaleString('en-US');
    expect(second.summary).toContain(
      `Overlaps:          ${n} contacts are also in overlap first (${n}), running or run in the last 7 days`,
    );
    expect(second.summary).toContain(
      `Agent:             Loan Repayment Reminder (${agentId}), active version`,
    );
  }, 120_000);
});

describe('permitted calling hours', () => {
  // launch() asks for the window 00:00-00:00 (all day): outside India's hours for promotional calls.
  const warning =
    /calling hours: The daily window all day is outside the hours India permits for promotional calls: 09:00–21:00 local time under TRAI/;

  it("--purpose promotional outside 09:00–21:00: the app's warning; off a terminal exit 2 naming --accept-hours, nothing cleaned or sent", async () => {
    const data = join(dir, 'hours');
    const before = await sb.control<{ start_attempts: unknown[] }>('GET', '/stats?deliveries_limit=0');
    const refused = await launch('hours', { data, extra: ['--purpose', 'promotional'] });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(warning);
    expect(refused.stderr).toMatch(/stdin is not a terminal: add --accept-hours/);
    expect(refused.summary).toBe('');
    const after = await sb.control<{ start_attempts: unknown[] }>('GET', '/stats?deliveries_limit=0');
    expect(after.start_attempts).toEqual(before.start_attempts);

    // Acknowledged: the summary repeats the warning (here it stops at the missing --yes).
    const acknowledged = await launch('hours', {
      data,
      yes: false,
      extra: ['--purpose', 'promotional', '--accept-hours'],
    });
    expect(acknowledged.code).toBe(2);
    expect(acknowledged.stderr).toMatch(/add --yes/);
    expect(acknowledged.summary).toMatch(
      /Calling hours: +The daily window all day is outside the hours India permits/,
    );

    // Inside the hours (09:00-21:00 IST) there is nothing to acknowledge.
    const inside = await launch('hours', {
      data,
      yes: false,
      extra: ['--purpose', 'promotional', '--window', '09:00-21:00'],
    });
    expect(inside.stderr).not.toMatch(/calling hours/);
    expect(inside.summary).not.toContain('Calling hours:');
  }, 120_000);

  it('on a terminal it asks; "n" sends nothing (exit 1); an unknown purpose is bad usage naming the choices', async () => {
    const data = join(dir, 'hours-terminal');
    const no = await onTerminal(
      [...(await launchArgs('hours-terminal', data)), '--purpose', 'promotional'],
      'n',
    );
    expect(no.screen).toMatch(/outside the hours India permits for promotional calls/);
    expect(no.screen).toContain('Call at these hours anyway? [y/N]');
    expect(no.screen).toMatch(/not started: the calling hours were not confirmed \(nothing was sent\)/);
    expect(no.code).toBe(1);
    const bad = await launch('hours-bad', { data, extra: ['--purpose', 'marketing'] });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--purpose must be one of promotional, loan-recovery, other (got "marketing")',
    );
  }, 120_000);
});

describe('launch exit codes', () => {
  it('a file that is not there: exit 1, one line naming it, nothing launched', async () => {
    const missing = join(dir, 'no-such-file.csv');
    const run = await launch('missing', { data: join(dir, 'missing'), file: missing });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toBe(`campaign-desk launch: ${missing}: file not found`);
  }, 60_000);

  it('an encoding guessed with low confidence: exit 1, one line saying so, nothing uploaded (issue 25)', async () => {
    const file = join(dir, 'cyrillic.csv');
    writeFileSync(file, generateContacts({ rows: 60, seed: 2, encoding: 'windows-1251' }).bytes);
    const starts = async () =>
      (await sb.control<{ starts: unknown[] }>('GET', '/stats?deliveries_limit=0')).starts.length;
    const before = await starts();
    const run = await launch('cyrillic', { data: join(dir, 'cyrillic'), file });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim()).toMatch(
      /^campaign-desk launch: .*cyrillic\.csv: not launched: the encoding is not UTF-8: detected as .+ with low confidence/,
    );
    expect(await starts()).toBe(before);
  }, 60_000);
});
