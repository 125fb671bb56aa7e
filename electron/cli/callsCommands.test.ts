// `campaign-desk sync` and `calls export` as child processes against the real sandbox over HTTP:
// exit codes, the report, the CSV, one-line errors, and a sync killed mid-pass that resumes.
import { spawn } from 'node:child_process';
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxProcess } from '../services/api/testing/sandboxProcess.ts';
import { formatCount } from '../../shared/domain/formatCount.ts';
import { createDesk } from '../services/createDesk.ts';
import { LOCK_FILE_NAME } from '../services/dataDirLock.ts';
import { defaultSyncPolicy } from '../services/sync/syncPolicy.ts';
import { startSyncSandbox } from '../services/sync/testing.ts';

const cli = fileURLToPath(new URL('./main.ts', import.meta.url));
const HOUR = 3_600_000;
let sandbox: SandboxProcess;
let dir = '';
let seeded = 0;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
function run(
  args: string[],
  env: Record<string, string> = {},
  killWhen?: (stdout: string, stderr: string) => boolean,
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const check = () => {
      if (killWhen && child.exitCode === null && killWhen(stdout, stderr)) child.kill('SIGKILL');
    };
    child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), check()));
    child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), check()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  sandbox = await startSyncSandbox();
  const now = Date.now();
  const a = await sandbox.control<{ created: number }>('POST', '/seed-calls', { count: 30_000 });
  const b = await sandbox.control<{ created: number }>('POST', '/seed-calls', {
    count: 40,
    start_date: new Date(now - 3 * HOUR).toISOString(),
    end_date: new Date(now - 2 * HOUR).toISOString(),
  });
  seeded = a.created + b.created;
  dir = mkdtempSync(join(tmpdir(), 'desk-cli-sync-'));
}, 120_000);
afterAll(async () => {
  await sandbox?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('campaign-desk sync and calls export', () => {
  it('refuses bad usage and a missing key with one line, and stops on a rejected key', async () => {
    const data = join(dir, 'bad');
    const none = await run(['sync', '--data', data]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    const noKey = await run(['sync', '--data', data, '--base-url', sandbox.baseUrl], {
      CAMPAIGN_DESK_API_KEY: '',
    });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/CAMPAIGN_DESK_API_KEY/);
    const wrong = await run(['sync', '--data', data, '--base-url', sandbox.baseUrl, '--no-recordings'], {
      CAMPAIGN_DESK_API_KEY: 'sk-not-the-key',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(/key rejected/);
    expect(wrong.stderr).not.toContain('sk-not-the-key');
  }, 60_000);

  it('a mistyped option or a stray argument is bad usage: exit 2, one line, no internal error', async () => {
    const data = join(dir, 'usage');
    const cases: Array<[string[], RegExp]> = [
      [['sync', '--data', data, '--frobnicate'], /^campaign-desk sync: Unknown option '--frobnicate'/],
      [['sync', '--data'], /^campaign-desk sync: Option '--data <value>' argument missing/],
      [
        ['sync', '--data', data, '--base-url', sandbox.baseUrl, 'extra'],
        /^campaign-desk sync: Unexpected argument 'extra'/,
      ],
      [
        ['calls', 'export', '--data', data, '--out', join(dir, 'x.csv'), '--stauts', 'completed'],
        /^campaign-desk calls: Unknown option '--stauts'/,
      ],
      [
        ['calls', 'export', '--data', data, '--out'],
        /^campaign-desk calls: Option '--out <value>' argument missing/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await run(args, { CAMPAIGN_DESK_API_KEY: sandbox.apiKey });
      expect([r.code, r.stdout], args.join(' ')).toEqual([2, '']);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/\(see campaign-desk (sync|calls) --help\)$/m);
      expect(r.stderr).not.toMatch(/internal error/);
    }
  }, 60_000);

  it('a data folder in use by the app (or another command): exit 1 saying so, the lock left alone', async () => {
    const data = join(dir, 'in-use');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, LOCK_FILE_NAME), String(process.pid)); // this (live) process holds it
    const synced = await run(['sync', '--data', data, '--base-url', sandbox.baseUrl, '--no-recordings'], {
      CAMPAIGN_DESK_API_KEY: sandbox.apiKey,
    });
    const exported = await run(['calls', 'export', '--data', data, '--out', join(dir, 'in-use.csv')]);
    for (const [r, command] of [
      [synced, 'sync'],
      [exported, 'calls export'],
    ] as const) {
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr.trim()).toBe(
        `campaign-desk ${command}: Campaign Desk is already running with the data folder ${data} (process ${process.pid}). Use that window, close it first, or choose another data folder.`,
      );
    }
    expect(readFileSync(join(data, LOCK_FILE_NAME), 'utf8')).toBe(String(process.pid));
  }, 60_000);

  it('sync --report replaces the report whole (temporary file + rename); one that cannot be written is said beside the sync result', async () => {
    const data = join(dir, 'reported');
    const since = new Date(Date.now() - 4 * HOUR).toISOString();
    const env = { CAMPAIGN_DESK_API_KEY: sandbox.apiKey };
    const folder = join(dir, 'reports');
    mkdirSync(folder, { recursive: true });
    const report = join(folder, 'sync.json');
    writeFileSync(report, '{"old":true}\n');
    // A second name for the old file: written in place, it would change too; replaced, it keeps the old bytes.
    linkSync(report, join(folder, 'old.json'));
    const before = statSync(report).ino;
    const syncReportingTo = (path: string) =>
      run(
        [
          'sync',
          '--data',
          data,
          '--base-url',
          sandbox.baseUrl,
          '--since',
          since,
          '--no-recordings',
          '--report',
          path,
        ],
        env,
      );
    const ok = await syncReportingTo(report);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    const figures = JSON.parse(readFileSync(report, 'utf8')) as { calls: number };
    expect(figures.calls).toBeGreaterThanOrEqual(40);
    expect(statSync(report).ino).not.toBe(before);
    expect(readFileSync(join(folder, 'old.json'), 'utf8')).toBe('{"old":true}\n');
    expect(readdirSync(folder).sort()).toEqual(['old.json', 'sync.json']);

    // The report's folder does not exist: the sync still ran and says so, and says the report was not written.
    const missing = join(dir, 'no-such-folder', 'sync.json');
    const failed = await syncReportingTo(missing);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(new RegExp(`^Synced ${formatCount(figures.calls)} calls \\(0 new, `));
    expect(failed.stderr.trim()).toBe(
      `campaign-desk sync: the report was not written: ${missing}: cannot write it (its folder does not exist)`,
    );
  }, 120_000);

  it('killed mid-sync, resumes on the next run and stores every call once, each searchable; saves recordings; writes the report and the CSV, also by --search', async () => {
    const data = join(dir, 'data');
    const report = join(dir, 'sync.json');
    const env = { CAMPAIGN_DESK_API_KEY: sandbox.apiKey };
    const since = new Date(Date.now() - 31 * 24 * HOUR).toISOString();
    // Killed (SIGKILL, no cleanup) once its first windows are committed, watched in the SQLite file.
    const child = spawn(
      process.execPath,
      [cli, 'sync', '--data', data, '--base-url', sandbox.baseUrl, '--since', since, '--no-recordings'],
      {
        env: { ...process.env, ...env },
        stdio: 'ignore',
      },
    );
    const closed = new Promise((r) => child.on('close', r));
    const deadline = Date.now() + 120_000;
    while (child.exitCode === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      try {
        const db = new Database(join(data, 'campaign-desk.sqlite'), { readonly: true, fileMustExist: true });
        try {
          const pass = db.prepare(`SELECT pass FROM call_sync`).pluck().get() as string | undefined;
          const p = pass ? (JSON.parse(pass) as { fromMs: number; cursorMs: number }) : null;
          const stored = db.prepare(`SELECT count(*) FROM calls`).pluck().get() as number;
          if (p && p.cursorMs > p.fromMs && stored > 0) {
            child.kill('SIGKILL');
            break;
          }
        } finally {
          db.close();
        }
      } catch {
        // Not created or migrated yet.
      }
    }
    await closed;
    expect(child.signalCode).toBe('SIGKILL');
    const after = new Database(join(data, 'campaign-desk.sqlite'), { readonly: true });
    const partial = after.prepare(`SELECT count(*) FROM calls`).pluck().get() as number;
    after.close();
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(seeded);
    const resumed = await run(
      ['sync', '--data', data, '--base-url', sandbox.baseUrl, '--report', report],
      env,
    );
    expect(resumed.code).toBe(0);
    const figures = JSON.parse(readFileSync(report, 'utf8')) as {
      calls: number;
      inserted: number;
      updated: number;
      pages: number;
      retries: number;
      recordings: { saved: number; expired: number; failed: number };
    };
    expect(figures.calls).toBe(seeded);
    expect(figures.pages).toBeGreaterThan(0);
    expect(figures.recordings.saved).toBeGreaterThan(0);
    expect(figures.recordings.failed).toBe(0);
    expect(Object.keys(figures)).toEqual(
      expect.arrayContaining(['calls', 'inserted', 'updated', 'pages', 'retries', 'recordings']),
    );
    // Nothing stored twice: the resumed run inserted exactly what the killed one had not.
    expect(figures.inserted).toBe(seeded - partial);

    const out = join(dir, 'calls.csv');
    const exported = await run(['calls', 'export', '--data', data, '--out', out]);
    expect(exported.code).toBe(0);
    const rows = Papa.parse<Record<string, string>>(readFileSync(out, 'utf8'), {
      header: true,
      skipEmptyLines: true,
    });
    expect(rows.data).toHaveLength(seeded);
    expect(new Set(rows.data.map((r) => r.call_id)).size).toBe(seeded);
    expect(rows.meta.fields).toEqual(
      expect.arrayContaining([
        'call_id',
        'bulk_list_id',
        'to_number',
        'name',
        'status',
        'sub_status',
        'created_at',
        'call_duration',
        'call_cost',
        'recording',
        'recording_path',
      ]),
    );
    const saved = rows.data.filter((r) => r.recording === 'saved');
    expect(saved.length).toBe(figures.recordings.saved);
    expect(saved.every((r) => r.recording_path!.startsWith(data))).toBe(true);
    const completed = await run([
      'calls',
      'export',
      '--data',
      data,
      '--out',
      join(dir, 'completed.csv'),
      '--status',
      'completed',
    ]);
    expect(completed.code).toBe(0);
    const done = Papa.parse<Record<string, string>>(readFileSync(join(dir, 'completed.csv'), 'utf8'), {
      header: true,
      skipEmptyLines: true,
    });
    expect(done.data.length).toBeGreaterThan(0);
    expect(done.data.every((r) => r.status === 'completed')).toBe(true);

    // Killed between pages, yet every stored call is in the search index with its own text (FTS5's
    // check against the calls table), and `--search` exports exactly the calls whose text has the word.
    const check = new Database(join(data, 'campaign-desk.sqlite'));
    check.exec(`INSERT INTO calls_fts (calls_fts, rank) VALUES ('integrity-check', 1)`);
    const withWord = check
      .prepare(`SELECT id FROM calls WHERE transcript_text LIKE '%reminder%' ORDER BY id`)
      .pluck()
      .all() as string[];
    check.close();
    expect(withWord.length).toBeGreaterThan(0);
    const searched = await run([
      'calls',
      'export',
      '--data',
      data,
      '--out',
      join(dir, 's.csv'),
      '--search',
      'reminder',
    ]);
    expect(searched.code).toBe(0);
    const found = Papa.parse<Record<string, string>>(readFileSync(join(dir, 's.csv'), 'utf8'), {
      header: true,
      skipEmptyLines: true,
    });
    expect(found.data.map((r) => r.call_id).sort()).toEqual(withWord);
  }, 240_000);

  it('sync --workspace takes the API key from the OS keychain (none in the environment)', async (ctx) => {
    if (process.env.DESK_KEYRING_READY !== '1')
      ctx.skip('no Secret Service here: run under scripts/with-keyring.sh');
    // The app saved a workspace with its key in the keychain (the real Secret Service).
    const data = join(dir, 'keyed');
    const desk = await createDesk({ dataDir: data, host: 'browser', version: '1', sandbox: 'off' });
    const created = await desk.handle('workspaces:create', {
      name: 'Keyed',
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      sessionOnly: false,
    });
    expect(created).toMatchObject({ ok: true, value: { secretStorage: 'keychain' } });
    await desk.close();

    const since = new Date(Date.now() - 4 * HOUR).toISOString();
    // The sync's first window reaches back by the windows' overlap (by design, so a call on a
    // window's edge is never missed): the calls it stores are those from there on.
    const q = new URLSearchParams({
      start_date: new Date(Date.parse(since) - defaultSyncPolicy.windowOverlapMs).toISOString(),
      end_date: new Date(Date.now() + 60_000).toISOString(),
      limit: '1',
    });
    const expected = (
      (await (
        await fetch(`${sandbox.baseUrl}/calling/history?${q}`, { headers: { 'x-api-key': sandbox.apiKey } })
      ).json()) as {
        total: number;
      }
    ).total;
    expect(expected).toBeGreaterThanOrEqual(40);
    const report = join(dir, 'keyed.json');
    const env = { CAMPAIGN_DESK_API_KEY: '' };
    const synced = await run(
      [
        'sync',
        '--data',
        data,
        '--workspace',
        'Keyed',
        '--since',
        since,
        '--no-recordings',
        '--report',
        report,
      ],
      env,
    );
    expect(synced.stderr).toBe('');
    expect(synced.code).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ calls: expected });
    expect(synced.stdout).not.toContain(sandbox.apiKey);

    const unknown = await run(['sync', '--data', data, '--workspace', 'Nope', '--no-recordings'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.trim()).toBe(`campaign-desk sync: no workspace named "Nope" in ${data}`);
  }, 120_000);
});
