import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Workspace } from '../../shared/ipc/channels/workspaces.ts';
import { createDesk } from './createDesk.ts';
import type { Desk } from './createDesk.ts';
import { filesUnder, tempDirs } from './db/testing.ts';
import { SessionSecretStore } from './secrets/sessionSecretStore.ts';

const dirs = tempDirs('desk-');
const desks: Desk[] = [];
afterEach(async () => {
  await Promise.all(desks.splice(0).map((d) => d.close()));
  dirs.cleanup();
});

const start = async (dataDir = dirs.make()) => {
  const desk = await createDesk({
    dataDir,
    host: 'browser',
    version: '9.9.9',
    sandbox: 'off',
    secrets: new SessionSecretStore(),
  });
  desks.push(desk);
  return desk;
};

const value = <T>(result: { ok: boolean; value?: unknown; error?: unknown }): T => {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value as T;
};

describe('createDesk (real SQLite worker, real files)', () => {
  it('closes right after start with the built-in sandbox online, its background work ending without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      for (let i = 0; i < 3; i++) {
        const desk = await createDesk({
          dataDir: dirs.make(),
          host: 'browser',
          version: '9.9.9',
          secrets: new SessionSecretStore(),
          timings: { connectivityIntervalMs: 20 },
        });
        // The sandbox workspace is active: connectivity, agents and launches start their work now.
        await new Promise<void>((resolve) => {
          const off = desk.on('app:connectivity-changed', () => (off(), resolve()));
        });
        await desk.close();
      }
      // Rejections are reported a turn after they happen: give the last close that turn.
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('answers app:info with version, host and the keychain status', async () => {
    const desk = await start();
    expect(value(await desk.handle('app:info', {}))).toEqual({
      version: '9.9.9',
      host: 'browser',
      keychain: { available: true },
    });
  });

  it('creates, lists, updates, activates and removes workspaces, emitting workspaces:changed', async () => {
    const desk = await start();
    const changes: Array<string | null> = [];
    const off = desk.on('workspaces:changed', (p) => changes.push(p.activeId));

    const a = value<Workspace>(
      await desk.handle('workspaces:create', {
        name: ' Acme ',
        baseUrl: 'https://api.acme.test/v0/',
        apiKey: 'key-a',
      }),
    );
    expect(a).toMatchObject({
      name: 'Acme',
      baseUrl: 'https://api.acme.test/v0',
      isSandbox: false,
      hasApiKey: true,
      hasBearerToken: false,
      secretStorage: 'keychain', // this test's stand-in for the keychain is a memory store
      lastTest: null,
    });
    expect(a).not.toHaveProperty('apiKey');
    const b = value<Workspace>(
      await desk.handle('workspaces:create', {
        name: 'Beta',
        baseUrl: 'https://b.test/v0',
        apiKey: 'key-b',
        bearerToken: 'tok-b',
      }),
    );
    expect(b.hasBearerToken).toBe(true);

    // The first workspace became active; the second did not steal it.
    expect(value(await desk.handle('workspaces:list', {}))).toMatchObject({
      activeId: a.id,
      workspaces: [{ id: a.id }, { id: b.id }],
    });

    const dup = await desk.handle('workspaces:create', {
      name: 'acme',
      baseUrl: 'https://x.test/v0',
      apiKey: 'k',
    });
    expect(dup).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'A workspace named "acme" already exists.', field: 'name' },
    });

    const renamed = value<Workspace>(
      await desk.handle('workspaces:update', { id: b.id, name: 'Beta 2', bearerToken: null }),
    );
    expect(renamed).toMatchObject({ name: 'Beta 2', hasBearerToken: false, hasApiKey: true });

    expect(value(await desk.handle('workspaces:set-active', { id: b.id }))).toEqual({ activeId: b.id });
    expect(await desk.handle('workspaces:set-active', { id: 'missing' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });

    expect(value(await desk.handle('workspaces:remove', { id: b.id }))).toEqual({ removed: true });
    expect(value(await desk.handle('workspaces:remove', { id: b.id }))).toEqual({ removed: false });
    expect(value(await desk.handle('workspaces:list', {}))).toMatchObject({
      activeId: a.id,
      workspaces: [{ id: a.id }],
    });
    off();
    expect(changes).toEqual([a.id, a.id, a.id, b.id, a.id]);
  });

  it('keeps workspaces, the active one and the window state across restarts', async () => {
    const dataDir = dirs.make();
    const first = await start(dataDir);
    const a = value<Workspace>(
      await first.handle('workspaces:create', { name: 'A', baseUrl: 'https://a.test/v0', apiKey: 'k' }),
    );
    await first.windowState.set({ width: 1280, height: 800, x: 10, y: 20, maximized: false });
    await first.close();

    const second = await start(dataDir);
    const list = value<{ workspaces: Workspace[]; activeId: string }>(
      await second.handle('workspaces:list', {}),
    );
    expect(list.activeId).toBe(a.id);
    // This test's stand-in keychain is memory, so the key did not survive the restart: said plainly.
    expect(list.workspaces[0]).toMatchObject({ id: a.id, hasApiKey: false, secretStorage: 'keychain' });
    const test = value<{ ok: boolean; message: string }>(
      await second.handle('workspaces:test', { id: a.id }),
    );
    expect(test).toMatchObject({ ok: false, message: expect.stringMatching(/^No API key/) });
    expect(await second.windowState.get()).toEqual({
      width: 1280,
      height: 800,
      x: 10,
      y: 20,
      maximized: false,
    });
  });

  it('writes its log under logs/ and keeps secrets out of every file of the data folder', async () => {
    const dataDir = dirs.make();
    const desk = await start(dataDir);
    const key = 'sk-test-4f1c9a7e2b8d6053';
    const token = 'bearer-7e2b8d60534f1c9a';
    const ws = value<Workspace>(
      await desk.handle('workspaces:create', {
        name: 'Secretive',
        baseUrl: 'http://127.0.0.1:9/v0',
        apiKey: key,
        bearerToken: token,
      }),
    );
    await desk.handle('workspaces:test', { id: ws.id }); // port 9: unreachable, logged and recorded
    await desk.handle('workspaces:test', { draft: { baseUrl: 'http://127.0.0.1:9/v0', apiKey: key } });
    await desk.handle('workspaces:update', { id: ws.id, apiKey: `${key}-2` });
    await desk.close();

    const files = filesUnder(dataDir);
    expect(files.some((f) => f.endsWith(join('logs', 'desk.log')))).toBe(true);
    expect(files.some((f) => f.endsWith('campaign-desk.sqlite'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const secret of [key, token]) {
        expect(bytes.includes(Buffer.from(secret)), `${secret} found in ${file}`).toBe(false);
        expect(bytes.includes(Buffer.from(secret, 'utf16le')), `${secret} (UTF-16) found in ${file}`).toBe(
          false,
        );
      }
    }
    const raw = new Database(join(dataDir, 'campaign-desk.sqlite'), { readonly: true });
    expect(raw.prepare('SELECT message FROM connection_tests').pluck().get()).toMatch(
      /^Unreachable: .*127\.0\.0\.1:9/,
    );
    raw.close();
  });

  it('allows one back end per data folder, and takes over a lock left by a crashed one', async () => {
    const dataDir = dirs.make();
    const first = await start(dataDir);
    await expect(start(dataDir)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(
        /^Campaign Desk is already running with the data folder .* \(process \d+\)/,
      ),
    });
    await first.close();
    // A pid that cannot be running (beyond the kernel's pid range) stands for a crashed owner.
    writeFileSync(join(dataDir, 'desk.lock'), '4294967');
    const second = await start(dataDir);
    expect(readFileSync(join(dataDir, 'desk.lock'), 'utf8')).toBe(String(process.pid));
    await second.close();
    expect(() => readFileSync(join(dataDir, 'desk.lock'))).toThrow(/ENOENT/);
  });

  it('refuses a data folder written by a newer app with the clear message', async () => {
    const dataDir = dirs.make();
    const raw = new Database(join(dataDir, 'campaign-desk.sqlite'));
    raw.pragma('user_version = 5000');
    raw.close();
    await expect(
      createDesk({
        dataDir,
        host: 'browser',
        version: '1',
        sandbox: 'off',
        secrets: new SessionSecretStore(),
      }),
    ).rejects.toMatchObject({
      code: 'database_error',
      message: expect.stringMatching(
        /^This data folder was written by a newer Campaign Desk \(schema 5000 > \d+\)\. Update the app or choose another data folder\.$/,
      ),
    });
    expect(readFileSync(join(dataDir, 'logs', 'desk.log'), 'utf8')).toContain('desk failed to start');
  });
});

