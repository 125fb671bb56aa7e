import type { ElectronApplication } from '@playwright/test';
import { expect, skipUnlessElectron, test } from './electronApp.ts';

skipUnlessElectron(test.skip);

/** Replaces shell.openExternal so the test sees what would have been opened (and nothing opens). */
async function recordOpenExternal(app: ElectronApplication) {
  await app.evaluate(({ shell }) => {
    const opened: string[] = [];
    (globalThis as Record<string, unknown>).__opened = opened;
    shell.openExternal = async (url: string) => void opened.push(url);
  });
  return () => app.evaluate(() => (globalThis as Record<string, unknown>).__opened as string[]);
}

test('navigation away from app://desk is blocked; https goes to the OS browser', async ({ app, page }) => {
  const opened = await recordOpenExternal(app);
  await page.evaluate(() => {
    location.href = 'https://example.com/docs';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toBe('app://desk/index.html');
  await page.evaluate(() => {
    location.href = 'file:///etc/passwd';
  });
  await page.waitForTimeout(500);
  expect(page.url()).toBe('app://desk/index.html');
  expect(await opened()).toEqual(['https://example.com/docs']);
});

test('window.open is denied for every URL; only parsed https links open externally', async ({
  app,
  page,
}) => {
  const opened = await recordOpenExternal(app);
  const results = await page.evaluate(() =>
    [
      'https://example.com/a',
      'http://example.com/b',
      'javascript:alert(1)',
      'app://desk/index.html',
      'https://u:p@evil.example/',
    ].map((url) => window.open(url) === null),
  );
  expect(results).toEqual([true, true, true, true, true]);
  await page.waitForTimeout(300);
  expect(app.windows()).toHaveLength(1);
  expect(await opened()).toEqual(['https://example.com/a']);
});

test('<webview> is refused', async ({ app, page }) => {
  await page.evaluate(() => {
    const view = document.createElement('webview');
    view.setAttribute('src', 'https://example.com');
    document.body.appendChild(view);
  });
  await page.waitForTimeout(500);
  const contents = await app.evaluate(({ webContents }) =>
    webContents.getAllWebContents().map((c) => c.getType()),
  );
  expect(contents).not.toContain('webview');
});

test('the page has a CSP: inline script does not run and a violation is reported', async ({ page }) => {
  const outcome = await page.evaluate(
    () =>
      new Promise<{ ran: boolean; violated: string | null }>((resolve) => {
        let violated: string | null = null;
        document.addEventListener('securitypolicyviolation', (e) => (violated = e.violatedDirective), {
          once: true,
        });
        const script = document.createElement('script');
        script.textContent = 'window.__inlineRan = true';
        document.head.appendChild(script);
        setTimeout(
          () =>
            resolve({ ran: (window as unknown as { __inlineRan?: boolean }).__inlineRan === true, violated }),
          200,
        );
      }),
  );
  expect(outcome.ran).toBe(false);
  expect(outcome.violated).toMatch(/^script-src/);
  const csp = await page.evaluate(() =>
    fetch('app://desk/index.html').then((r) => r.headers.get('content-security-policy')),
  );
  expect(csp).toContain("object-src 'none'");
});

test('permission requests are denied by default', async ({ page }) => {
  const result = await page.evaluate(async () => ({
    notification: await Notification.requestPermission(),
    camera: await navigator.mediaDevices.getUserMedia({ video: true }).then(
      () => 'granted',
      (e: Error) => e.name,
    ),
  }));
  expect(result.notification).toBe('denied');
  expect(result.camera).not.toBe('granted');
});

test('app:// serves GET only and nothing outside the renderer folder', async ({ page }) => {
  const statuses = await page.evaluate(async () => {
    const status = (url: string, init?: RequestInit) =>
      fetch(url, init).then(
        (r) => r.status,
        () => -1,
      );
    return {
      post: await status('app://desk/index.html', { method: 'POST' }),
      traversal: await status('app://desk/%2e%2e/%2e%2e/package.json'),
      otherHost: await status('app://other/index.html'),
    };
  });
  expect(statuses.post).toBe(405);
  expect([400, 404]).toContain(statuses.traversal);
  expect(statuses.otherHost).toBe(404);
});
