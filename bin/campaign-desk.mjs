#!/usr/bin/env node
// The `campaign-desk` command: runs the CLI bundled by `npm run build:electron`
// (dist-electron/cli.js) while it is up to date with its sources (bin/cliBundle.mjs), otherwise
// electron/cli/main.ts itself; DESK_DEBUG=1 says which, DESK_FROM_SOURCE=1 forces the sources.
// Either needs Node 22.18 or newer (the sources because Node strips their types). On an older Node
// it re-runs itself on the project's pinned Node 24 (the `node` devDependency) when that is
// installed, and otherwise says what to do.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
// Imported only now: a copy of this file alone must still reach the message above.
const { cliBundle } = await import('./cliBundle.mjs');
const bundle = process.env.DESK_FROM_SOURCE
  ? { entry: null, reason: 'DESK_FROM_SOURCE is set' }
  : cliBundle(fileURLToPath(new URL('..', import.meta.url)));
if (process.env.DESK_DEBUG)
  process.stderr.write(
    bundle.entry
      ? `campaign-desk: running the bundle ${bundle.entry}\n`
      : `campaign-desk: running the sources (${bundle.reason})\n`,
  );
const { main, useCompileCache } = await import(
  bundle.entry ? pathToFileURL(bundle.entry).href : '../electron/cli/main.ts'
);
useCompileCache();
process.exitCode = await main(process.argv.slice(2));
