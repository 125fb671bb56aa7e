// The CLI `clean` of the generator's file as the benches run it (bench:contacts, bench:bulk): the
// same mapping as the app's import, outputs in `outDir`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliBundle } from '../../bin/cliBundle.mjs';
import { buildElectron } from '../../scripts/build-electron.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  /** The script to run with node, and what it adds to the environment. */
  script: string;
  env: NodeJS.ProcessEnv;
  /** "bundle" or "sources", and why, for the bench's output. */
  label: string;
}

/**
 * What operators run: bin/campaign-desk.mjs, whose bundle (dist-electron/cli.js) is built first
 * when missing or older than its sources. BENCH_CLI=source runs the sources through the same bin
 * (Node strips the types in every thread).
 */
export async function prepareCli(): Promise<CliRun> {
  const script = join(root, 'bin', 'campaign-desk.mjs');
  if (process.env.BENCH_CLI === 'source')
    return { script, env: { DESK_FROM_SOURCE: '1' }, label: 'sources (BENCH_CLI=source)' };
  const found = cliBundle(root);
  if (found.entry) return { script, env: {}, label: 'bundle dist-electron/cli.js' };
  const t0 = performance.now();
  await buildElectron(join(root, 'dist-electron'));
  const built = cliBundle(root);
  if (!built.entry) throw new Error(`the CLI bundle is still not usable after a build: ${built.reason}`);
  return {
    script,
    env: {},
    label: `bundle dist-electron/cli.js (built now in ${Math.round(performance.now() - t0)} ms: ${found.reason})`,
  };
}

export interface CleanOutputs {
  upload: string;
  rejects: string;
  report: string;
}

export function cleanOutputs(outDir: string, prefix = 'bench'): CleanOutputs {
  return {
    upload: join(outDir, `${prefix}-upload.csv`),
    rejects: join(outDir, `${prefix}-rejects.csv`),
    report: join(outDir, `${prefix}-report.json`),
  };
}

/** Arguments of `campaign-desk clean` for `file` (country IN, the generator's variables, quiet). */
export const cleanArgs = (file: string, outputs: CleanOutputs): string[] => [
  'clean',
  file,
  '--country',
  'IN',
  '--map',
  'callee_name=Name',
  '--map',
  'loan_amount=Loan Amount',
  '--map',
  'due_date=Due Date',
  '--map',
  'language=Language',
  '--out',
  outputs.upload,
  '--rejects',
  outputs.rejects,
  '--report',
  outputs.report,
  '--quiet',
];

/** "load 1.23 2.34 3.45" (1, 5 and 15 minutes): printed with every figure, the machine is shared. */
export const loadText = (loads: number[]): string => `load ${loads.map((l) => l.toFixed(2)).join(' ')}`;
