// One loopback history sync of the build in `--tree` (a worktree of this repository) against a
// running sandbox, in a process of its own: the sync's CPU seconds (process.cpuUsage, and per thread
// from /proc), the floor of bench/sync.ts part 2 measured on the same calls (bench/lib/syncFloor.ts),
// and, with `--dump`, a canonical dump of what the sync stored (bench/lib/syncDump.ts). Run by
// bench/syncCpu.ts, which alternates builds against one seeded sandbox; prints one JSON line.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { threadCpuSeconds, threadCpuSince } from './cpuTime.ts';
import { dumpSyncedFile } from './syncDump.ts';
import { rawPaging, sqliteCopyCpu } from './syncFloor.ts';
import type * as HistorySyncModule from '../../electron/services/sync/historySync.ts';
import type * as SyncTestingModule from '../../electron/services/sync/testing.ts';

const { values } = parseArgs({
  options: {
    tree: { type: 'string' },
    base: { type: 'string' },
    key: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    dump: { type: 'boolean', default: false },
    floor: { type: 'boolean', default: false },
  },
});
const tree = values.tree!;
const sandbox = { baseUrl: values.base!, apiKey: values.key! };
const fromMs = Number(values.from);
const toMs = Number(values.to);

type SyncModule = typeof HistorySyncModule;
type TestingModule = typeof SyncTestingModule;
const load = <T>(rel: string) => import(pathToFileURL(join(tree, rel)).href) as Promise<T>;
const { runHistorySync } = await load<SyncModule>('electron/services/sync/historySync.ts');
const { historyFetcher, openTempDb } = await load<TestingModule>('electron/services/sync/testing.ts');

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const raw = values.floor ? await rawPaging(sandbox, fromMs, toMs) : null;
const t = await openTempDb();
// The read lane's thread boots in the background; its start is no part of the sync's cost.
await t.db.readLane;
const threads0 = threadCpuSeconds(process.pid);
const c0 = cpu();
const w0 = performance.now();
const r = await runHistorySync({
  db: t.db,
  workspaceId: 'bench',
  fetchHistory: historyFetcher(sandbox),
  signal: new AbortController().signal,
  sinceMs: fromMs,
});
const seconds = (performance.now() - w0) / 1000;
const appCpu = cpu() - c0;
const threads = threadCpuSince(threads0, threadCpuSeconds(process.pid))
  .filter((th) => th.seconds >= 0.01)
  .map((th) => ({ ...th, name: th.tid === process.pid ? 'main' : th.name }))
  .sort((a, b) => b.seconds - a.seconds);
const stored = (await t.db.call('calls.syncState', { workspaceId: 'bench' })).calls;
await t.db.close();
const file = join(t.dir, 'campaign-desk.sqlite');
const copy = values.floor ? await sqliteCopyCpu(file, openTempDb) : null;
const dump = values.dump ? dumpSyncedFile(file) : null;
await t.close();
console.log(
  JSON.stringify({
    tree,
    stored,
    received: r.received,
    skipped: r.skipped,
    seconds,
    appCpu,
    threads: threads.map((th) => ({ name: th.name, tid: th.tid, s: +th.seconds.toFixed(2) })),
    floor: raw !== null && copy !== null ? { parse: raw.parseCpuSeconds, copy, calls: raw.calls } : null,
    dump,
  }),
);
