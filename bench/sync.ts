// npm run bench:sync [-- --calls <n>] [--network <profile>] [--searches <n>]
//
// One run against one sandbox process seeded with `--calls` calls (default 100,000) over 30 days.
// Each goal is printed with met / NOT met and the machine's load average (1, 5, 15 min) at the time.
//
// --calls ≤ 100,000 (the default), three parts:
//  1. network: the sandbox's network profile (default rtt=80ms,jitter=20ms,bw=2MB/s) on history
//     pages. Sequential raw paging (GET /calling/history in one-day windows of 1,000-call pages, one
//     request after another, each body read and JSON-parsed, nothing stored) against the app's
//     history sync into a fresh SQLite file (runHistorySync: its adaptive requests in flight).
//     Goal: sync ≤ 0.4 × sequential, every call stored. Also printed: the seconds the sync spent
//     with 0, 1, … requests in flight (below the limit: time lost to scheduling or a lagging store).
//  2. loopback CPU: the profile off. The app's CPU seconds (this process, every thread: the HTTP
//     client, schema checks, the DB worker's upserts and search index) per 100,000 calls during a
//     sync, against a floor measured in the same run: SQLite's own copy of the same calls into a
//     fresh file with the same indexes and search index (the writer's page cache; reading the
//     synced file's rows is taken off), plus JSON.parse of the same pages. Goal: app ≤ 1.5 × floor.
//  3. reads: full-text search over the stored calls (the Calls table's first page of 50 with
//     snippets and total) for words and prefixes from the transcripts, p50/p95, alone and with a
//     status filter (goal p95 ≤ 30 ms both); the Calls table's first page read every 50 ms while a
//     second sync runs into another fresh file (goal p95 ≤ 50 ms, longest ≤ 100 ms).
//
// --calls > 100,000 (e.g. 1000000; the sandbox keeps them on disk), the scale run:
//  a. a reference sync of about 100,000 of them (the newest, 30 days × 100,000 / n) by the CLI
//     (`campaign-desk sync`);
//  b. the full sync by the CLI, killed (SIGKILL) half-way and resumed by a second run: every call
//     stored once; total time against 1.1 × linear from the reference (11× for a million);
//  c. database bytes per call (goal ≤ 3 KB, no recordings); FTS p95 (≤ 50 ms) and Calls page p95
//     (≤ 50 ms) over all of them;
//  d. the screens over all of them: Charts (≤ 1 s), the Campaign results of the first 100,000
//     seeded calls' campaign (≤ 2 s; its contact list imported first) and the CLI's `calls export`
//     of every call (≤ 20 s).
// BENCH_SYNC_KEEP=1 keeps the data folders and prints where (e.g. the million-call file, to time
// reads on it again without syncing).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandboxProcess } from '../electron/services/api/testing/sandboxProcess.ts';
import type { SandboxProcess } from '../electron/services/api/testing/sandboxProcess.ts';
import type { DbClient } from '../electron/services/db/client.ts';
import { runHistorySync } from '../electron/services/sync/historySync.ts';
import { historyFetcher, openTempDb } from '../electron/services/sync/testing.ts';
import { goal, load, pct, round } from './lib/goals.ts';
import { inFlightTimeline } from './lib/inFlightTimeline.ts';
import { rawPaging, sqliteCopyCpu } from './lib/syncFloor.ts';
import { scalePart } from './lib/syncScaleRun.ts';
import { searchSpec, searchTerms } from './lib/syncScaleSearch.ts';
import { SCALE_CAMPAIGN } from './lib/syncScaleViews.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '100000' },
    searches: { type: 'string', default: '200' },
    network: { type: 'string', default: 'rtt=80ms,jitter=20ms,bw=2MB/s' },
  },
});
const calls = Number(values.calls);
if (!Number.isInteger(calls) || calls < 1000 || calls > 1_000_000)
  throw new Error(`--calls must be a whole number from 1000 to 1000000, got "${values.calls}"`);
