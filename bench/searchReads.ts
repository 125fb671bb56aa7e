// The sync bench's search reads (bench/lib/syncScaleRun.ts readLatencies) again on a kept data
// folder, without syncing: `node bench/searchReads.ts --data <folder> [--n 100] [--rounds 1]`.
// Opens the file (migrating it: pass a copy, never a shared original), then times `calls.list`
// with a search (first page of 50, snippets, total) through the app's read lane, each term class
// apart (word, 3-letter prefix; alone and with a status filter), with the load average.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parseArgs } from 'node:util';
import { openDbClient } from '../electron/services/db/client.ts';
import { load, pct, round } from './lib/goals.ts';
import { searchTerms, searchSpec } from './lib/syncScaleSearch.ts';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    n: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '1' },
  },
});
if (!values.data) throw new Error('--data <data folder> is required (a copy: opening it migrates it)');
const n = Number(values.n);
const file = join(values.data, 'campaign-desk.sqlite');
const db = await openDbClient({ file });
try {
  await db.readLane;
  // The CLI's sync stores calls under its base URL's workspace (no workspaces row).
  const reader = new Database(file, { readonly: true });
  const workspaceId = reader.prepare(`SELECT workspace_id FROM calls LIMIT 1`).pluck().get() as
    string | undefined;
  reader.close();
  if (!workspaceId) throw new Error('no calls in that data folder');
  const terms = await searchTerms(db, workspaceId);
  console.log(`terms: ${terms.length}, load ${load().join(' ')}`);
  for (let round_ = 0; round_ < Number(values.rounds); round_++)
    for (const statuses of [undefined, ['completed', 'failed']]) {
      const byClass: Record<string, { ms: number; total: number; term: string }[]> = { word: [], prefix: [] };
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < n; i++) {
        const spec = searchSpec(terms, i);
        const t0 = performance.now();
        const res = await db.call('calls.list', {
          workspaceId,
          filter: { ...(statuses ? { statuses } : {}), search: spec.search },
          offset: 0,
          limit: 50,
        });
        byClass[spec.prefix ? 'prefix' : 'word']!.push({
          ms: performance.now() - t0,
          total: res.total,
          term: spec.search,
        });
      }
      const cpu = process.cpuUsage(cpu0);
      const all = Object.values(byClass)
        .flat()
        .map((x) => x.ms)
        .sort((a, b) => a - b);
      const line = (name: string, l: { ms: number; total: number; term: string }[]) => {
        const s = [...l].sort((a, b) => a.ms - b.ms);
        const ms = s.map((x) => x.ms);
        const worst = s.slice(-3).map((x) => `${x.term}:${round(x.ms, 1)}ms/${x.total}`);
        return `  ${name}: n ${s.length}, p50 ${round(pct(ms, 0.5))} ms, p95 ${round(pct(ms, 0.95))} ms, slowest ${worst.join(' ')}`;
      };
      console.log(
        `${statuses ? 'with a status filter' : 'alone'}: p50 ${round(pct(all, 0.5))} ms, p95 ${round(pct(all, 0.95))} ms, ` +
          `process CPU ${round((cpu.user + cpu.system) / 1e6)} s, load ${load().join(' ')}`,
      );
      for (const [k, l] of Object.entries(byClass)) console.log(line(k, l));
    }
} finally {
  await db.close();
}
