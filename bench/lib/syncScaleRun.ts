// The sync bench's scale run (--calls > 100,000): a reference sync of about 100,000 calls by the CLI,
// then the full sync killed (SIGKILL) half-way and resumed; every call stored once, time against
// linear from the reference, database bytes per call, FTS and Calls page latencies over all of them.
import { spawn } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { SandboxProcess } from '../../electron/services/api/testing/sandboxProcess.ts';
import { openDbClient } from '../../electron/services/db/client.ts';
import type { DbClient } from '../../electron/services/db/client.ts';
import { goal, pct, round } from './goals.ts';
import { callsPageReads, timeReads } from './syncScalePages.ts';
import { campaignResultsPart, chartsPart, exportPart } from './syncScaleViews.ts';
import { searchSpec, searchTerms } from './syncScaleSearch.ts';

const DAY = 86_400_000;
const cli = fileURLToPath(new URL('../../electron/cli/main.ts', import.meta.url));

/** `campaign-desk sync` as a child process; `killAt` stored calls: SIGKILL then (watched in the file). */
async function cliSync(
  s: SandboxProcess,
  data: string,
  sinceMs: number | null,
  killAt?: number,
): Promise<{ seconds: number; killed: boolean; out: string }> {
  const args = ['sync', '--data', data, '--base-url', s.baseUrl, '--no-recordings'];
  if (sinceMs !== null) args.push('--since', new Date(sinceMs).toISOString());
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...process.env, CAMPAIGN_DESK_API_KEY: s.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const closed = new Promise<number | null>((r) => child.on('close', r));
  let killed = false;
  if (killAt !== undefined) {
    while (child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 500));
      try {
        const db = new Database(join(data, 'campaign-desk.sqlite'), { readonly: true, fileMustExist: true });
        try {
          const n = (db.prepare(`SELECT coalesce(max(seq), 0) FROM calls`).pluck().get() as number) ?? 0;
          if (n >= killAt) {
            child.kill('SIGKILL');
            killed = true;
            break;
          }
        } finally {
          db.close();
        }
      } catch {
        // not created or migrated yet
      }
    }
  }
  const code = await closed;
  if (!killed && code !== 0) throw new Error(`campaign-desk sync exited ${code}: ${out}`);
  return { seconds: (performance.now() - t0) / 1000, killed, out: out.trim() };
}

function dbBytes(dir: string): number {
  return readdirSync(dir)
    .filter((f) => f.startsWith('campaign-desk.sqlite'))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

/** The scale run: reference 100k by the CLI, then all of them killed half-way and resumed. */
export async function scalePart(
  s: SandboxProcess,
  fromMs: number,
  seeded: number,
  o: { dataRoot: string; searches: number },
) {
  const { dataRoot } = o;
  // About 100,000 of the calls (seeded evenly over 30 days): the newest 30 days × 100,000 / n.
  const refDir = join(dataRoot, 'reference');
  const ref = await cliSync(s, refDir, Date.now() - Math.round((30 * DAY * 100_000) / seeded));
  const refCalls = (() => {
    const db = new Database(join(refDir, 'campaign-desk.sqlite'), { readonly: true });
    try {
      return db.prepare(`SELECT count(*) FROM calls`).pluck().get() as number;
    } finally {
      db.close();
    }
  })();
  rmSync(refDir, { recursive: true, force: true });

  const dir = join(dataRoot, 'full');
  const first = await cliSync(s, dir, fromMs, Math.floor(seeded / 2));
  const resumed = await cliSync(s, dir, null);
  const seconds = first.seconds + resumed.seconds;
  const db = await openDbClient({ file: join(dir, 'campaign-desk.sqlite') });
  let closed = false;
  try {
    const workspaceId = (await db.call('workspaces.list', {})).workspaces[0]?.id ?? `url:${s.baseUrl}`;
    const state = await db.call('calls.syncState', { workspaceId });
    const linearGoal = 1.1 * (seeded / refCalls) * ref.seconds;
    const sync = {
      reference: { calls: refCalls, seconds: round(ref.seconds) },
      full: {
        killed_half_way: first.killed,
        first_run_seconds: round(first.seconds),
        resumed_run_seconds: round(resumed.seconds),
        resumed_output: resumed.out,
        stored: state.calls,
      },
      nothing_lost: goal('scale: calls missing after kill and resume', seeded - state.calls, 0, 'calls'),
      time: goal(
        `scale: full sync seconds (goal 1.1 × linear from the reference: ${round(linearGoal)} s)`,
        seconds,
        round(linearGoal),
        's',
      ),
    };
    console.log(JSON.stringify(sync));
    const reads = await readLatencies(db, workspaceId, o.searches, state.calls);
    // Bytes on disk once closed (the last connection folds the WAL into the file), before the
    // campaign's contact list is imported.
    await db.close();
    closed = true;
    const bytes = dbBytes(dir);
    const perCall = goal('scale: database bytes per call', bytes / state.calls, 3000, 'B');
    // The export as an operator runs it: the CLI on the data folder (no app holds it).
    const exported = await exportPart(dir, state.calls);
    const views = await openDbClient({ file: join(dir, 'campaign-desk.sqlite') });
    try {
      return {
        ...sync,
        db_bytes_per_call: perCall,
        ...reads,
        charts: await chartsPart(views, workspaceId),
        campaign_results: await campaignResultsPart(views, dir, workspaceId, s, fromMs),
        calls_export: exported,
      };
    } finally {
      await views.close();
    }
  } finally {
    if (!closed) await db.close();
  }
}

async function readLatencies(db: DbClient, workspaceId: string, searches: number, total: number) {
  const terms = await searchTerms(db, workspaceId);
  const n = Math.min(searches, 100);
  const search = (extra: { statuses?: string[] }) =>
    timeReads(n, (i) =>
      db.call('calls.list', {
        workspaceId,
        filter: { ...extra, search: searchSpec(terms, i).search },
        offset: 0,
        limit: 50,
      }),
    );
  const plain = await search({});
  const filtered = await search({ statuses: ['completed', 'failed'] });
  return {
    fts_p95: goal('scale: FTS p95', pct(plain, 0.95), 50, 'ms'),
    fts_with_status_filter_p95: goal('scale: FTS p95 with a status filter', pct(filtered, 0.95), 50, 'ms'),
    ...(await callsPageReads(db, workspaceId, n, total)),
  };
}