const searches = Number(values.searches);
const DAY = 86_400_000;
const SCALE = calls > 100_000;

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const dataRoot = mkdtempSync(join(tmpdir(), 'bench-sync-'));
const sandbox = await startSandboxProcess({
  apiKey: 'bench-sync-key-0001',
  ...(SCALE ? { dataDir: join(dataRoot, 'sandbox') } : {}),
});
const figures: Record<string, unknown> = { calls, started_load: load() };
try {
  // Seeded in chunks (one transaction each) so no control request runs for minutes.
  const seedStart = performance.now();
  let seeded = 0;
  while (seeded < calls) {
    const r = await sandbox.control<{ created: number }>('POST', '/seed-calls', {
      count: Math.min(100_000, calls - seeded),
      // The scale run's campaign (its Campaign results are timed): the first 100,000 calls.
      ...(SCALE && seeded === 0 ? { bulk_list_id: SCALE_CAMPAIGN } : {}),
    });
    seeded += r.created;
  }
  figures.seed_seconds = round((performance.now() - seedStart) / 1000, 1);
  const toMs = Date.now() + 60_000;
  const fromMs = toMs - 31 * DAY;

  if (!SCALE) {
    figures.network = await networkPart(sandbox, fromMs, toMs, seeded);
    await sandbox.control('DELETE', '/network');
    const { db, part } = await cpuPart(sandbox, fromMs, toMs, seeded);
    figures.loopback_cpu = part;
    try {
      figures.fts = await ftsPart(db, 30);
    } finally {
      await db.close();
    }
    figures.calls_page_during_sync = await readsDuringSync(sandbox, fromMs);
  } else {
    figures.scale = await scalePart(sandbox, fromMs, seeded, { dataRoot, searches });
  }
  figures.finished_load = load();
  console.log(JSON.stringify(figures, null, 2));
} finally {
  await sandbox.stop();
  // BENCH_SYNC_KEEP=1 keeps the data folders (the synced million-call file, to time reads again).
  if (process.env.BENCH_SYNC_KEEP === '1') console.error(`bench:sync: data kept in ${dataRoot}`);
  else rmSync(dataRoot, { recursive: true, force: true });
}

async function syncOnce(s: SandboxProcess, db: DbClient, fromMs: number, fetchHistory = historyFetcher(s)) {
  const t0 = performance.now();
  const c0 = cpuSeconds();
  const r = await runHistorySync({
    db,
    workspaceId: 'bench',
    fetchHistory,
    signal: new AbortController().signal,
    sinceMs: fromMs,
  });
  return { r, seconds: (performance.now() - t0) / 1000, cpu: cpuSeconds() - c0 };
}

async function storedCalls(db: DbClient): Promise<number> {
  return (await db.call('calls.syncState', { workspaceId: 'bench' })).calls;
}

/** Part 1: with the network profile, the sync against sequential raw paging. */
async function networkPart(s: SandboxProcess, fromMs: number, toMs: number, seeded: number) {
  await s.control('POST', '/network', { profile: values.network, reset_counters: true });
  const raw = await rawPaging(s, fromMs, toMs);
  const t = await openTempDb();
  try {
    await s.control('POST', '/network', { reset_counters: true });
    const timeline = inFlightTimeline(historyFetcher(s));
    const sync = await syncOnce(s, t.db, fromMs, timeline.fetchHistory);
    const inFlight = (
      await s.control<{ counters: { history: { max_in_flight: number } } }>('GET', '/network')
    ).counters.history;
    const stored = await storedCalls(t.db);
    const ratio = sync.seconds / raw.seconds;
    return {
      profile: values.network,
      sequential_raw_paging: {
        calls: raw.calls,
        requests: raw.requests,
        megabytes: round(raw.bytes / 1e6, 1),
        seconds: round(raw.seconds),
      },
      sync: {
        seconds: round(sync.seconds),
        stored,
        pages: sync.r.pages,
        windows: sync.r.windowsDone,
        retries: sync.r.retries,
        concurrency: sync.r.concurrency,
        max_in_flight_seen_by_sandbox: inFlight.max_in_flight,
        requests: timeline.requests(),
        // Index k: seconds with k requests in flight (below the limit: time lost to scheduling).
        seconds_at_in_flight: timeline.secondsAt(),
      },
      nothing_lost: goal('network: calls missing after the sync', seeded - stored, 0, 'calls'),
      time_ratio: goal('network: sync time / sequential raw paging time', ratio, 0.4, '×'),
    };
  } finally {
    await t.close();
  }
}

