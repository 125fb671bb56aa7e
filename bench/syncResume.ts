// node bench/syncResume.ts --sandbox-data <copy of a seeded sandbox folder> [--tree <worktree>]
//   [--kill-at <stored calls>] [--data <folder>] [--every 2] [--resume-only]
//
// The scale run's kill and resume (bench/lib/syncScaleRun.ts) with a timeline: `campaign-desk sync`
// of the given build as a child process, SIGKILLed once the file holds --kill-at calls (default
// half of the sandbox's), then run again to the end. Every --every seconds one JSON line: seconds
// since the run's start, calls stored (max seq, read from the file), the child's CPU seconds per
// thread since the last line (the DB writer runs at nice 5, its checkpointer at 15), bytes read and
// written (/proc/<pid>/io), the WAL's and the file's sizes, the load average; the child's output
// lines are printed as they come. --resume-only: only the second run, on a --data folder left by
// an earlier kill (copy it first: the run changes it).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { startSandboxProcess } from '../electron/services/api/testing/sandboxProcess.ts';
import { threadCpuSeconds } from './lib/cpuTime.ts';
import type { ThreadCpu } from './lib/cpuTime.ts';
import { load, round } from './lib/goals.ts';

const { values } = parseArgs({
  options: {
    'sandbox-data': { type: 'string' },
    tree: { type: 'string', default: resolve(import.meta.dirname, '..') },
    'kill-at': { type: 'string' },
    data: { type: 'string' },
    every: { type: 'string', default: '2' },
    'resume-only': { type: 'boolean', default: false },
    'keep-copy': { type: 'string' },
  },
});
if (!values['sandbox-data']) throw new Error('--sandbox-data <copy of a seeded sandbox folder> is required');
const DAY = 86_400_000;
const cli = join(resolve(values.tree!), 'electron/cli/main.ts');
const data = resolve(values.data ?? mkdtempSync(join(tmpdir(), 'sync-resume-')));
const file = join(data, 'campaign-desk.sqlite');
const everyMs = Number(values.every) * 1000;

const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
function io(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const line of readFileSync(`/proc/${pid}/io`, 'utf8').trim().split('\n')) {
      const [k, v] = line.split(': ');
      out[k!] = Number(v);
    }
  } catch {
    // ended
  }
  return out;
}
function nice(pid: number, tid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  } catch {
    return 0;
  }
}
/** Calls stored so far, or null while the file cannot be read (not there yet, being recovered). */
function stored(): number | null {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 0 });
    try {
      return db.prepare(`SELECT coalesce(max(seq), 0) FROM calls`).pluck().get() as number;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

const sandbox = await startSandboxProcess({
  apiKey: 'bench-sync-resume-0001',
  dataDir: resolve(values['sandbox-data']),
});
const t0 = performance.now();
const at = () => round((performance.now() - t0) / 1000, 1);

async function run(label: string, since: number | null, killAt?: number) {
  const args = ['sync', '--data', data, '--base-url', sandbox.baseUrl, '--no-recordings'];
  if (since !== null) args.push('--since', new Date(since).toISOString());
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...process.env, CAMPAIGN_DESK_API_KEY: sandbox.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid!;
  const lines = (d: Buffer) => {
    for (const line of d.toString().split('\n'))
      if (line.trim()) console.log(JSON.stringify({ t: at(), run: label, out: line.trim().slice(0, 300) }));
  };
  child.stdout.on('data', lines);
  child.stderr.on('data', lines);
  const closed = new Promise<number | null>((r) => child.on('close', r));
  let last: { threads: ThreadCpu[]; io: Record<string, number>; stored: number } = {
    threads: [],
    io: {},
    stored: stored() ?? 0,
  };
  let killed = false;
  let ended = false;
  void closed.then(() => (ended = true));
  while (!ended) {
    await Promise.race([closed, new Promise((r) => setTimeout(r, everyMs))]);
    if (ended) break;
    const threads = threadCpuSeconds(pid);
    const now = { threads, io: io(pid), stored: stored() ?? last.stored };
    const before = new Map(last.threads.map((t) => [t.tid, t.seconds]));
    const busy = threads
      .map((t) => ({ t, s: t.seconds - (before.get(t.tid) ?? 0) }))
      .filter((x) => x.s >= 0.05)
      .sort((a, b) => b.s - a.s)
      .slice(0, 4)
      .map((x) => `${x.t.tid === pid ? 'main' : `${x.t.name}@${nice(pid, x.t.tid)}`}:${round(x.s, 1)}`);
    console.log(
      JSON.stringify({
        t: at(),
        run: label,
        stored: now.stored,
        new: now.stored - last.stored,
        cpu: busy.join(' '),
        mb_read: round(((now.io.rchar ?? 0) - (last.io.rchar ?? 0)) / 1e6, 0),
        mb_written: round(((now.io.wchar ?? 0) - (last.io.wchar ?? 0)) / 1e6, 0),
        wal_mb: round(size(`${file}-wal`) / 1e6, 0),
        file_mb: round(size(file) / 1e6, 0),
        load: load()[0],
      }),
    );
    last = now;
    if (killAt !== undefined && now.stored >= killAt) {
      child.kill('SIGKILL');
      killed = true;
      break;
    }
  }
  const code = await closed;
  const seconds = round((performance.now() - started) / 1000, 1);
  console.log(
    JSON.stringify({
      t: at(),
      run: label,
      done: true,
      killed,
      code,
      seconds,
      stored: stored(),
      load: load(),
    }),
  );
  return seconds;
}

try {
  const total = Number(
    (new Database(join(resolve(values['sandbox-data']), 'sandbox.sqlite'), { readonly: true })
      .prepare(`SELECT count(*) FROM calls`)
      .pluck()
      .get() as number) ?? 0,
  );
  const killAt = values['kill-at'] ? Number(values['kill-at']) : Math.floor(total / 2);
  let first = 0;
  if (!values['resume-only']) first = await run('first', Date.now() + 60_000 - 31 * DAY, killAt);
  if (values['keep-copy']) cpSync(data, resolve(values['keep-copy']), { recursive: true });
  const second = await run('resumed', null);
  console.log(
    JSON.stringify({
      tree: values.tree,
      data,
      first,
      second,
      seconds: round(first + second, 1),
      load: load(),
    }),
  );
} finally {
  await sandbox.stop();
}
