import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { seedPre0245File } from '../electron/services/db/testing.ts';
import { expect, HOST_READY, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';
import { expectNoAxeViolations } from './support/a11y.ts';
import type { ChildServer } from './support/childServer.ts';
import { startChildServer } from './support/childServer.ts';

// A data folder as an older build left it (schema 0220 with many calls): opening it really runs
// migration 0245 over every call (~1.5 s per 100,000 on a quiet machine), during which the page
// must already answer with the upgrade screen, then show the app.
const FILE = 'campaign-desk.sqlite';

async function withOldFolder(
  calls: number,
  prepare: (file: string) => void,
  run: (host: ChildServer, url: string, file: string) => Promise<void>,
) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'desk-e2e-upgrade-'));
  const file = path.join(dataDir, FILE);
  let host: ChildServer | null = null;
  try {
    await seedPre0245File(file, calls);
    prepare(file);
    host = await startChildServer({
      name: 'browser host',
      script: 'electron/browser-host/main.ts',
      args: ['--port', '0', '--data', dataDir, '--no-open', '--no-sandbox'],
      ready: HOST_READY,
      timeoutMs: 60_000,
    });
    const [, origin, , token] = host.match;
    await run(host, `${origin}/#token=${token}`, file);
  } finally {
    await host?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const schemaOf = (file: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};

test('an upgrade of the local data at start-up shows its step and progress, then the app', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await withOldFolder(
    300_000,
    () => {},
    async (host, url, file) => {
      await page.goto(url);
      const bar = page.getByRole('progressbar', { name: 'Upgrade progress' });
      await expect(bar).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: 'Upgrading your local data' })).toBeVisible();
      await expect(page.getByTestId('upgrade-screen').getByRole('status')).toHaveText(
        'Step 1 of 1: call rank counts …',
      );
      const now = Number(await bar.getAttribute('aria-valuenow'));
      expect(now).toBeGreaterThanOrEqual(0);
      expect(now).toBeLessThanOrEqual(100);
      await expect(bar).toHaveAttribute('aria-valuetext', /^\d+%: Step 1 of 1: call rank counts$/);
      await expect(page.locator('html')).toHaveAttribute('data-app-state', 'upgrading');
      await expectNoAxeViolations(page, 'the upgrade screen');

      // Then the app, as usual, on the upgraded file.
      const shell = new AppShell(page);
      await expect(page.locator('html')).toHaveAttribute('data-app-state', 'ready', { timeout: 240_000 });
      await expect(shell.nav).toBeVisible();
      await expect(bar).toBeHidden();
      // The terminal said it too (not a terminal here: one line for the step).
      expect(host.output()).toContain('Upgrading your local data (step 1 of 1: call rank counts) …\n');
      await host.stop();
      expect(schemaOf(file)).toBe(245);
    },
  );
});

test('a failed upgrade names the file and the step, and leaves the file at its last good version', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await withOldFolder(
    50,
    // A table in the way of 0245's own: its CREATE TABLE fails inside the step's transaction.
    (file) => {
      const db = new Database(file);
      db.exec('CREATE TABLE call_agg_ranks (x)');
      db.close();
    },
    async (host, url, file) => {
      await page.goto(url);
      await expect(
        page.getByRole('heading', { level: 1, name: 'Campaign Desk could not upgrade your local data' }),
      ).toBeVisible({ timeout: 60_000 });
      const message = page.getByTestId('startup-failed');
      await expect(message).toContainText(`Upgrading the data file ${file} failed at step 1 of 1`);
      await expect(message).toContainText('(0245 call rank counts): table call_agg_ranks already exists');
      await expect(message).not.toContainText(/\bat \S+\.ts:\d+/); // no stack
      await expect(page.locator('html')).toHaveAttribute('data-app-state', 'error');
      await expectNoAxeViolations(page, 'the failed upgrade screen');
      await host.stop();
      expect(schemaOf(file)).toBe(220);
      const db = new Database(file, { readonly: true });
      try {
        // Nothing of the step was written: the log columns 0245 adds are absent.
        const columns = db.prepare(`SELECT name FROM pragma_table_info('call_agg_log')`).pluck().all();
        expect(columns).not.toContain('created_ms');
      } finally {
        db.close();
      }
    },
  );
});
