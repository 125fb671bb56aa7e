#!/usr/bin/env node
// The `campaign-desk` command: runs electron/cli/main.ts, which needs a Node that strips
// TypeScript types (22.18 or newer). On an older Node it re-runs itself on the project's pinned
// Node 24 (the `node` devDependency) when that is installed, and otherwise says what to do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18) || (major === 23 && minor < 6)) {
  const pinned = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (existsSync(pinned)) {
    const run = spawnSync(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
      stdio: 'inherit',
    });
    process.exit(run.status ?? (run.signal === 'SIGINT' ? 130 : 1));
  }
  process.stderr.write(
    `campaign-desk: needs Node 22.18 or newer (this is Node ${process.versions.node}); ` +
      'run it through the project instead: npm run -s cli -- <command> …\n',
  );
  process.exit(1);
}
const { main, useCompileCache } = await import('../electron/cli/main.ts');
useCompileCache();
process.exitCode = await main(process.argv.slice(2));
