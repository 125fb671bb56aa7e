import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import type { SandboxService } from '../fixtures.ts';
import { AppShell } from './AppShell.ts';
import { SettingsPage } from './SettingsPage.ts';

/** Calls: the sync panel, the table with its filters, a call's detail, campaign results, charts. */
export class CallsPage {
  readonly page: Page;
  readonly shell: AppShell;
  readonly syncButton: Locator;
  readonly cancelButton: Locator;
  readonly syncState: Locator;
  readonly lastSynced: Locator;
  readonly table: Locator;
  readonly total: Locator;
  readonly search: Locator;
  readonly detail: Locator;
  readonly audio: Locator;

  constructor(page: Page) {
    this.page = page;
    this.shell = new AppShell(page);
    this.syncButton = page.getByRole('button', { name: 'Sync now' });
    this.cancelButton = page.getByRole('button', { name: 'Cancel sync' });
    this.syncState = page.getByTestId('sync-state');
    this.lastSynced = page.getByTestId('last-synced');
    this.table = page.getByRole('grid', { name: 'Calls' });
    this.total = page.getByTestId('calls-total');
    this.search = page.getByRole('searchbox', { name: 'Search transcripts, names and numbers' });
    this.detail = page.locator('section[aria-labelledby="call-detail-title"]');
    this.audio = page.getByTestId('call-audio');
  }

  async open() {
    await this.shell.goTo('Calls');
  }

  tab(name: 'All calls' | 'Campaign results' | 'Charts'): Locator {
    return this.page.getByRole('tab', { name });
  }

  figure(name: 'calls' | 'received' | 'inserted' | 'updated' | 'pages' | 'retries'): Locator {
    return this.page.locator(`[data-testid="sync-figures"] [data-count="${name}"]`);
  }

  filter(name: string): Locator {
    return this.page
      .getByRole('search', { name: 'Search and filter calls' })
      .getByLabel(name, { exact: true });
  }

  /** Starts a sync and waits until it ends with every page stored. */
  async syncAndWait(timeout = 60_000) {
    await this.syncButton.click();
    await expect(this.syncState).toHaveAttribute('data-state', 'done', { timeout });
  }

  async expectTotal(n: number) {
    await expect(this.total).toHaveText(`${n.toLocaleString('en-US')} ${n === 1 ? 'call' : 'calls'}`);
  }

  /** The data rows of the table that are on screen (loaded). */
  rows(): Locator {
    return this.table.locator('[role="row"][data-key]');
  }
}

/** Adds the test's sandbox as a workspace and makes it the active one. */
export async function useSandboxWorkspace(page: Page, sandbox: SandboxService, name = 'Field sandbox') {
  const settings = new SettingsPage(page);
  await settings.open();
  await settings.add({ name, baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
  await settings.shell.workspaceSwitcher.selectOption({ label: name });
  await expect(settings.shell.workspaceSwitcher.locator('option:checked')).toHaveText(name);
}
