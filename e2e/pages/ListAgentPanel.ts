import type { Locator, Page } from '@playwright/test';

/** An opened contact list's agent panel: picker, mapping, lint and prompt preview. */
export class ListAgentPanel {
  readonly page: Page;
  readonly agent: Locator;
  readonly version: Locator;
  readonly mapping: Locator;
  readonly lint: Locator;
  readonly preview: Locator;
  readonly previewText: Locator;
  readonly position: Locator;

  constructor(page: Page) {
    this.page = page;
    this.agent = page.getByRole('combobox', { name: 'Agent for this list' });
    this.version = page.getByRole('combobox', { name: 'Version' });
    this.mapping = page.getByTestId('agent-mapping');
    this.lint = page.getByTestId('agent-lint');
    this.preview = page.getByTestId('prompt-preview');
    this.previewText = this.preview.getByRole('region', { name: /^Prompt for row/ });
    this.position = page.getByTestId('preview-position');
  }

  column(variable: string): Locator {
    return this.mapping.getByRole('combobox', { name: `${variable} Column`, exact: true });
  }

  emptyColumn(column: string): Locator {
    return this.lint.locator(`button[data-column="${column}"]`);
  }

  value(variable: string): Locator {
    return this.previewText.locator(`mark.preview-value[data-variable="${variable}"]`);
  }

  missing(variable: string): Locator {
    return this.previewText.locator(`mark.preview-missing[data-variable="${variable}"]`);
  }
}
