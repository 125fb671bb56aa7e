// node bench/syncStoreMargin.ts --file <a synced campaign-desk.sqlite: a COPY, it is written>
//   [--rows 40000] [--batch 4000] [--cache-mb 64] [--drop index,index] [--no-checkpoint]
//
// What one more stored call costs on a file of the size given: `--rows` new calls (copies of
// stored rows with a new id, number, duration and a later time, as a sync's next pages bring)
// stored through the sync's own upsert (calls/store/upsertCalls.ts: row, indexes, search index,
// chart aggregates) in `--batch`-row transactions, on a connection opened as the DB worker opens
// it; after each batch a second connection checkpoints (PASSIVE), as the checkpointer thread does.
// Prints µs per call for the upserts and the checkpoints, CPU and the bytes read and written.
// --drop: indexes dropped first (what each costs at this size); --cache-mb: the writer's cache.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { openDatabase } from '../electron/services/db/openDatabase.ts';
import { upsertCalls } from '../electron/services/calls/store/upsertCalls.ts';
import type { CallColumnsBatch } from '../electron/services/sync/callRow.ts';
import { load, round } from './lib/goals.ts';

const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    rows: { type: 'string', default: '40000' },
    batch: { type: 'string', default: '4000' },
    'cache-mb': { type: 'string' },
    drop: { type: 'string', default: '' },
    'no-checkpoint': { type: 'boolean', default: false },
    shadow: { type: 'string', default: '' },
    'wal-pages': { type: 'boolean', default: false },
    warm: { type: 'string', default: '2' },
    'checkpoint-every': { type: 'string', default: '1' },
    'numbers-key': { type: 'string' },
    'fallback-pages': { type: 'string', default: '16384' },
  },
});
const file = values.file!;
const rows = Number(values.rows);
const batchRows = Number(values.batch);

const io = (): Record<string, number> =>
  Object.fromEntries(
    readFileSync('/proc/self/io', 'utf8')
      .trim()
      .split('\n')
      .map((l) => {
        const [k, v] = l.split(': ');
        return [k!, Number(v)];
      }),
  );
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const db = openDatabase(file);
if (values['cache-mb']) db.pragma(`cache_size = -${Number(values['cache-mb']) * 1024}`);
// The writer's fallback while the checkpointer runs (off when checkpoints are spaced by --checkpoint-every).
db.pragma(
  `wal_autocheckpoint = ${values['no-checkpoint'] || values['checkpoint-every'] !== '1' ? 0 : Number(values['fallback-pages'])}`,
);
for (const name of values.drop!.split(',').filter(Boolean)) db.exec(`DROP INDEX ${name}`);
// --numbers-key: call_agg_numbers rebuilt with this primary key (its columns and rows unchanged).
if (values['numbers-key']) {
  const sql = db
    .prepare(`SELECT sql FROM sqlite_master WHERE name = 'call_agg_numbers'`)
    .pluck()
    .get() as string;
  db.exec(`ALTER TABLE call_agg_numbers RENAME TO call_agg_numbers_old;
    ${sql.replace(/PRIMARY KEY \([^)]*\)/, `PRIMARY KEY (${values['numbers-key']})`)};
    INSERT INTO call_agg_numbers SELECT * FROM call_agg_numbers_old; DROP TABLE call_agg_numbers_old;`);
}
// --shadow fts,agg: the search index or the aggregates written to temp tables of the same names
// (in memory) instead: what their writes to the file cost at this size.
const shadow = new Set(values.shadow!.split(',').filter(Boolean));
if (shadow.has('fts'))
  db.exec(`CREATE TEMP TABLE calls_fts (transcript_text, name, number_text, calls_fts, rank)`);
