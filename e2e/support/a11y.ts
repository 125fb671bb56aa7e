// Accessibility helpers for the e2e specs: axe-core over the page (WCAG 2.1 A/AA rules), the
// generator's contact lists imported through the UI, and the layout checks for zoom and small windows.
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { ensureContactsFile } from '../../bench/lib/contactsFile.ts';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Runs axe over the page as it is now and fails naming every violation: the rule, its impact,
 * and each offending element (target selector + HTML snippet + axe's summary of what is wrong).
 */
export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const lines = results.violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n    at ${n.target.join(' ')}\n    ${n.html.slice(0, 300)}\n    ${(n.failureSummary ?? '').replace(/\n/g, ' ')}`,
    ),
  );
  expect(lines, `axe: ${lines.length} violating node(s) in ${where}\n${lines.join('\n')}`).toEqual([]);
}

/** The generator's file of `rows` rows (made once per machine in the temp folder and reused). */
export function generatedList(rows: number, seed: number): string {
  return ensureContactsFile(rows, seed, path.join(tmpdir(), 'campaign-desk-e2e-lists'));
}

/**
 * Imports the generator's list through the Contacts page with the prompt variables the generated
 * columns carry (so "variable missing" rows exist), and waits until its summary shows.
 */
export async function importGeneratedList(page: Page, rows: number, seed = 42): Promise<string> {
  const file = generatedList(rows, seed);
  await page.getByRole('link', { name: 'Contacts', exact: true }).click();
  await page.getByLabel('Prompt variables').fill('name, loan_amount, due_date');
  await page.getByLabel('Choose a CSV file').setInputFiles(file);
  await expect(page.getByTestId('summary')).toBeVisible({ timeout: 60_000 });
  return file;
}

/** What overflows sideways at the current viewport: the page, its regions, or a control. */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const scroller = document.scrollingElement!;
    if (scroller.scrollWidth > scroller.clientWidth)
      problems.push(`the document scrolls sideways: ${scroller.scrollWidth} > ${scroller.clientWidth}`);
    // The page's own regions must not scroll sideways either (the grid and wide tables, marked
    // data-scroll-x, scroll inside their own boxes: WCAG 1.4.10 excepts two-dimensional tables).
    for (const region of document.querySelectorAll<HTMLElement>('main, .sidebar, dialog[open]')) {
      if (region.scrollWidth > region.clientWidth + 1)
        problems.push(
          `<${region.tagName.toLowerCase()} class="${region.className}"> scrolls sideways: ${region.scrollWidth} > ${region.clientWidth}`,
        );
    }
    const describe = (el: Element) =>
      `<${el.tagName.toLowerCase()}> "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    for (const el of document.querySelectorAll<HTMLElement>(
      'button, a[href], input, select, textarea, summary',
    )) {
      if (el.closest('[role="grid"], [data-scroll-x]') || el.closest('.visually-hidden')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      if (r.left < -1 || r.right > window.innerWidth + 1)
        problems.push(
          `${describe(el)} is outside the window (${Math.round(r.left)}..${Math.round(r.right)})`,
        );
      if (el.scrollWidth > el.clientWidth + 1 && el.tagName === 'BUTTON')
        problems.push(`${describe(el)} clips its text (${el.scrollWidth} > ${el.clientWidth})`);
    }
    return problems;
  });
}
