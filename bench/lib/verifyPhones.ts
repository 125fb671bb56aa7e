// `npm run verify:phones [-- <file.csv> [country]]`: proves the phone fast path agrees with
// libphonenumber-js `max` on every number of a file (default: the generator's 1M-row file, seed 42,
// made in bench/out when missing).
// The library side is slow (~12 µs a number), so the numbers are checked on two threads.
// Exit 0 when every answer agrees, 1 otherwise (the first disagreements are printed).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { CountryCode } from 'libphonenumber-js/max';
import { ensureContactsFile } from './contactsFile.ts';
import { checkPhoneAgreement, combineAgreement } from './phoneAgreement.ts';
import type { AgreementResult } from './phoneAgreement.ts';
import { phoneColumnValues } from './phoneColumnValues.ts';

const OUT_DIR = fileURLToPath(new URL('../out/', import.meta.url));

interface Job {
  raws: string[];
  country: CountryCode;
}

function checkOnThread(job: Job): Promise<AgreementResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: job });
    worker.once('message', (result: AgreementResult) => resolve(result));
    worker.once('error', reject);
  });
}

export async function verifyPhones(
  path: string,
  country = 'IN',
  threads = Math.min(2, availableParallelism()),
) {
  const started = performance.now();
  const { raws, country: resolved, column } = phoneColumnValues(path, country);
  const size = Math.ceil(raws.length / threads);
  const parts = await Promise.all(
    Array.from({ length: threads }, (_, i) =>
      checkOnThread({ raws: raws.slice(i * size, (i + 1) * size), country: resolved }),
    ),
  );
  return {
    ...combineAgreement(parts),
    column,
    country: resolved,
    seconds: (performance.now() - started) / 1000,
  };
}

export function describeAgreement(r: Awaited<ReturnType<typeof verifyPhones>>): string {
  const pct = (x: number) => ((100 * x) / Math.max(1, r.checked)).toFixed(1);
  const lines = [
    `phone fast path vs libphonenumber-js max (column "${r.column}", default ${r.country}): ${r.checked.toLocaleString('en-US')} numbers checked in ${r.seconds.toFixed(1)} s`,
    `  answered by the fast path: ${r.fastPath.toLocaleString('en-US')} (${pct(r.fastPath)}%), by the library: ${r.library.toLocaleString('en-US')} (${pct(r.library)}%); valid: ${r.valid.toLocaleString('en-US')}`,
    r.disagreementCount === 0
      ? "  disagreements: 0 — the engine gives the library's answer for every number"
      : `  DISAGREEMENTS: ${r.disagreementCount.toLocaleString('en-US')}`,
  ];
  for (const d of r.disagreements)
    lines.push(`    ${JSON.stringify(d.raw)}: engine ${d.engine}, library ${d.library}`);
  return lines.join('\n');
}

if (!isMainThread) {
  const job = workerData as Job;
  parentPort?.postMessage(checkPhoneAgreement(job.raws, job.country));
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const path = process.argv[2] ?? ensureContactsFile(1_000_000, 42, OUT_DIR);
  if (!existsSync(path)) {
    console.error(`verify:phones: ${path} does not exist`);
    process.exit(2);
  }
  const result = await verifyPhones(path, process.argv[3] ?? 'IN');
  console.log(describeAgreement(result));
  process.exitCode = result.disagreementCount === 0 ? 0 : 1;
}
