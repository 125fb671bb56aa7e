// npm run bench:sync — in one run against one sandbox with 100,000 seeded calls:
//  1. the sandbox's raw paging rate: GET /calling/history in the same one-day windows and pages of
//     1,000 the sync starts with, each body read and JSON-parsed, nothing stored (calls/s);
//  2. the history sync into a fresh SQLite file (runHistorySync: schema checks, normalising,
//     batched upserts with FTS in the DB worker) (calls/s), and `ratio` = 2 / 1 (goal ≥ 0.8),
//     with the CPU seconds each part used meanwhile (Linux): this process's main thread, its
//     busiest other threads (the DB writer first), the sandbox; and `goal_seconds`, the sync time
//     the goal asks for (raw paging time / 0.8);
//  3. full-text search over the 100,000 stored transcripts: the Calls table's first page (50 rows,
//     snippets, total) for 200 words and prefixes taken from the transcripts: p50 / p95 ms (goal p95 ≤ 30);
//     then the same searches with a status filter (completed or failed) added;
//  4. the Calls table while a sync runs: the same sync again into a second fresh file, with its
//     first page (50 rows) read every 50 ms meanwhile, as an operator reviewing calls would: the
//     waits of those reads (p50 / p95 / longest ms). A separate pass, so the reads never slow the
//     sync measured in 2.
import { parseArgs } from 'node:util';
import { startSandboxProcess } from '../electron/services/api/testing/sandboxProcess.ts';
import { runHistorySync } from '../electron/services/sync/historySync.ts';
import { historyFetcher, openTempDb } from '../electron/services/sync/testing.ts';
import { parseTranscript } from '../electron/services/sync/callRow.ts';
import { processCpuSeconds, threadCpuSeconds, threadCpuSince } from './lib/cpuTime.ts';
import type { CallRecord } from '../shared/service/history.ts';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '100000' }, searches: { type: 'string', default: '200' } },
});
const calls = Number(values.calls);
const DAY = 86_400_000;

