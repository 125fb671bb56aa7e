import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const candidates: Record<string, string[]> = {
  linux: ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'],
  darwin: [
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ],
  win32: [],
};

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The first Chromium-family browser found (PATH on Linux, the usual app paths on macOS). */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | null {
  for (const name of candidates[process.platform] ?? []) {
    if (name.includes('/')) {
      if (executable(name)) return name;
      continue;
    }
    for (const dir of (env.PATH ?? '').split(delimiter)) {
      if (dir && executable(join(dir, name))) return join(dir, name);
    }
  }
  return null;
}

export const hasDisplay = (env: NodeJS.ProcessEnv = process.env) =>
  process.platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);

/** Why the host will not open a window, or null when it will. */
export function whyNotOpen(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CI) return 'CI is set';
  if (!hasDisplay(env)) return 'no display';
  if (!findChromium(env)) return 'no Chromium installed';
  return null;
}

/**
 * Opens `url` in Chromium's app mode with a fresh profile under `<dataDir>/browser-profiles/`
 * (removed again by `dispose`; profiles left by a crash are removed at the next start).
 */
export function openInChromium(
  url: string,
  dataDir: string,
): { child: ChildProcess; dispose(): void } | null {
  const exe = findChromium();
  if (!exe) return null;
  const profiles = join(dataDir, 'browser-profiles');
  mkdirSync(profiles, { recursive: true, mode: 0o700 });
  for (const old of readdirSync(profiles)) rmSync(join(profiles, old), { recursive: true, force: true });
  const profile = mkdtempSync(join(profiles, 'p-'));
  const args = [
    `--app=${url}`,
    `--user-data-dir=${profile}`,
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-sync',
    '--window-size=1280,860',
  ];
  // Chromium refuses to run as root without this; the page is our own loopback app.
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const child = spawn(exe, args, { stdio: 'ignore' });
  child.on('error', () => undefined);
  return {
    child,
    dispose() {
      if (child.exitCode === null) child.kill();
      rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