describe('createDesk without an OS keychain (child process, no D-Bus session)', () => {
  it('reports it in app:info, refuses keychain storage with keychain_unavailable, and accepts session-only', async (ctx) => {
    if (process.platform !== 'linux')
      ctx.skip('simulating a missing keychain needs Linux (D-Bus Secret Service)');
    const dataDir = dirs.make();
    const module = fileURLToPath(new URL('./createDesk.ts', import.meta.url));
    const script = `
      const { createDesk } = await import(${JSON.stringify(module)});
      const desk = await createDesk({ dataDir: ${JSON.stringify(dataDir)}, host: 'browser', version: '1', sandbox: 'off' });
      const info = await desk.handle('app:info', {});
      const refused = await desk.handle('workspaces:create', { name: 'K', baseUrl: 'https://k.test/v0', apiKey: 'kc-secret-1' });
      const session = await desk.handle('workspaces:create', { name: 'S', baseUrl: 'https://s.test/v0', apiKey: 'kc-secret-2', sessionOnly: true });
      const list = await desk.handle('workspaces:list', {});
      await desk.close();
      console.log(JSON.stringify({ info, refused, session, list }));`;
    const scriptFile = join(dirs.make(), 'no-keychain.mjs');
    writeFileSync(scriptFile, script);
    const { stdout } = await promisify(execFile)(process.execPath, [scriptFile], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' },
    });
    const out = JSON.parse(stdout) as Record<
      string,
      { ok: boolean; value: unknown; error: { code: string; message: string } }
    >;
    const message = (out.info!.value as { keychain: { available: boolean; message: string } }).keychain;
    expect(message.available).toBe(false);
    expect(message.message).toMatch(
      /^No OS keychain is available \(no D-Bus session.*\)\. Secrets can be kept for this session only\.$/,
    );
    expect(message).not.toHaveProperty('detail'); // the raw cause goes to the log only
    expect(readFileSync(join(dataDir, 'logs', 'desk.log'), 'utf8')).toContain('/nonexistent');
    expect(out.refused).toEqual({
      ok: false,
      error: { code: 'keychain_unavailable', message: message.message },
    });
    expect(out.session).toMatchObject({
      ok: true,
      value: { name: 'S', secretStorage: 'session', hasApiKey: true },
    });
    expect((out.list!.value as { workspaces: unknown[] }).workspaces).toHaveLength(1);
    for (const file of filesUnder(dataDir)) {
      expect(readFileSync(file).includes(Buffer.from('kc-secret-')), file).toBe(false);
    }
  });
});
