// Whether the CLI bundled by scripts/build-electron.ts (dist-electron/cli.js) can run in place of
// the TypeScript sources: it exists and none of the files it was built from (listed with the build
// time in cli-inputs.json) changed since. Plain JavaScript: the bin checks this before it loads any
// TypeScript (stripping types costs every thread of a run its start-up).
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const CLI_INPUTS = 'cli-inputs.json';

/**
 * @param {string} root the project folder
 * @param {string} [dir] the bundles' folder (default: dist-electron)
 * @returns {{ entry: string, reason: null } | { entry: null, reason: string }}
 */
export function cliBundle(root, dir = join(root, 'dist-electron')) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(dir, CLI_INPUTS), 'utf8'));
  } catch {
    return { entry: null, reason: `no CLI bundle in ${dir} (npm run build:electron makes it)` };
  }
  const { builtAt, inputs } = manifest;
  if (typeof builtAt !== 'number' || !Array.isArray(inputs))
    return { entry: null, reason: `${join(dir, CLI_INPUTS)} is not a build's list` };
  const entry = join(dir, 'cli.js');
  if (!statSync(entry, { throwIfNoEntry: false })) return { entry: null, reason: `${entry} is missing` };
  for (const input of inputs) {
    const stat = statSync(join(root, input), { throwIfNoEntry: false });
    if (!stat) return { entry: null, reason: `${input} is missing` };
    if (stat.mtimeMs > builtAt) return { entry: null, reason: `${input} changed after the build` };
  }
  return { entry, reason: null };
}
