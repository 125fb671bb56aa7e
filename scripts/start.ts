/**
 * `npm start`: builds what is stale, then runs the Electron app; where Electron's binary cannot be
 * had (it is downloaded from outside the package registry on first run) or cannot show a window,
 * says so in one line and starts the browser host instead (which prints its URL line).
 * Arguments after `--` go to the browser host (`npm start -- --port 8080`).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);

/** Newest modification time under the given paths (files or folders), 0 if none exist. */
export function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path))
        if (name !== 'node_modules' && !name.startsWith('.')) visit(join(path, name));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

export const isStale = (output: string, inputs: string[]) =>
  !existsSync(output) || statSync(output).mtimeMs < newestMtime(inputs);

const at = (...parts: string[]) => join(root, ...parts);

function buildIfStale(name: string, output: string, inputs: string[], script: string): void {
  if (
    !isStale(
      at(output),
      inputs.map((p) => at(p)),
    )
  )
    return;
  console.log(`start: building ${name}…`);
  const result = spawnSync('npm', ['run', '-s', script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`start: building ${name} failed (npm run ${script}).`);
    process.exit(result.status ?? 1);
  }
}

/** The Electron binary, if its package has one already (never triggers a download). */
export function installedElectron(): string | null {
  const pkg = at('node_modules', 'electron');
  try {
    const relative = readFileSync(join(pkg, 'path.txt'), 'utf8').trim();
    const binary = join(pkg, 'dist', relative);
    return existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** A quick look at Electron's download host: offline machines fail fast here, not after a long hang. */
async function downloadHostReachable(): Promise<boolean> {
  const mirror =
    process.env.ELECTRON_MIRROR || process.env.npm_config_electron_mirror || 'https://github.com/';
  try {
    const res = await fetch(mirror, {
      method: 'HEAD',
      signal: AbortSignal.timeout(4000),
      redirect: 'manual',
    });
    await res.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

async function electronBinary(): Promise<{ binary: string } | { why: string }> {
  if (process.env.DESK_HOST === 'browser') return { why: 'Electron is skipped (DESK_HOST=browser)' };
  // First the binary (Electron fetches it on first run), then whether it can show a window.
  let binary = installedElectron();
  if (!binary) {
    if (!(await downloadHostReachable())) {
      return { why: 'Electron could not be downloaded here (no access to its download host)' };
    }
    console.log('start: downloading Electron (first run only)…');
    const install = spawnSync(process.execPath, [at('node_modules', 'electron', 'install.js')], {
      cwd: root,
      stdio: 'inherit',
    });
    binary = installedElectron();
    if (install.status !== 0 || !binary)
      return { why: 'Electron could not be downloaded here (its download failed)' };
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { why: 'Electron cannot show a window here (no display)' };
  }
  return { binary };
}

/** Runs a child with our stdio, passing Ctrl-C/TERM on, and resolves with its exit code. */
function run(child: ChildProcess): Promise<number> {
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(code ?? (signal ? 0 : 1));
    });
  });
}

function startBrowserHost(): Promise<number> {
  return run(
    spawn(process.execPath, [at('electron', 'browser-host', 'main.ts'), ...args], {
      cwd: root,
      stdio: 'inherit',
    }),
  );
}

async function main(): Promise<number> {
  buildIfStale(
    'the UI',
    'dist/renderer/index.html',
    ['renderer', 'shared', 'vite.config.ts', 'package.json'],
    'build:renderer',
  );
  const electron = await electronBinary();
  if ('why' in electron) {
    console.log(`${electron.why}; starting the browser host instead.`);
    return startBrowserHost();
  }
  buildIfStale(
    'the Electron bundles',
    'dist-electron/main.js',
    ['electron', 'shared', 'sandbox', 'scripts/build-electron.ts'],
    'build:electron',
  );
  // Chromium refuses to run as root without this (containers); a normal user keeps its sandbox.
  const extra = process.platform === 'linux' && process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  const startedAt = Date.now();
  const code = await run(spawn(electron.binary, [root, ...extra], { cwd: root, stdio: 'inherit' }));
  if (code !== 0 && Date.now() - startedAt < 5000) {
    console.log(`Electron could not start here (exit code ${code}); starting the browser host instead.`);
    return startBrowserHost();
  }
  return code;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(await main());