if (shadow.has('agg'))
  for (const sql of db
    .prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name LIKE 'call_agg_%'`)
    .pluck()
    .all() as string[])
    db.exec(sql.replace(/^CREATE TABLE/, 'CREATE TEMP TABLE'));
db.pragma('temp_store = MEMORY');
const checkpointer = values['no-checkpoint'] ? null : new Database(file);
const stored = db.prepare(`SELECT count(*) FROM calls`).pluck().get() as number;
const workspaceId = db.prepare(`SELECT workspace_id FROM calls LIMIT 1`).pluck().get() as string;
const maxMs = db.prepare(`SELECT max(created_ms) FROM calls`).pluck().get() as number;

// Source rows: a sample of stored calls spread over the file (their text, status, agent, raw).
const source = db
  .prepare(
    `SELECT to_number, name, status, sub_status, terminal, created_at, created_ms, attempt_ms, call_duration,
       call_cost, voicemail, agent_id, agent_name, transcript_raw, transcript_text, number_text, raw
     FROM calls WHERE seq % ? = 0 LIMIT ?`,
  )
  .all(Math.max(1, Math.floor(stored / rows)), rows) as Array<Record<string, unknown>>;

let rng = 12345;
const rand = () => (rng = (rng * 1103515245 + 12345) % 2147483648) / 2147483648;

let made = 0;
function batchOf(from: number, n: number): CallColumnsBatch {
  const b: Record<string, unknown[]> = {};
  const push = (k: string, v: unknown) => (b[k] ??= []).push(v);
  for (let i = from; i < from + n; i++) {
    const s = source[i % source.length]!;
    const createdMs = maxMs + 1000 + made++ * 2600; // later than everything stored, a sync's next windows
    const number = `+919${String(100000000 + Math.floor(rand() * 899999999))}`;
    const answered = s.call_duration !== null && (s.call_duration as number) > 0;
    push('id', randomUUID());
    push('to_number', number);
    push('name', s.name);
    push('status', s.status);
    push('sub_status', s.sub_status);
    push('terminal', s.terminal);
    push('created_at', new Date(createdMs).toISOString());
    push('created_ms', createdMs);
    push('attempt_ms', s.attempt_ms === null ? null : createdMs + 30_000);
    push('call_duration', answered ? Math.round((20 + rand() * 220) * 1000) / 1000 : s.call_duration);
    push('call_cost', s.call_cost);
    push('voicemail', s.voicemail);
    push('agent_id', s.agent_id);
    push('agent_name', s.agent_name);
    push('transcript_raw', s.transcript_raw);
    push('transcript_text', s.transcript_text);
    push('number_text', number.slice(1));
    push('raw', s.raw);
    push('recordingUrl', null);
    push('recordingExpiresMs', null);
  }
  return b as unknown as CallColumnsBatch;
}

// --warm batches stored first, untimed: the sample's reads above left the cache holding calls
// rows, not the indexes a sync keeps warm.
for (let w = 0; w < Number(values.warm); w++) {
  upsertCalls(db, {
    workspaceId,
    bulkListId: null,
    rows: batchOf(w * batchRows, batchRows),
    nowIso: new Date().toISOString(),
  });
  checkpointer?.pragma('wal_checkpoint(PASSIVE)');
}
const batches: CallColumnsBatch[] = [];
for (let i = 0; i < rows; i += batchRows) batches.push(batchOf(i, Math.min(batchRows, rows - i)));

const io0 = io();
const c0 = cpu();
let upsertMs = 0;
let checkpointMs = 0;
let upsertCpu = 0;
const perBatch: number[] = [];
const frames: number[] = [];
for (const rowsOf of batches) {
  const t0 = performance.now();
  const u0 = cpu();
  upsertCalls(db, { workspaceId, bulkListId: null, rows: rowsOf, nowIso: new Date().toISOString() });
  upsertCpu += cpu() - u0;
  const t1 = performance.now();
  const due = (batches.indexOf(rowsOf) + 1) % Number(values['checkpoint-every']) === 0;
  const ck = (due ? checkpointer?.pragma('wal_checkpoint(PASSIVE)') : undefined) as
    Array<{ busy: number; log: number; checkpointed: number }> | undefined;
  frames.push(ck?.[0]?.log ?? 0);
  const t2 = performance.now();
  upsertMs += t1 - t0;
  checkpointMs += t2 - t1;
  perBatch.push(Math.round(((t1 - t0) * 1000) / rowsOf.id.length));
}
const c1 = cpu();
const io1 = io();
const perCall = (x: number) => round(x / rows, 1);
console.log(
  JSON.stringify({
    stored,
    rows,
    batch: batchRows,
    cache_mb: values['cache-mb'] ?? 64,
    dropped: values.drop,
    checkpoint_every: values['checkpoint-every'],
    fallback_pages: values['fallback-pages'],
    shadow: values.shadow,
    upsert_us_per_call: perCall(upsertMs * 1000),
    checkpoint_us_per_call: perCall(checkpointMs * 1000),
    cpu_us_per_call: perCall((c1 - c0) * 1e6),
    upsert_cpu_us_per_call: perCall(upsertCpu * 1e6),
    kb_written_per_call: perCall((io1.wchar! - io0.wchar!) / 1000),
    kb_read_per_call: perCall((io1.rchar! - io0.rchar!) / 1000),
    per_batch_us: perBatch.join(' '),
    wal_frames_per_batch: frames.join(' '),
    load: load(),
  }),
);
// --wal-pages (with --no-checkpoint): which b-trees the WAL's frames belong to.
if (values['wal-pages']) {
  const wal = readFileSync(`${file}-wal`);
  const pageSize = wal.readUInt32BE(8);
  const counts = new Map<number, number>();
  for (let off = 32; off + 24 + pageSize <= wal.length; off += 24 + pageSize) {
    const page = wal.readUInt32BE(off);
    counts.set(page, (counts.get(page) ?? 0) + 1);
  }
  const owner = new Map<number, string>();
  for (const r of db.prepare(`SELECT pageno, name, pagetype FROM dbstat`).iterate() as Iterable<{
    pageno: number;
    name: string;
    pagetype: string;
  }>)
    owner.set(r.pageno, `${r.name} ${r.pagetype}`);
  const byName = new Map<string, { frames: number; pages: number }>();
  for (const [page, n] of counts) {
    const k = owner.get(page) ?? '(freelist, pointer map)';
    const e = byName.get(k) ?? { frames: 0, pages: 0 };
    e.frames += n;
    e.pages++;
    byName.set(k, e);
  }
  for (const [k, v] of [...byName].sort((a, b) => b[1].frames - a[1].frames).slice(0, 25))
    console.log(`${k.padEnd(40)} frames ${v.frames} pages ${v.pages}`);
}
checkpointer?.close();
db.close();
