import type { Browser, Page } from '@playwright/test';
import { routes } from '../renderer/src/app/routes.ts';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';
import { horizontalOverflow, importGeneratedList } from './support/a11y.ts';

// Zoom and small windows: at 200% zoom (CSS pixels halve, device pixels double) and in a 1024×640
// window every page of routes.ts, with a 10k-row list loaded, keeps its controls inside the window
// and never scrolls sideways (the document, the main region, the sidebar, an open dialog); only
// the contacts grid scrolls sideways inside its own box. Screenshots of each are attached.

const settings = [
  { name: '1280×800 at 200% zoom', viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 },
  { name: '1024×640 window', viewport: { width: 1024, height: 640 }, deviceScaleFactor: 1 },
  { name: '1024×640 at 200% zoom', viewport: { width: 512, height: 320 }, deviceScaleFactor: 2 },
] as const;

async function newPage(browser: Browser, setting: (typeof settings)[number]): Promise<Page> {
  const context = await browser.newContext({
    viewport: setting.viewport,
    deviceScaleFactor: setting.deviceScaleFactor,
    locale: 'en-US',
  });
  return context.newPage();
}

for (const setting of settings) {
  test(`${setting.name}: every page is usable (no sideways page scroll, no control outside the window)`, async ({
    browser,
    desk,
  }, testInfo) => {
    test.setTimeout(180_000);
    const page = await newPage(browser, setting);
    try {
      const shell = new AppShell(page);
      await shell.open(desk.url);
      await importGeneratedList(page, 10_000);

      const check = async (where: string) => {
        const name = `${setting.name} — ${where}.png`;
        const file = testInfo.outputPath(name.replace(/[^\w.-]+/g, '-'));
        await page.screenshot({ path: file, fullPage: true });
        await testInfo.attach(name, { path: file, contentType: 'image/png' });
        expect(await horizontalOverflow(page), `${setting.name}, ${where}`).toEqual([]);
      };
      for (const route of routes) {
        const link = page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: route.label, exact: true });
        await link.click();
        await expect(link).toHaveAttribute('aria-current', 'page');
        await check(route.label);
      }
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Contacts', exact: true })
        .click();
      await page.getByRole('button', { name: 'All lists' }).click();
      await expect(page.getByRole('heading', { name: 'Saved lists' })).toBeVisible();
      await check('Contacts, saved lists');
      await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
      await check('Keyboard shortcuts dialog');
    } finally {
      await page.context().close();
    }
  });
}