const sandbox = await startSandboxProcess({ apiKey: 'bench-sync-key-0001' });
const temp = await openTempDb();
try {
  const seeded = await sandbox.control<{ created: number; took_ms: number }>('POST', '/seed-calls', {
    count: calls,
  });
  const toMs = Date.now() + 60_000;
  const fromMs = toMs - 31 * DAY;

  // 1. raw paging
  let rawCalls = 0;
  const t0 = performance.now();
  for (let start = fromMs; start < toMs; start += DAY) {
    for (let offset = 0; ; offset += 1000) {
      const q = new URLSearchParams({
        start_date: new Date(start - 1000).toISOString(),
        end_date: new Date(Math.min(toMs, start + DAY)).toISOString(),
        limit: '1000',
        offset: String(offset),
      });
      const res = await fetch(`${sandbox.baseUrl}/calling/history?${q}`, {
        headers: { 'x-api-key': sandbox.apiKey },
      });
      const body = JSON.parse(await res.text()) as { calls: unknown[] };
      if (res.status !== 200) throw new Error(`raw paging: HTTP ${res.status}`);
      rawCalls += body.calls.length;
      if (body.calls.length < 1000) break;
    }
  }
  const rawSeconds = (performance.now() - t0) / 1000;
  const rawRate = rawCalls / rawSeconds;

  // 2. sync into SQLite
  const syncInto = (db: typeof temp.db) =>
    runHistorySync({
      db,
      workspaceId: 'bench',
      fetchHistory: historyFetcher(sandbox),
      signal: new AbortController().signal,
      sinceMs: fromMs,
    });
  const threadsBefore = threadCpuSeconds(process.pid);
  const sandboxBefore = processCpuSeconds(sandbox.pid);
  const t1 = performance.now();
  const r = await syncInto(temp.db);
  const syncSeconds = (performance.now() - t1) / 1000;
  const threads = threadCpuSince(threadsBefore, threadCpuSeconds(process.pid));
  const sandboxAfter = processCpuSeconds(sandbox.pid);
  const round = (s: number) => +s.toFixed(2);
  const others = threads.filter((t) => t.tid !== process.pid).sort((a, b) => b.seconds - a.seconds);
  const cpu =
    threads.length === 0
      ? null
      : {
          main_thread: round(threads.find((t) => t.tid === process.pid)?.seconds ?? 0),
          busiest_other_threads: others.slice(0, 3).map((t) => round(t.seconds)),
          all_other_threads: round(others.reduce((sum, t) => sum + t.seconds, 0)),
          sandbox:
            sandboxBefore === null || sandboxAfter === null ? null : round(sandboxAfter - sandboxBefore),
        };
  const stored = (await temp.db.call('calls.syncState', { workspaceId: 'bench' })).calls;
  if (stored !== seeded.created) throw new Error(`sync stored ${stored} calls of ${seeded.created}`);
  const syncRate = stored / syncSeconds;

  // 3. FTS search latency over the stored transcripts
  const page = await temp.db.call('calls.get', {
    callId: (await temp.db.call('calls.list', { workspaceId: 'bench', filter: {}, offset: 0, limit: 1 }))
      .rows[0]!.id,
  });
  const words = new Set<string>();
  for (let offset = 0; words.size < 400 && offset < 5000; offset += 97) {
    const rows = await temp.db.call('calls.list', {
      workspaceId: 'bench',
      filter: { statuses: ['completed'] },
      offset,
      limit: 1,
    });
    const id = rows.rows[0]?.id;
    if (!id) break;
    const call = await temp.db.call('calls.get', { callId: id });
    for (const w of parseTranscript((JSON.parse(call?.raw ?? '{}') as CallRecord).transcript).turns.flatMap(
      (t: { text: string }) => t.text.match(/\p{L}{4,}/gu) ?? [],
    ))
      words.add((w as string).toLowerCase());
  }
  void page;
  const terms = [...words];
  const searches = Number(values.searches);
  // The same searches alone, then combined with a status filter (whose count must check each
  // match's row: the search-only count comes from the index when one workspace holds every call).
  const runSearches = async (extra: { statuses?: string[] }) => {
    const latencies: number[] = [];
    let hits = 0;
    for (let i = 0; i < searches; i++) {
      const w = terms[(i * 7919) % terms.length]!;
      const term = i % 3 === 2 ? w.slice(0, 3) : w; // every third a prefix
      const s = performance.now();
      const res = await temp.db.call('calls.list', {
        workspaceId: 'bench',
        filter: { ...extra, search: term },
        offset: 0,
        limit: 50,
      });
      latencies.push(performance.now() - s);
      hits += res.total;
    }
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
    return {
      average_matches: Math.round(hits / searches),
      p50_ms: +pct(0.5).toFixed(2),
      p95_ms: +pct(0.95).toFixed(2),
    };
  };
  const plain = await runSearches({});
  const filtered = await runSearches({ statuses: ['completed', 'failed'] });

  // 4. review while syncing (read lane)
  const second = await openTempDb();
  const waits: number[] = [];
  let syncing = true;
  try {
    const reads = (async () => {
      while (syncing) {
        const s = performance.now();
        await second.db.call('calls.list', { workspaceId: 'bench', filter: {}, offset: 0, limit: 50 });
        waits.push(performance.now() - s);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await syncInto(second.db).finally(() => (syncing = false));
    await reads;
  } finally {
    await second.close();
  }
  waits.sort((a, b) => a - b);
  const wait = (p: number) =>
    +(waits[Math.min(waits.length - 1, Math.floor(p * waits.length))] ?? 0).toFixed(1);
  const out = {
    calls: stored,
    raw_paging: { calls: rawCalls, seconds: +rawSeconds.toFixed(2), calls_per_s: Math.round(rawRate) },
    sync: {
      seconds: +syncSeconds.toFixed(2),
      calls_per_s: Math.round(syncRate),
      pages: r.pages,
      windows: r.windowsDone,
      inserted: r.inserted,
      cpu_seconds: cpu,
      goal_seconds: +(rawSeconds / 0.8).toFixed(2),
    },
    ratio: +(syncRate / rawRate).toFixed(2),
    ratio_goal: 0.8,
    fts: { searches, distinct_terms: terms.length, ...plain, p95_goal_ms: 30 },
    fts_with_status_filter: { searches, ...filtered, p95_goal_ms: 30 },
    calls_page_during_sync: {
      reads: waits.length,
      p50_ms: wait(0.5),
      p95_ms: wait(0.95),
      longest_ms: +(waits.at(-1) ?? 0).toFixed(1),
    },
  };
  console.log(JSON.stringify(out, null, 2));
} finally {
  await temp.close();
  await sandbox.stop();
}
