import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { AppShell } from './AppShell.ts';

/** Agents: the local library, one agent's detail and its event subscriptions editor. */
export class AgentsPage {
  readonly page: Page;
  readonly shell: AppShell;
  readonly list: Locator;
  readonly search: Locator;
  readonly refreshButton: Locator;
  readonly syncStatus: Locator;
  readonly detail: Locator;
  readonly prompt: Locator;
  readonly variables: Locator;
  readonly subscriptions: Locator;

  constructor(page: Page) {
    this.page = page;
    this.shell = new AppShell(page);
    this.list = page.getByRole('list', { name: 'Agents' });
    this.search = page.getByRole('searchbox', { name: 'Search agents' });
    this.refreshButton = page.getByRole('button', { name: 'Refresh', exact: true });
    this.syncStatus = page.getByTestId('agents-sync');
    this.detail = page.locator('section.agent-detail');
    this.prompt = this.detail.getByRole('region', { name: /^Prompt of / });
    this.variables = this.detail.locator('table.variables-table');
    this.subscriptions = page.getByTestId('subscriptions');
  }

  async open() {
    await this.shell.goTo('Agents');
  }

  agent(name: string | RegExp): Locator {
    return this.list.getByRole('button', { name });
  }

  async select(name: string) {
    await this.agent(new RegExp(`^${name}`)).click();
    await expect(this.detail.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  }

  placeholder(variable: string): Locator {
    return this.prompt.locator(`mark.placeholder[data-variable="${variable}"]`);
  }

  subscription(n: number): Locator {
    return this.subscriptions.getByRole('listitem', { name: new RegExp(`^Subscription ${n}:`) });
  }

  dialog(title: string): Locator {
    return this.page.getByRole('dialog', { name: title });
  }

  async save(): Promise<void> {
    await this.subscriptions.getByRole('button', { name: 'Save subscriptions' }).click();
  }
}
