// node bench/syncGrowth.ts [--sandbox-data <dir>] [--calls <n>] [--step 100000] [--tree <worktree>]
//   [--keep <dir>]
//
// Where a big history sync's time goes as the file grows: one loopback sync (the app's engine and
// DB worker, in this process) of every call a sandbox holds, into a fresh data folder, with a line
// per `--step` calls stored: wall seconds, this process's CPU seconds per thread (the DB worker is
// the busiest besides main; the checkpointer runs at nice 10), bytes the process read and wrote
// (/proc/self/io), the WAL's and the file's sizes, the sandbox's CPU and the load average.
// --sandbox-data: a sandbox data folder already seeded (a copy: the sandbox opens it read-write);
// without it a fresh sandbox is seeded with --calls calls. --tree: the build whose engine runs
// (default this one), to compare builds on one sandbox. --keep: the synced data folder is moved there.
import { readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startSandboxProcess } from '../electron/services/api/testing/sandboxProcess.ts';
import { processCpuSeconds, threadCpuSeconds } from './lib/cpuTime.ts';
import type { ThreadCpu } from './lib/cpuTime.ts';
import { load, round } from './lib/goals.ts';
import type * as HistorySyncModule from '../electron/services/sync/historySync.ts';
import type * as SyncTestingModule from '../electron/services/sync/testing.ts';

const { values } = parseArgs({
  options: {
    'sandbox-data': { type: 'string' },
    calls: { type: 'string', default: '200000' },
    step: { type: 'string', default: '100000' },
    tree: { type: 'string', default: resolve(import.meta.dirname, '..') },
    keep: { type: 'string' },
  },
});
const step = Number(values.step);
const DAY = 86_400_000;
const tree = resolve(values.tree!);
const from = <T>(rel: string) => import(pathToFileURL(join(tree, rel)).href) as Promise<T>;
const { runHistorySync } = await from<typeof HistorySyncModule>('electron/services/sync/historySync.ts');
const { historyFetcher, openTempDb } = await from<typeof SyncTestingModule>(
  'electron/services/sync/testing.ts',
);

/** /proc/self/io: bytes read and written by this process (storage and page cache alike: rchar/wchar). */
function io(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync('/proc/self/io', 'utf8').trim().split('\n')) {
    const [k, v] = line.split(': ');
    out[k!] = Number(v);
  }
  return out;
}

/** The nice value of a thread (field 19 of its stat line): the checkpointer runs at 10. */
function nice(tid: number): number {
  try {
    const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  } catch {
    return 0;
  }
}

const size = (f: string) => {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
};

const sandbox = await startSandboxProcess({
  apiKey: 'bench-sync-growth-0001',
  ...(values['sandbox-data'] ? { dataDir: resolve(values['sandbox-data']) } : {}),
});
try {
  if (!values['sandbox-data']) {
    for (let seeded = 0, n = Number(values.calls); seeded < n;) {
      const r = await sandbox.control<{ created: number }>('POST', '/seed-calls', {
        count: Math.min(100_000, n - seeded),
      });
      seeded += r.created;
    }
  }
  const toMs = Date.now() + 60_000;
  const fromMs = toMs - 31 * DAY;
  const t = await openTempDb();
  await t.db.readLane;
  const file = join(t.dir, 'campaign-desk.sqlite');
  type Mark = {
    at: number;
    stored: number;
    threads: ThreadCpu[];
    io: Record<string, number>;
    sandbox: number;
  };
  const mark = (stored: number): Mark => ({
    at: performance.now(),
    stored,
    threads: threadCpuSeconds(process.pid),
    io: io(),
    sandbox: processCpuSeconds(sandbox.pid) ?? 0,
  });
  const start = mark(0);
  let last = start;
  let next = step;
  const report = (m: Mark) => {
    const before = new Map(last.threads.map((th) => [th.tid, th.seconds]));
    const threads = m.threads
      .map((th) => ({ ...th, s: th.seconds - (before.get(th.tid) ?? 0) }))
      .filter((th) => th.s >= 0.05)
      .sort((a, b) => b.s - a.s);
    const n = m.stored - last.stored;
    const per100k = (x: number) => round((x * 100_000) / n);
    const line = {
      stored: m.stored,
      wall_per_100k: per100k((m.at - last.at) / 1000),
      cpu_per_100k: per100k(threads.reduce((s, th) => s + th.s, 0)),
      threads_per_100k: threads
        .slice(0, 5)
        .map((th) => `${th.tid === process.pid ? 'main' : `${th.name}@${nice(th.tid)}`}:${per100k(th.s)}`)
        .join(' '),
      sandbox_cpu_per_100k: per100k(m.sandbox - last.sandbox),
      mb_written_per_100k: per100k((m.io.wchar! - last.io.wchar!) / 1e6),
      mb_read_per_100k: per100k((m.io.rchar! - last.io.rchar!) / 1e6),
      disk_mb_written_per_100k: per100k((m.io.write_bytes! - last.io.write_bytes!) / 1e6),
      file_mb: round(size(file) / 1e6),
      wal_mb: round(size(`${file}-wal`) / 1e6),
      load: load(),
    };
    console.log(JSON.stringify(line));
    last = m;
  };
  const r = await runHistorySync({
    db: t.db,
    workspaceId: 'bench',
    fetchHistory: historyFetcher(sandbox),
    signal: new AbortController().signal,
    sinceMs: fromMs,
    onProgress: (p) => {
      if (p.inserted >= next) {
        report(mark(p.inserted));
        next += step;
      }
    },
  });
  if (r.inserted > last.stored) report(mark(r.inserted));
  const seconds = (performance.now() - start.at) / 1000;
  console.log(JSON.stringify({ tree, inserted: r.inserted, seconds: round(seconds), load: load() }));
  await t.db.close();
  if (values.keep) {
    renameSync(t.dir, resolve(values.keep));
    console.error(`syncGrowth: data kept in ${resolve(values.keep)}`);
  } else rmSync(t.dir, { recursive: true, force: true });
} finally {
  await sandbox.stop();
}
