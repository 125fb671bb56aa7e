// The sync bench's scale run, the screens over every synced call (issue 28): the Charts page's data
// (calls.stats, as calls:stats asks it), a 100,000-row campaign's Campaign results (its contact list
// imported through the contacts service and linked as a launch links it) and the CLI's
// `calls export` of all calls, as an operator runs it; each timed against its goal.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { createContactsService } from '../../electron/services/contacts/contactsService.ts';
import { importThroughService } from '../../electron/services/contacts/testing.ts';
import type { DbClient } from '../../electron/services/db/client.ts';
import { silentLogger } from '../../electron/services/logging/logger.ts';
import type { SandboxProcess } from '../../electron/services/api/testing/sandboxProcess.ts';
import { runHistorySync } from '../../electron/services/sync/historySync.ts';
import { historyFetcher } from '../../electron/services/sync/testing.ts';
import { goal, pct, round } from './goals.ts';

/** The seeded campaign of the scale run: the first 100,000 calls the sandbox seeds carry it. */
export const SCALE_CAMPAIGN = 'bench-campaign-100k';

const cli = fileURLToPath(new URL('../../electron/cli/main.ts', import.meta.url));

/** Milliseconds of `runs` calls after one warm-up, sorted. */
async function timed(runs: number, f: () => Promise<unknown>): Promise<number[]> {
  await f();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  return ms.sort((a, b) => a - b);
}

/** The Charts page over all calls (every chart's data in one calls.stats answer). */
export async function chartsPart(db: DbClient, workspaceId: string) {
  const ms = await timed(5, () =>
    db.call('calls.stats', { workspaceId, filter: {}, timeZone: 'Asia/Kolkata' }),
  );
  return {
    runs: ms.length,
    longest_ms: round(ms.at(-1) ?? 0),
    median: goal('scale: Charts over all calls, median of 5', pct(ms, 0.5), 1000, 'ms'),
  };
}

/**
 * The campaign's Campaign results as the view opens them (counts per outcome and the first 100 rows).
 * A call's campaign comes from a campaign pass (history asked with its bulk_list_id, as the sync
 * does for campaigns launched here; the records do not name it): run first, apart from the timed
 * full sync. Its calls' numbers and names (calls.export) become the contact list a launch would
 * have sent, imported through the contacts service, and linked to the campaign (campaign_lists,
 * the row a launch writes, written on a second connection as the tests do).
 */
export async function campaignResultsPart(
  db: DbClient,
  dataDir: string,
  workspaceId: string,
  s: SandboxProcess,
  fromMs: number,
) {
  const p0 = performance.now();
  await runHistorySync({
    db,
    workspaceId,
    fetchHistory: historyFetcher(s),
    signal: new AbortController().signal,
    campaign: { bulkListId: SCALE_CAMPAIGN, fromMs },
  });
  const passSeconds = (performance.now() - p0) / 1000;
  const lines = ['Name,Mobile Number'];
  for await (const page of db.stream('calls.export', {
    workspaceId,
    filter: { bulkListId: SCALE_CAMPAIGN },
  }))
    for (const r of page) lines.push(`${r.name ?? ''},${r.to_number ?? ''}`);
  const t0 = performance.now();
  const service = createContactsService({ db, logger: silentLogger, dataDir });
  const { list } = await importThroughService(service, new TextEncoder().encode(`${lines.join('\n')}\n`), {
    country: 'IN',
    name: 'scale campaign',
  });
  await service.settle();
  const importSeconds = (performance.now() - t0) / 1000;
  const file = new Database(join(dataDir, 'campaign-desk.sqlite'));
  try {
    file.pragma('busy_timeout = 10000');
    file
      .prepare(`INSERT INTO campaign_lists (workspace_id, bulk_list_id, list_id) VALUES (?, ?, ?)`)
      .run(workspaceId, SCALE_CAMPAIGN, list.id);
  } finally {
    file.close();
  }
  let rows = 0;
  const ms = await timed(3, async () => {
    const r = await db.call('calls.campaignResults', {
      workspaceId,
      bulkListId: SCALE_CAMPAIGN,
      offset: 0,
      limit: 100,
    });
    rows = r?.total ?? 0;
  });
  return {
    campaign_pass_seconds: round(passSeconds),
    campaign_calls: lines.length - 1,
    contact_rows: list.counts.rows,
    rows_with_results: rows,
    contact_import_seconds: round(importSeconds),
    longest_ms: round(ms.at(-1) ?? 0),
    median: goal('scale: Campaign results of a 100k-row campaign, median of 3', pct(ms, 0.5), 2000, 'ms'),
  };
}

/** `campaign-desk calls export --data <dir> --out <file>` of every call, as a child process. */
export async function exportPart(dataDir: string, stored: number) {
  const out = join(dataDir, '..', 'calls-export.csv');
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, 'calls', 'export', '--data', dataDir, '--out', out], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  child.stdout.on('data', (d: Buffer) => (said += d.toString()));
  child.stderr.on('data', (d: Buffer) => (said += d.toString()));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  const seconds = (performance.now() - t0) / 1000;
  if (code !== 0) throw new Error(`campaign-desk calls export exited ${code}: ${said}`);
  const bytes = statSync(out).size;
  // Rows: the lines after the header (no cell holds a line break: names, ids, statuses, times).
  const text = readFileSync(out, 'latin1');
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  rmSync(out, { force: true });
  return {
    said: said.trim(),
    rows: lines - 1,
    every_call: goal('scale: calls missing from the export', stored - (lines - 1), 0, 'calls'),
    megabytes: round(bytes / 1e6, 1),
    seconds: goal('scale: calls export of all calls by the CLI', seconds, 20, 's'),
  };
}
