// `npm run bench:xlsx`: an Excel workbook at Excel's row limit (1,048,576 rows: a header and
// 1,048,575 contacts on the second sheet, generated here with a seed) cleaned by the CLI, against
// the same rows as a CSV cleaned by the same CLI in the same run (the baseline), plus the workbook
// reader alone. Each is a child process: wall time (spawn to exit), CPU time (steadier than wall
// time on a shared machine) and peak RSS of the whole process (every thread). The upload and
// rejects files of the two paths must be identical.
// Figures are printed as measured; the exit code is 0 unless a run failed or the files differ.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanReportSchema } from '../shared/domain/contacts/index.ts';
import { writeContactsCsv, writeContactsWorkbook } from './lib/contactsWorkbook.ts';
import { measureNodeScript, median } from './lib/measureChild.ts';
import type { ChildMeasure } from './lib/measureChild.ts';
import { prepareCli } from './lib/cleanCli.ts';

const ROWS = Number(process.env.BENCH_XLSX_ROWS ?? 1_048_575);
const SEED = 42;
const RUNS = Number(process.env.BENCH_RUNS ?? 1);

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'bench', 'out');
const reader = join(root, 'bench', 'lib', 'readWorkbook.ts');
const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mb = (kb: number | null): string => (kb === null ? 'n/a' : `${fmt(kb / 1024)} MB`);

mkdirSync(outDir, { recursive: true });
const workbook = join(outDir, `contacts-${ROWS}-${SEED}.xlsx`);
const csv = join(outDir, `contacts-${ROWS}-${SEED}-from-xlsx.csv`);
for (const [path, write] of [
  [workbook, writeContactsWorkbook],
  [csv, writeContactsCsv],
] as const) {
  if (existsSync(path)) continue;
  const t = performance.now();
  write(path, ROWS, SEED);
  console.log(`generated ${path} in ${fmt((performance.now() - t) / 1000, 1)} s`);
}
console.log(`bench:xlsx — ${ROWS.toLocaleString('en-US')} rows + header`);
console.log(`  workbook ${workbook} (${mb(statSync(workbook).size / 1024)})`);
console.log(`  same rows as CSV ${csv} (${mb(statSync(csv).size / 1024)})`);
console.log(
  `machine: ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.versions.node}, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

const outputs = (kind: string) => ({
  upload: join(outDir, `xlsx-bench-${kind}-upload.csv`),
  rejects: join(outDir, `xlsx-bench-${kind}-rejects.csv`),
  report: join(outDir, `xlsx-bench-${kind}-report.json`),
});
// What operators run: bin/campaign-desk.mjs on its bundle, built first when stale (cleanCli.ts).
const cli = await prepareCli();
console.log(`  CLI: ${cli.label}`);
const clean = (input: string, kind: string, extra: string[]): Promise<ChildMeasure> => {
  const o = outputs(kind);
  return measureNodeScript(
    cli.script,
    [
      'clean',
      input,
      '--country',
      'IN',
      '--quiet',
      ...extra,
      '--out',
      o.upload,
      '--rejects',
      o.rejects,
      '--report',
      o.report,
    ],
    cli.env,
  );
};

const runs: Record<'xlsx' | 'csv' | 'reader', ChildMeasure[]> = { xlsx: [], csv: [], reader: [] };
let failed = false;
for (let i = 0; i < RUNS; i++) {
  // Alternate, so every path sees the same machine load.
  runs.xlsx.push(await clean(workbook, 'xlsx', ['--sheet', 'Contacts']));
  runs.csv.push(await clean(csv, 'csv', []));
  runs.reader.push(await measureNodeScript(reader, [workbook, 'Contacts']));
}
for (const [name, list] of Object.entries(runs)) {
  for (const r of list)
    if (r.code !== 0) {
      failed = true;
      console.log(`${name} run failed (exit ${r.code}): ${r.stderr.trim().split('\n').pop() ?? ''}`);
    }
}

const line = (label: string, list: ChildMeasure[]): number => {
  const wall = median(list.map((r) => r.wallMs));
  const rss = list.map((r) => r.peakRssKb).filter((k): k is number => k !== null);
  const cpu = list.map((r) => r.cpuMs).filter((k): k is number => k !== null);
  console.log(
    `${label.padEnd(34)} ${fmt(wall / 1000, 2).padStart(7)} s wall  ${fmt(ROWS / (wall / 1000)).padStart(9)} rows/s  CPU ${cpu.length ? `${fmt(median(cpu) / 1000, 2)} s` : 'n/a'}  peak RSS ${mb(rss.length ? Math.max(...rss) : null)}`,
  );
  return cpu.length === list.length ? median(cpu) : wall;
};
const xlsxCost = line('CLI clean, workbook (--sheet)', runs.xlsx);
const csvCost = line('CLI clean, same rows as CSV', runs.csv);
line('workbook reader alone (all rows)', runs.reader);
console.log(
  `ratio workbook / CSV: ${fmt(xlsxCost / csvCost, 2)} (median of ${RUNS} run${RUNS > 1 ? 's' : ''})`,
);
const readerRows = /rows (\d+)/.exec(runs.reader[0]?.stdout ?? '')?.[1];
if (Number(readerRows) !== ROWS + 1) {
  failed = true;
  console.log(`the reader saw ${readerRows ?? 'no'} rows, expected ${ROWS + 1}`);
}

if (!failed) {
  const x = outputs('xlsx');
  const c = outputs('csv');
  const report = cleanReportSchema.parse(JSON.parse(readFileSync(x.report, 'utf8')));
  console.log(
    `report: sheet "${report.sheet}", ${fmt(report.rows)} rows → ${fmt(report.valid)} valid, ${fmt(report.invalid)} invalid, ${fmt(report.duplicates)} duplicates`,
  );
  for (const kind of ['upload', 'rejects'] as const) {
    const same = readFileSync(x[kind]).equals(readFileSync(c[kind]));
    console.log(`${kind} file: ${same ? 'identical to the CSV path' : 'DIFFERS from the CSV path'}`);
    if (!same) failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
