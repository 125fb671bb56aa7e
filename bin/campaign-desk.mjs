#!/usr/bin/env node
// The `campaign-desk` command: runs electron/cli/main.ts, which needs a Node that strips
// TypeScript types (22.18 or newer). The project's own Node 24 is what `npm run -s cli -- …` uses.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18) || (major === 23 && minor < 6)) {
  process.stderr.write(
    `campaign-desk: needs Node 22.18 or newer (this is Node ${process.versions.node}); ` +
      'run it through the project instead: npm run -s cli -- <command> …\n',
  );
  process.exit(1);
}
const { main, useCompileCache } = await import('../electron/cli/main.ts');
useCompileCache();
process.exitCode = await main(process.argv.slice(2));
