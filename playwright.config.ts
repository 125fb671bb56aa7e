import { defineConfig } from '@playwright/test';

// Debian's Chromium (Playwright's own browser download is not reachable here). Playwright adds --headless.
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/globalSetup.ts',
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Each test starts its own browser host (and sometimes a sandbox): two at a time fits 2 cores.
  workers: process.env.PW_WORKERS ? Number(process.env.PW_WORKERS) : 2,
  fullyParallel: true,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list', { printSteps: false }],
    ['./e2e/support/skipReasonsReporter.ts'],
    // Read by scripts/test-summary.ts for the test command's closing line.
    ['json', { outputFile: '.tmp/results/playwright.json' }],
  ],
  outputDir: 'test-results',
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'en-US',
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
  },
  projects: [
    // Everything in e2e/ except the Electron specs, in Chromium through the browser host.
    { name: 'browser', testIgnore: ['**/electron/**'], use: { browserName: 'chromium' } },
    // Playwright _electron specs (owned by the back end); they skip themselves where no Electron binary exists.
    { name: 'electron', testMatch: ['electron/**/*.spec.ts'] },
  ],
});