/** Part 2: loopback, the app's CPU per 100,000 calls against the floor. Leaves the synced DB open. */
async function cpuPart(s: SandboxProcess, fromMs: number, toMs: number, seeded: number) {
  const raw = await rawPaging(s, fromMs, toMs);
  const t = await openTempDb();
  // The read lane's thread boots in the background: its start is no part of the sync's cost (as the
  // floor's file is made by the migrations before its copy is timed).
  await t.db.readLane;
  const sync = await syncOnce(s, t.db, fromMs);
  const stored = await storedCalls(t.db);
  if (stored !== seeded) throw new Error(`loopback sync stored ${stored} calls of ${seeded}`);
  const copyCpu = await sqliteCopyCpu(join(t.dir, 'campaign-desk.sqlite'), openTempDb);
  const per100k = (x: number) => (x * 100_000) / stored;
  const floor = per100k(copyCpu + raw.parseCpuSeconds);
  const app = per100k(sync.cpu);
  return {
    db: t.db,
    part: {
      sync_seconds: round(sync.seconds),
      raw_paging_seconds: round(raw.seconds),
      app_cpu_seconds_per_100k: round(app),
      floor_cpu_seconds_per_100k: round(floor),
      floor_parts_per_100k: {
        sqlite_copy_with_indexes_and_search_index: round(per100k(copyCpu)),
        json_parse_of_the_pages: round(per100k(raw.parseCpuSeconds)),
      },
      ratio: goal('loopback: app CPU / floor CPU', app / floor, 1.5, '×'),
    },
  };
}

/** FTS p50/p95 alone and with a status filter (the Calls table's first page: 50 rows, snippets, total). */
async function ftsPart(db: DbClient, goalMs: number) {
  // Words and prefixes from stored transcripts (completed calls, spread over the table).
  const terms = await searchTerms(db, 'bench', 400);
  const run = async (extra: { statuses?: string[] }) => {
    const latencies: number[] = [];
    let hits = 0;
    // This process's CPU (the database worker's included): steadier than wall time on a busy machine.
    const cpu0 = cpuSeconds();
    for (let i = 0; i < searches; i++) {
      const term = searchSpec(terms, i).search; // every third a prefix
      const s = performance.now();
      const res = await db.call('calls.list', {
        workspaceId: 'bench',
        filter: { ...extra, search: term },
        offset: 0,
        limit: 50,
      });
      latencies.push(performance.now() - s);
      hits += res.total;
    }
    latencies.sort((a, b) => a - b);
    return {
      cpu_seconds: round(cpuSeconds() - cpu0),
      average_matches: Math.round(hits / searches),
      p50_ms: round(pct(latencies, 0.5)),
      p95_ms: pct(latencies, 0.95),
    };
  };
  const plain = await run({});
  const filtered = await run({ statuses: ['completed', 'failed'] });
  return {
    searches,
    distinct_terms: terms.length,
    search: { ...plain, p95_ms: round(plain.p95_ms), goal: goal('FTS p95', plain.p95_ms, goalMs, 'ms') },
    search_with_status_filter: {
      ...filtered,
      p95_ms: round(filtered.p95_ms),
      goal: goal('FTS p95 with a status filter', filtered.p95_ms, goalMs, 'ms'),
    },
  };
}

/** Part 3b: the Calls table's first page read every 50 ms while a second sync runs. */
async function readsDuringSync(s: SandboxProcess, fromMs: number) {
  const second = await openTempDb();
  // The app's read lane is up long before a sync starts; without this wait the first reads were
  // answered by the writer, behind the sync's first batches.
  await second.db.readLane;
  const waits: number[] = [];
  let syncing = true;
  try {
    const reads = (async () => {
      while (syncing) {
        const t0 = performance.now();
        await second.db.call('calls.list', { workspaceId: 'bench', filter: {}, offset: 0, limit: 50 });
        waits.push(performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await syncOnce(s, second.db, fromMs).finally(() => (syncing = false));
    await reads;
  } finally {
    await second.close();
  }
  waits.sort((a, b) => a - b);
  return {
    reads: waits.length,
    p50_ms: round(pct(waits, 0.5), 1),
    p95: goal('Calls page p95 during a sync', pct(waits, 0.95), 50, 'ms'),
    longest: goal('Calls page longest during a sync', waits.at(-1) ?? 0, 100, 'ms'),
  };
}
