// The generator's contact files (../shared/tools/gen-contacts.mjs), made once and reused.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GENERATOR = fileURLToPath(new URL('../../../shared/tools/gen-contacts.mjs', import.meta.url));

/** Path of `<rows>` rows with `seed` in `dir`, generated (atomically) when missing. */
export function ensureContactsFile(rows: number, seed: number, dir: string, flags: string[] = []): string {
  const path = join(dir, `contacts-${rows}-${seed}${flags.map((f) => f.replace(/^--/, '-')).join('')}.csv`);
  if (existsSync(path)) return path;
  if (!existsSync(GENERATOR)) throw new Error(`the generator is missing: ${GENERATOR}`);
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  const run = spawnSync(process.execPath, [GENERATOR, String(rows), String(seed), temp, ...flags], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`gen-contacts failed: ${run.stderr}`);
  renameSync(temp, path);
  return path;
}
