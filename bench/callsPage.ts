// node bench/callsPage.ts --data <synced data folder> [--reads 100] [--rounds 1]
//
// The Calls page's reads of the sync bench's scale run (bench/lib/syncScalePages.ts, `callsPageReads`)
// on a data folder already synced (e.g. one kept by `BENCH_SYNC_KEEP=1 npm run bench:sync -- --calls
// 1000000`): the same reads against the same goals, without syncing again, each round with the
// process's CPU-seconds and the load average. Opening the file migrates it: run it on a copy.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { openDbClient } from '../electron/services/db/client.ts';
import { load, round } from './lib/goals.ts';
import { callsPageReads } from './lib/syncScalePages.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    reads: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '1' },
  },
});
if (!values.data) throw new Error('--data <synced data folder> is required');

const file = join(values.data, 'campaign-desk.sqlite');
// The bench's sync keeps no workspace row (its calls are under `url:<sandbox>`): the calls' own.
const workspaceId = (() => {
  const raw = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return raw.prepare(`SELECT workspace_id FROM calls LIMIT 1`).pluck().get() as string | undefined;
  } finally {
    raw.close();
  }
})();
if (!workspaceId) throw new Error(`no calls in ${file}`);
const db = await openDbClient({ file });
try {
  const total = (await db.call('calls.syncState', { workspaceId })).calls;
  for (let r = 0; r < Number(values.rounds); r++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const figures = await callsPageReads(db, workspaceId, Number(values.reads), total);
    const cpu = process.cpuUsage(cpu0);
    console.log(
      JSON.stringify({
        round: r + 1,
        calls: total,
        seconds: round((performance.now() - t0) / 1000),
        cpu_seconds: round((cpu.user + cpu.system) / 1e6),
        load: load(),
        ...figures,
      }),
    );
  }
} finally {
  await db.close();
}
