import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The Node 24 that our .ts entry points need (`npx node` resolves to the `node` devDependency).
 * We run it directly, without npx, so the child we stop is the server itself.
 */
export function nodeBinary(): string {
  const pinned = path.join(repoRoot, 'node_modules/node/bin/node');
  if (existsSync(pinned)) return pinned;
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 24) return process.execPath;
  throw new Error(
    `e2e needs Node 24 for the servers; found ${process.version} and no node_modules/node. Run npm ci.`,
  );
}
