// node bench/syncCpu.ts --trees <worktree>,<worktree> [--rounds 3] [--calls 100000] [--dump] [--prof <dir>]
//
// The loopback sync's CPU of two (or more) builds compared on one seeded sandbox, interleaved
// (A B A B …, each run a fresh process: bench/lib/syncCpuChild.ts), each run with the floor of
// bench/sync.ts part 2 measured beside it: the app's CPU seconds per 100,000 calls, per thread, the
// floor and their ratio, with the load average. With --dump the sandbox also serves a few malformed
// and edge records (history overrides), and each run's stored tables are digested
// (bench/lib/syncDump.ts): the builds must store the same rows, search index, recordings, sync
// state, aggregates and quarantine. --prof: each run writes V8 CPU profiles (every thread) there.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { startSandboxProcess } from '../electron/services/api/testing/sandboxProcess.ts';
import { load, round } from './lib/goals.ts';

const { values } = parseArgs({
  options: {
    trees: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    calls: { type: 'string', default: '100000' },
    dump: { type: 'boolean', default: false },
    prof: { type: 'string' },
  },
});
const trees = (values.trees ?? '')
  .split(',')
  .filter(Boolean)
  .map((t) => resolve(t));
if (trees.length === 0) throw new Error('--trees: one or more worktrees, comma-separated');
const calls = Number(values.calls);
const DAY = 86_400_000;
const run = promisify(execFile);

/** Records the sandbox serves malformed or at an edge: each build must quarantine or store them alike. */
const OVERRIDES: Array<Record<string, unknown>> = [
  { created_at: '2025-02-30T10:00:00Z' },
  { call_cost: -1 },
  { call_duration: 1e308 },
  { agent: { id: 7 } },
  { status: null },
  { extra_field: 'kept out of raw', agent: { id: 'a-1', agent_name: 'X', unknown: 1 } },
  { transcript: [{ bot: 'Hello there' }, { user: 'Yes' }] },
  { transcript: 'not a list of turns' },
  { transcript: '[]', to_number: '+1 (415) 555-0100', voicemail_detected: true },
  { call_attempt_time: '2026-11-01 10:00:00.123456+05:30', created_at: '2026-11-01T04:00:00' },
  { id: '' },
  { sub_status: 'SOMETHING_NEW', call_type: 'inbound', from_numbers: ['+1'], credits_processed: false },
];

const sandbox = await startSandboxProcess({ apiKey: 'bench-sync-cpu-key-0001' });
try {
  for (let seeded = 0; seeded < calls;) {
    const r = await sandbox.control<{ created: number }>('POST', '/seed-calls', {
      count: Math.min(100_000, calls - seeded),
    });
    seeded += r.created;
  }
  const toMs = Date.now() + 60_000;
  const fromMs = toMs - 31 * DAY;
  if (values.dump) {
    const page = await fetch(
      `${sandbox.baseUrl}/calling/history?${new URLSearchParams({
        start_date: new Date(fromMs).toISOString(),
        end_date: new Date(toMs).toISOString(),
        limit: String(OVERRIDES.length * 37),
      })}`,
      { headers: { 'x-api-key': sandbox.apiKey } },
    );
    const ids = ((await page.json()) as { calls: Array<{ id: string }> }).calls.map((c) => c.id);
    for (const [i, fields] of OVERRIDES.entries())
      await sandbox.control('POST', '/history-overrides', { call_id: ids[i * 37], fields });
  }
  const results: Array<Record<string, unknown>> = [];
  for (let r = 0; r < Number(values.rounds); r++) {
    for (const tree of trees) {
      const args = [
        ...(values.prof ? ['--cpu-prof', '--cpu-prof-dir', values.prof] : []),
        resolve(import.meta.dirname, 'lib/syncCpuChild.ts'),
        '--tree',
        tree,
        '--base',
        sandbox.baseUrl,
        '--key',
        sandbox.apiKey,
        '--from',
        String(fromMs),
        '--to',
        String(toMs),
        '--floor',
        ...(values.dump ? ['--dump'] : []),
      ];
      const loadBefore = load();
      const { stdout } = await run(process.execPath, args, { maxBuffer: 16 << 20 });
      const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
        stored: number;
        appCpu: number;
        seconds: number;
        threads: Array<{ name: string; s: number }>;
        floor: { parse: number; copy: number };
        dump: Record<string, { rows: number; sha: string }> | null;
      };
      const per100k = (x: number) => round((x * 100_000) / out.stored);
      const floor = out.floor.parse + out.floor.copy;
      const line = {
        round: r + 1,
        tree,
        stored: out.stored,
        seconds: round(out.seconds),
        app_cpu_per_100k: per100k(out.appCpu),
        floor_per_100k: per100k(floor),
        floor_parts_per_100k: { copy: per100k(out.floor.copy), parse: per100k(out.floor.parse) },
        ratio: round(out.appCpu / floor),
        threads_per_100k: out.threads.map((t) => `${t.name}:${per100k(t.s)}`).join(' '),
        load: [loadBefore, load()],
        ...(out.dump ? { dump: out.dump } : {}),
      };
      results.push(line);
      console.log(JSON.stringify(line));
    }
  }
  if (values.dump) {
    const digests = new Map(results.map((r) => [r.tree as string, JSON.stringify(r.dump)]));
    const same = new Set(results.map((r) => JSON.stringify(r.dump))).size === 1;
    console.log(same ? 'DUMP identical across runs and builds' : 'DUMP DIFFERS');
    if (!same) for (const [tree, d] of digests) console.log(tree, d);
  }
} finally {
  await sandbox.stop();
}
