import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { AppShell } from './AppShell.ts';

export interface WorkspaceInput {
  name?: string;
  baseUrl?: string;
  apiKey?: string;
  bearerToken?: string;
  sessionOnly?: boolean;
}

/** The add/edit workspace dialog. */
export class WorkspaceDialog {
  readonly root: Locator;
  readonly name: Locator;
  readonly baseUrl: Locator;
  readonly apiKey: Locator;
  readonly bearerToken: Locator;
  readonly sessionOnly: Locator;
  readonly testButton: Locator;
  readonly testStatus: Locator;

  constructor(page: Page, title: string | RegExp) {
    this.root = page.getByRole('dialog', { name: title });
    this.name = this.root.getByLabel('Name', { exact: true });
    this.baseUrl = this.root.getByLabel('Base URL');
    this.apiKey = this.root.getByLabel('API key');
    this.bearerToken = this.root.getByLabel(/Bearer token/);
    this.sessionOnly = this.root.getByLabel('Keep the key for this session only');
    this.testButton = this.root.getByRole('button', { name: 'Test connection' });
    this.testStatus = this.root.locator('.dialog-test');
  }

  async fill(input: WorkspaceInput) {
    if (input.name !== undefined) await this.name.fill(input.name);
    if (input.baseUrl !== undefined) await this.baseUrl.fill(input.baseUrl);
    if (input.apiKey !== undefined) await this.apiKey.fill(input.apiKey);
    if (input.bearerToken !== undefined) await this.bearerToken.fill(input.bearerToken);
    if (input.sessionOnly !== undefined) await this.sessionOnly.setChecked(input.sessionOnly);
  }

  error(text: string | RegExp): Locator {
    return this.root.locator('.field-error', { hasText: text });
  }
}

/** Settings → Workspaces. */
export class SettingsPage {
  readonly page: Page;
  readonly shell: AppShell;
  readonly list: Locator;
  readonly addButton: Locator;
  readonly keychainWarning: Locator;

  constructor(page: Page) {
    this.page = page;
    this.shell = new AppShell(page);
    this.list = page.getByRole('list', { name: 'Workspaces' });
    this.addButton = page.getByRole('button', { name: 'Add workspace' });
    this.keychainWarning = page.locator('.settings-section').getByRole('note');
  }

  async open() {
    await this.shell.goTo('Settings');
  }

  row(name: string): Locator {
    return this.list.getByRole('listitem', { name, exact: true });
  }

  testStatus(name: string): Locator {
    return this.row(name).getByRole('status', { name: `Connection test for ${name}` });
  }

  addDialog() {
    return new WorkspaceDialog(this.page, 'Add workspace');
  }

  editDialog(name: string) {
    return new WorkspaceDialog(this.page, `Edit ${name}`);
  }

  /** Adds a workspace through the dialog and waits for it to be listed. */
  async add(input: WorkspaceInput & { name: string }) {
    await this.addButton.click();
    const dialog = this.addDialog();
    await dialog.fill(input);
    await dialog.root.getByRole('button', { name: 'Add workspace' }).click();
    await expect(dialog.root).toBeHidden();
    await expect(this.row(input.name)).toBeVisible();
  }

  async edit(name: string, input: WorkspaceInput) {
    await this.row(name)
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    const dialog = this.editDialog(name);
    await dialog.fill(input);
    await dialog.root.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog.root).toBeHidden();
  }

  async test(name: string) {
    await this.row(name)
      .getByRole('button', { name: `Test connection to ${name}` })
      .click();
    await expect(this.testStatus(name)).not.toContainText('Testing connection');
  }

  async remove(name: string) {
    await this.row(name)
      .getByRole('button', { name: `Remove ${name}` })
      .click();
    const confirm = this.page.getByRole('alertdialog', { name: `Remove ${name}?` });
    await confirm.getByRole('button', { name: 'Remove workspace' }).click();
    await expect(confirm).toBeHidden();
    await expect(this.row(name)).toHaveCount(0);
  }
}
