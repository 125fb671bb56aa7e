// `npm run bench:contacts`: the contacts engine on the generator's 1M-row file (seed 42).
//
// - The CLI as operators run it (`bin/campaign-desk.mjs clean …`: the bundle dist-electron/cli.js,
//   built first when stale; BENCH_CLI=source for the TypeScript sources; default 2 workers) runs as
//   a child process: wall time from spawn to exit (Node start-up included), rows/s, CPU time and
//   peak RSS of the whole child, all threads included (getrusage at exit, bench/lib/peakRssHook.ts).
// - In the same run, the raw baseline: papaparse streaming the same file as text, header:false,
//   also a child process (bench/lib/rawPapaparse.ts). Engine and baseline runs alternate so both
//   see the same machine load; medians of RUNS runs are compared.
// - Then the phone fast path is checked against libphonenumber-js `max` on every number.
// Goals (issue 28): engine wall / raw parse wall ≤ 2.5, peak RSS ≤ 350 MB, each printed met / NOT
// met with the load average (the machine is shared: the 1-minute load at the start and the end).
// The exit code is 0 unless the engine failed or a phone answer disagreed.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanReportSchema } from '../shared/domain/contacts/index.ts';
import { cleanArgs, cleanOutputs, loadText, prepareCli } from './lib/cleanCli.ts';
import { ensureContactsFile } from './lib/contactsFile.ts';
import { measureNodeScript, median } from './lib/measureChild.ts';
import { describeAgreement, verifyPhones } from './lib/verifyPhones.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ROWS = 1_000_000;
const SEED = 42;
const GOAL_RATIO = 2.5;
const GOAL_RSS_MB = 350;

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'bench', 'out');
const rawParse = join(root, 'bench', 'lib', 'rawPapaparse.ts');

const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const seconds = (ms: number): string => `${fmt(ms / 1000, 2)} s`;

mkdirSync(outDir, { recursive: true });
const t0 = performance.now();
const file = ensureContactsFile(ROWS, SEED, outDir);
const generated = performance.now() - t0 > 1000;
console.log(`bench:contacts — ${file}${generated ? ' (generated now)' : ''}`);
const loadAtStart = loadavg();
console.log(
  `machine: ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.versions.node}, ${loadText(loadAtStart)}`,
);

const cli = await prepareCli();
console.log(`CLI: ${cli.label}`);
const outputs = cleanOutputs(outDir);
const args = cleanArgs(file, outputs);

const engine: Array<{ wallMs: number; rssKb: number; cpuMs: number }> = [];
const raw: Array<{ wallMs: number; innerMs: number; cpuMs: number }> = [];
let failed = false;
for (let run = 1; run <= RUNS; run++) {
  const e = await measureNodeScript(cli.script, args, cli.env);
  if (e.code !== 0) {
    console.error(`engine run ${run} failed (exit ${e.code}): ${e.stderr.trim()}`);
    failed = true;
    break;
  }
  const r = await measureNodeScript(rawParse, [file]);
  if (r.code !== 0) {
    console.error(`raw parse run ${run} failed (exit ${r.code}): ${r.stderr.trim()}`);
    failed = true;
    break;
  }
  const inner = (JSON.parse(r.stdout) as { rows: number; ms: number }).ms;
  engine.push({ wallMs: e.wallMs, rssKb: e.peakRssKb ?? Number.NaN, cpuMs: e.cpuMs ?? Number.NaN });
  raw.push({ wallMs: r.wallMs, innerMs: inner, cpuMs: r.cpuMs ?? Number.NaN });
  console.log(
    `  run ${run}: engine ${seconds(e.wallMs)} (CPU ${seconds(e.cpuMs ?? Number.NaN)}, peak ${fmt((e.peakRssKb ?? Number.NaN) / 1024)} MB) · raw papaparse ${seconds(r.wallMs)} (${seconds(inner)} inside, CPU ${seconds(r.cpuMs ?? Number.NaN)}) · ${loadText(loadavg())}`,
  );
}
if (failed) process.exit(1);

const report = cleanReportSchema.parse(JSON.parse(readFileSync(outputs.report, 'utf8')));
const engineWall = median(engine.map((e) => e.wallMs));
const rawWall = median(raw.map((r) => r.wallMs));
const rawInner = median(raw.map((r) => r.innerMs));
const peakMb = Math.max(...engine.map((e) => e.rssKb)) / 1024;
const ratio = engineWall / rawWall;
const engineCpu = median(engine.map((e) => e.cpuMs));
const rawCpu = median(raw.map((r) => r.cpuMs));
const load = `${loadText(loadAtStart)} at the start, ${loadText(loadavg())} at the end`;

console.log('');
console.log(`engine (CLI clean, ${report.split.workers} workers, ${report.split.mode}), median of ${RUNS}:`);
console.log(
  `  wall ${seconds(engineWall)} · ${fmt(report.rows / (engineWall / 1000))} rows/s · CPU ${seconds(engineCpu)} (all threads) · peak RSS ${fmt(peakMb)} MB (max of runs)`,
);
console.log(
  `  ${fmt(report.rows)} rows → ${fmt(report.valid)} valid, ${fmt(report.invalid)} invalid, ${fmt(report.duplicates)} duplicates; phones answered by the fast path ${fmt(report.phone_validation.fast_path)}, by the library ${fmt(report.phone_validation.library)}`,
);
console.log(
  `raw papaparse stream (text, header:false, step), median of ${RUNS}: wall ${seconds(rawWall)} (${seconds(rawInner)} inside the process, CPU ${seconds(rawCpu)})`,
);
console.log(
  `ratio engine / raw parse: ${ratio.toFixed(2)} (wall / wall; goal ≤ ${GOAL_RATIO}: ${ratio <= GOAL_RATIO ? 'met' : 'NOT met'}; ${load}) · against the in-process parse time: ${(engineWall / rawInner).toFixed(2)} · CPU / CPU: ${(engineCpu / rawCpu).toFixed(2)}`,
);
console.log(
  `peak memory: ${fmt(peakMb)} MB (goal ≤ ${GOAL_RSS_MB} MB: ${peakMb <= GOAL_RSS_MB ? 'met' : 'NOT met'}; ${load})`,
);
for (const path of Object.values(outputs)) rmSync(path, { force: true });

console.log('');
const agreement = await verifyPhones(file, 'IN');
console.log(describeAgreement(agreement));
process.exitCode = agreement.disagreementCount === 0 ? 0 : 1;
