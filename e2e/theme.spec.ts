import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { AppShell } from './pages/AppShell.ts';

/** Relative luminance (WCAG) of a computed CSS colour such as `rgb(19, 21, 25)`. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}
const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

async function colours(page: Page) {
  return page.evaluate(() => {
    const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
    return {
      background: style('body').backgroundColor,
      text: style('body').color,
      sidebar: style('.sidebar').backgroundColor,
      link: style('.nav-link').color,
    };
  });
}

test.describe('theme follows the OS', () => {
  test('dark mode: dark surfaces, light text, readable contrast', async ({ page, desk }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await new AppShell(page).open(desk.url);
    const c = await colours(page);
    expect(luminance(c.background)).toBeLessThan(0.05);
    expect(luminance(c.text)).toBeGreaterThan(0.6);
    expect(contrast(luminance(c.text), luminance(c.background))).toBeGreaterThan(7);
    expect(contrast(luminance(c.link), luminance(c.sidebar))).toBeGreaterThan(4.5);
    await test.info().attach('dark', { body: await page.screenshot(), contentType: 'image/png' });
  });

  test('light mode, and switching follows the OS without a reload', async ({ page, desk }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await new AppShell(page).open(desk.url);
    const light = await colours(page);
    expect(luminance(light.background)).toBeGreaterThan(0.85);
    expect(contrast(luminance(light.text), luminance(light.background))).toBeGreaterThan(7);
    expect(contrast(luminance(light.link), luminance(light.sidebar))).toBeGreaterThan(4.5);

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => luminance((await colours(page)).background)).toBeLessThan(0.05);
  });
});
