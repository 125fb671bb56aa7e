import { expect, skipUnlessElectron, test } from './electronApp.ts';

skipUnlessElectron(test.skip);

test('launches one window on app://desk with the UI ready', async ({ app, page }) => {
  expect(app.windows()).toHaveLength(1);
  expect(page.url()).toBe('app://desk/index.html');
  await expect(page).toHaveTitle(/Campaign Desk/);
  await expect(page.locator('html')).toHaveAttribute('data-app-state', 'ready');
});

test('window.desk is the contract: functions per channel, on(), and no ipcRenderer', async ({ page }) => {
  const shape = await page.evaluate(() => {
    const desk = (window as unknown as { desk: Record<string, unknown> }).desk;
    const domains = Object.fromEntries(
      Object.entries(desk)
        .filter(([, v]) => typeof v === 'object')
        .map(([k, v]) => [k, Object.keys(v as object).sort()]),
    );
    return { keys: Object.keys(desk).sort(), domains, on: typeof desk.on, frozen: Object.isFrozen(desk) };
  });
  expect(shape.keys).toEqual(expect.arrayContaining(['app', 'workspaces', 'on']));
  expect(shape.keys).not.toContain('ipcRenderer');
  expect(shape.domains.workspaces).toEqual(['create', 'list', 'remove', 'setActive', 'test', 'update']);
  expect(shape.on).toBe('function');
  const info = await page.evaluate(() =>
    (window as unknown as { desk: { app: { info(): Promise<unknown> } } }).desk.app.info(),
  );
  expect(info).toMatchObject({ ok: true, value: { host: 'electron' } });
});

test('the renderer has no Node', async ({ page }) => {
  const globals = await page.evaluate(() => ({
    require: typeof (globalThis as Record<string, unknown>).require,
    process: typeof (globalThis as Record<string, unknown>).process,
    module: typeof (globalThis as Record<string, unknown>).module,
    Buffer: typeof (globalThis as Record<string, unknown>).Buffer,
  }));
  expect(globals).toEqual({
    require: 'undefined',
    process: 'undefined',
    module: 'undefined',
    Buffer: 'undefined',
  });
});

test('the main window runs sandboxed and isolated', async ({ app }) => {
  const prefs = await app.evaluate(({ BrowserWindow }) => {
    const contents = BrowserWindow.getAllWindows()[0]!.webContents;
    const p = (
      contents as unknown as { getLastWebPreferences(): Record<string, unknown> }
    ).getLastWebPreferences();
    return {
      sandbox: p.sandbox,
      contextIsolation: p.contextIsolation,
      nodeIntegration: p.nodeIntegration,
      webviewTag: p.webviewTag,
    };
  });
  expect(prefs).toEqual({ sandbox: true, contextIsolation: true, nodeIntegration: false, webviewTag: false });
});
