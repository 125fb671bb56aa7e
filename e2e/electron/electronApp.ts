import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, test as base } from '@playwright/test';
import type { ElectronApplication, Page } from '@playwright/test';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Whether the Playwright `_electron` specs can run here: the Electron binary must already be in
 * node_modules/electron/dist (it is downloaded from GitHub on first use, which machines without
 * access cannot do) and, on Linux, a display must exist (xvfb-run provides one).
 */
export function electronAvailability(): { ok: true; binary: string } | { ok: false; reason: string } {
  const pkg = path.join(root, 'node_modules', 'electron');
  let binary: string;
  try {
    binary = path.join(pkg, 'dist', readFileSync(path.join(pkg, 'path.txt'), 'utf8').trim());
  } catch {
    return {
      ok: false,
      reason:
        'Electron binary not available: node_modules/electron has no path.txt (its download from GitHub never ran or failed here)',
    };
  }
  if (!existsSync(binary))
    return { ok: false, reason: `Electron binary not available: ${path.relative(root, binary)} is missing` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return {
      ok: false,
      reason: 'Electron needs a display: no DISPLAY here (run the e2e suite under xvfb-run)',
    };
  }
  return { ok: true, binary };
}

/** Playwright's list reporter shows skipped tests without their reason: say it once, here. */
export function skipUnlessElectron(skip: (condition: boolean, reason: string) => void): void {
  const availability = electronAvailability();
  if (availability.ok) return;
  if (!process.env.TEST_WORKER_INDEX) console.log(`[electron] specs skipped: ${availability.reason}`);
  skip(true, availability.reason);
}

interface Fixtures {
  app: ElectronApplication;
  page: Page;
  dataDir: string;
}

/** One Electron app per test, with its own data folder (DESK_DATA_DIR) and no built-in sandbox wait. */
export const test = base.extend<Fixtures>({
  // Playwright reads the fixture's dependencies from this (empty) destructuring pattern.
  // eslint-disable-next-line no-empty-pattern
  dataDir: async ({}, use) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'desk-electron-'));
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
  app: async ({ dataDir }, use) => {
    const availability = electronAvailability();
    if (!availability.ok) throw new Error(availability.reason);
    if (
      !existsSync(path.join(root, 'dist-electron', 'main.js')) ||
      !existsSync(path.join(root, 'dist', 'renderer', 'index.html'))
    ) {
      execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
    }
    const app = await _electron.launch({
      executablePath: availability.binary,
      args: [root, ...(process.platform === 'linux' && process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
      env: { ...process.env, DESK_DATA_DIR: dataDir } as Record<string, string>,
    });
    await use(app);
    await app.close();
  },
  page: async ({ app }, use) => {
    const page = await app.firstWindow();
    await page.waitForSelector('html[data-app-state="ready"]');
    await use(page);
  },
});

export { expect } from '@playwright/test';
