/**
 * Bundles the Electron side into dist-electron/ with esbuild:
 *   main.js            Electron main (ESM; package.json has "type": "module")
 *   db-worker.js       the SQLite worker thread (better-sqlite3 lives only there and in:)
 *   db-checkpointer.js the WAL checkpointer thread started by the SQLite worker
 *   sandbox-worker.js  the embedded sandbox's worker thread
 *   contacts-coordinator.js, contacts-worker.js  the contacts cleaning engine's threads
 *   contacts-xlsx-reader.js                      reads a workbook's sheet beside the coordinator
 *   preload.cjs        the sandboxed preload (sandboxed preloads must be CommonJS)
 *   cli.js             the command line (electron/cli/main.ts), run by bin/campaign-desk.mjs in
 *                      place of the sources while cli-inputs.json says it is up to date
 * Native modules (better-sqlite3, @napi-rs/keyring) and 'electron' stay external. No Electron
 * binary is needed to bundle.
 */
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Metafile } from 'esbuild';
import { CLI_INPUTS } from '../bin/cliBundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const native = ['electron', 'better-sqlite3', '@napi-rs/keyring'];

// Bundled CommonJS dependencies may call require() or read __dirname inside an ES module.
const esmShim = [
  "import { createRequire as __deskCreateRequire } from 'node:module';",
  "import { fileURLToPath as __deskFileURLToPath } from 'node:url';",
  "import { dirname as __deskDirname } from 'node:path';",
  'const require = __deskCreateRequire(import.meta.url);',
  'const __filename = __deskFileURLToPath(import.meta.url);',
  'const __dirname = __deskDirname(__filename);',
].join('\n');

export const bundleFiles = [
  'main.js',
  'db-worker.js',
  'db-checkpointer.js',
  'sandbox-worker.js',
  'contacts-coordinator.js',
  'contacts-worker.js',
  'contacts-xlsx-reader.js',
  'preload.cjs',
  'cli.js',
] as const;

/**
 * The source files the CLI's bundles were built from (cli.js, the chunks it imports and the worker
 * entries it may start; not main.js's own), relative to the project root, and the lock files: a
 * package put in place with older dates (hard links from a store, a copy keeping dates) shows there.
 */
export function cliInputs(metafile: Metafile, outdir: string): string[] {
  const rel = relative(root, outdir).split(sep).join('/');
  const todo = [...bundleFiles].filter((f) => f.endsWith('.js') && f !== 'main.js').map((f) => `${rel}/${f}`);
  const seen = new Set<string>();
  const inputs = new Set<string>();
  for (let out = todo.pop(); out !== undefined; out = todo.pop()) {
    const output = metafile.outputs[out];
    if (!output || seen.has(out)) continue;
    seen.add(out);
    for (const input of Object.keys(output.inputs)) inputs.add(input);
    for (const i of output.imports) if (!i.external) todo.push(i.path);
  }
  for (const lock of ['package-lock.json', 'node_modules/.package-lock.json']) inputs.add(lock);
  return [...inputs].filter((input) => existsSync(join(root, input))).sort();
}

/** Builds every bundle into `outdir` (emptied first). */
export async function buildElectron(outdir: string): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  // Before reading any source: a file saved during the build counts as newer than the bundle.
  const builtAt = Date.now();

  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: {
      main: 'electron/main/index.ts',
      'db-worker': 'electron/services/databaseThread.ts',
      'db-checkpointer': 'electron/services/db/checkpointer.ts',
      'sandbox-worker': 'electron/services/sandbox/startSandbox.ts',
      'contacts-coordinator': 'electron/services/contacts/engine/coordinator.ts',
      'contacts-worker': 'electron/services/contacts/engine/worker.ts',
      'contacts-xlsx-reader': 'electron/services/contacts/engine/xlsxReader.ts',
      cli: 'electron/cli/main.ts',
    },
    outdir,
    // Chunks sit beside the entries: workers are found relative to the running file.
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external: native,
    banner: { js: esmShim },
    sourcemap: 'linked',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
    metafile: true,
  });

  await build({
    absWorkingDir: root,
    entryPoints: { preload: 'electron/preload/index.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'browser',
    target: 'chrome140',
    external: ['electron'],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // Written last: its presence says the build finished.
  writeFileSync(
    join(outdir, CLI_INPUTS),
    JSON.stringify({ builtAt, inputs: cliInputs(metafile, outdir) }, null, 1) + '\n',
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const outdir = join(root, 'dist-electron');
  await buildElectron(outdir);
  const sizes = bundleFiles
    .map((f) => `${f} ${Math.round(statSync(join(outdir, f)).size / 1024)} KB`)
    .join(', ');
  console.log(`build:electron: ${sizes} (${Math.round(performance.now() - t0)} ms)`);
}
