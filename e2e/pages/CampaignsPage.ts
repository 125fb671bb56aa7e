import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { AppShell } from './AppShell.ts';
import { ListAgentPanel } from './ListAgentPanel.ts';

/** Campaigns: the list, the launch queue and the New campaign builder, as the operator sees them. */
export class CampaignsPage {
  readonly page: Page;
  readonly shell: AppShell;
  readonly agentPanel: ListAgentPanel;
  readonly settings: Locator;
  readonly settingsErrors: Locator;
  readonly plan: Locator;
  readonly blockers: Locator;
  readonly launchButton: Locator;
  /** The confirmation before calls go out (Launch opens it). */
  readonly confirmation: Locator;
  readonly progress: Locator;
  readonly queue: Locator;
  readonly campaigns: Locator;

  constructor(page: Page) {
    this.page = page;
    this.shell = new AppShell(page);
    this.agentPanel = new ListAgentPanel(page);
    this.settings = page.getByTestId('campaign-settings');
    this.settingsErrors = page.getByTestId('settings-errors');
    this.plan = page.getByTestId('campaign-plan');
    this.blockers = page.getByTestId('launch-blockers');
    this.launchButton = page.getByRole('button', { name: 'Launch campaign' });
    this.confirmation = page.getByRole('alertdialog', { name: /^Start .*\?$/ });
    this.progress = page.getByTestId('launch-progress');
    this.queue = page.getByTestId('launch-queue');
    this.campaigns = page.getByTestId('campaigns-list');
  }

  async open() {
    await this.shell.goTo('Campaigns');
  }

  async newCampaign() {
    await this.page.getByRole('button', { name: 'New campaign' }).click();
    await expect(this.page.getByRole('heading', { level: 2, name: 'New campaign' })).toBeVisible();
  }

  async backToList() {
    await this.page.getByRole('button', { name: 'Back to campaigns' }).click();
    await expect(this.queue).toBeVisible();
  }

  /** Picks the contact list whose name contains `name`. */
  async chooseList(name: string) {
    const select = this.page.getByRole('combobox', { name: 'Contact list' });
    const option = select.locator('option').filter({ hasText: name });
    await expect(option).toHaveCount(1);
    await select.selectOption((await option.getAttribute('value'))!);
  }

  /** The input whose label starts with `label` ("Callback URL" finds "Callback URL (optional)"). */
  field(label: string): Locator {
    return this.page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  }

  /** The error shown beside the input labelled `label`. */
  fieldError(label: string): Locator {
    return this.page
      .locator('.field-invalid')
      .filter({ has: this.field(label) })
      .locator('.field-error');
  }

  callerNumbers(): Locator {
    return this.settings.locator('.number-choices input[type="checkbox"]');
  }

  async checkAndPlan() {
    await this.page.getByRole('button', { name: 'Check settings and plan' }).click();
  }

  fact(
    name: 'calls' | 'service-drops' | 'invalid' | 'flow' | 'finish' | 'credits-needed' | 'credits-available',
  ): Locator {
    return this.plan.locator(`[data-fact="${name}"]`);
  }

  /** Launch, then "Start N calls" in the confirmation. */
  async launchConfirmed() {
    await this.launchButton.click();
    await expect(this.confirmation).toBeVisible();
    await this.startButton().click();
    await expect(this.confirmation).toBeHidden();
  }

  /** The confirmation's "Start N calls" button. */
  startButton(): Locator {
    return this.confirmation.getByRole('button', { name: /^Start [\d,.\s\u00a0\u202f]+ calls?$/ });
  }

  /** A figure of the confirmation (`calls`, `credits-needed`, `credits-available`, `overlaps`, …). */
  confirmationFact(name: string): Locator {
    return this.confirmation.locator(`[data-fact="${name}"]`);
  }

  step(step: string): Locator {
    return this.progress.locator(`li[data-step="${step}"]`);
  }

  campaignRow(name: string): Locator {
    return this.campaigns
      .locator('tbody tr')
      .filter({ has: this.page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
  }

  queued(name: string): Locator {
    return this.queue.locator('li.queue-item').filter({ hasText: name });
  }
}
