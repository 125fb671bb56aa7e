// `npm run bench:suppression`: the do-not-call check on the generator's 1M-row list (seed 42)
// against a 1M-number suppression list, in a real SQLite file through the real contacts service
// and database worker. It prints, in one run: the import (engine + storage, as bench:bulk does it),
// the check the Summary runs after it (`suppression.listCheck`: rows held back, per reason), and
// the upload file written with and without suppressed numbers (the launch's export).
// Goal: the check adds ≤ 15% to the import. Figures are printed as measured.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SuppressionEntry } from '../shared/domain/suppression.ts';
import type { EngineSetup } from '../shared/domain/contacts/index.ts';
import { openDbClient } from '../electron/services/db/client.ts';
import { silentLogger } from '../electron/services/logging/logger.ts';
import { createContactsService } from '../electron/services/contacts/contactsService.ts';
import { writeExport } from '../electron/services/contacts/exportFile.ts';
import { importThroughService } from '../electron/services/contacts/testing.ts';
import { ensureContactsFile } from './lib/contactsFile.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SUPPRESSED = Number(process.env.BENCH_SUPPRESSED ?? 1_000_000);
const SEED = 42;
const GOAL_SHARE = 0.15;
const WS = 'bench-workspace';

const root = fileURLToPath(new URL('..', import.meta.url));
const file = ensureContactsFile(ROWS, SEED, join(root, 'bench', 'out'));
const dir = mkdtempSync(join(tmpdir(), 'bench-suppression-'));
const db = await openDbClient({ file: join(dir, 'campaign-desk.sqlite') });
const service = createContactsService({ db, logger: silentLogger, dataDir: dir });
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const s = (ms: number) => `${fmt(ms / 1000, 2)} s`;

try {
  console.log(
    `bench:suppression — ${fmt(ROWS)} rows against ${fmt(SUPPRESSED)} suppressed numbers; ${availableParallelism()} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const t0 = performance.now();
  const { list } = await importThroughService(service, readFileSync(file), { blockBytes: 256 * 1024 });
  await service.settle();
  const importMs = performance.now() - t0;
  console.log(
    `  import              ${s(importMs)} (${fmt(list.counts.rows)} rows, ${fmt(list.counts.valid)} valid)`,
  );

  // The suppression list: every other number of the list, then numbers the list does not hold.
  const numbers: number[] = [];
  for await (const page of db.stream('suppression.listRows', { listId: list.id, batch: 20_000 }))
    for (const r of page) numbers.push(r.e164);
  const picked = numbers.filter((_, i) => i % 2 === 0).slice(0, SUPPRESSED);
  const expected = picked.length;
  // Country code 999 is not assigned: no row of the list can hold these.
  for (let n = 999_000_000_000; picked.length < SUPPRESSED; n += 7) picked.push(n);
  const at = new Date().toISOString();
  const entry = (e164: number, i: number): SuppressionEntry => ({
    e164,
    reason: i % 3 === 0 ? 'opted_out' : 'imported',
    sources: [{ kind: 'file', ref: 'bench.csv', at }],
    addedBy: 'bench',
    addedAt: at,
    expiresAt: null,
  });
  const t1 = performance.now();
  for (let i = 0; i < picked.length; i += 5000)
    await db.call('suppression.add', {
      workspaceId: WS,
      entries: picked.slice(i, i + 5000).map((e, k) => entry(e, i + k)),
    });
  console.log(`  suppression list    ${fmt(picked.length)} numbers stored in ${s(performance.now() - t1)}`);

  const t2 = performance.now();
  const byReason = await db.call('suppression.listCheck', { listId: list.id, workspaceId: WS });
  const checkMs = performance.now() - t2;
  const held = Object.values(byReason).reduce<number>((a, b) => a + (b ?? 0), 0);
  console.log(
    `  check (Summary)     ${s(checkMs)}: ${fmt(held)} rows held back (expected ${fmt(expected)}) ${JSON.stringify(byReason)}`,
  );

  const setup = JSON.parse((await db.call('contacts.list', { listId: list.id }))!.setup) as EngineSetup;
  const t3 = performance.now();
  const plain = await writeExport(db, list.id, setup, 'upload', join(dir, 'plain.csv'), undefined, {
    workspaceId: 'no-such-workspace',
  });
  const plainMs = performance.now() - t3;
  const t4 = performance.now();
  const kept = await writeExport(db, list.id, setup, 'upload', join(dir, 'kept.csv'), undefined, {
    workspaceId: WS,
  });
  const keptMs = performance.now() - t4;
  console.log(
    `  upload export       ${s(plainMs)} without the list (${fmt(plain.rows)} rows), ${s(keptMs)} with it (${fmt(kept.rows)} rows)`,
  );
  const share = checkMs / importMs;
  console.log(
    `  the check adds ${fmt(share * 100, 1)}% to the import (goal ≤ ${GOAL_SHARE * 100}%: ${share <= GOAL_SHARE ? 'met' : 'NOT met'})`,
  );
  if (held !== expected || plain.rows - kept.rows !== expected) {
    console.error('bench:suppression: the counts disagree');
    process.exitCode = 1;
  }
} finally {
  await service.settle();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}
