// The CLI `clean` of the generator's file as the benches run it (bench:contacts, bench:bulk): the
// same mapping as the app's import, outputs in `outDir`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const cliPath = fileURLToPath(new URL('../../electron/cli/main.ts', import.meta.url));

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
