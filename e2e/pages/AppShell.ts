import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';

export const pageNames = ['Contacts', 'Campaigns', 'Calls', 'Do not call', 'Agents', 'Settings'] as const;
export type PageName = (typeof pageNames)[number];

/** The frame around every page: navigation, workspace switcher, connectivity. */
export class AppShell {
  readonly page: Page;
  readonly nav: Locator;
  readonly workspaceSwitcher: Locator;
  readonly connectivity: Locator;

  constructor(page: Page) {
    this.page = page;
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.workspaceSwitcher = page.getByRole('combobox', { name: 'Active workspace' });
    this.connectivity = page.locator('.sidebar').getByRole('status');
  }

  async open(url: string) {
    await this.page.goto(url);
    await this.waitUntilReady();
  }

  async waitUntilReady() {
    await expect(this.page.locator('html')).toHaveAttribute('data-app-state', 'ready');
  }

  link(name: PageName): Locator {
    return this.nav.getByRole('link', { name, exact: true });
  }

  async goTo(name: PageName) {
    await this.link(name).click();
    await expect(this.link(name)).toHaveAttribute('aria-current', 'page');
    await expect(this.page.getByRole('heading', { level: 1, name })).toBeVisible();
  }
}
