import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { KeychainSecretStore, plainReason } from './keychainSecretStore.ts';

const run = promisify(execFile);
// scripts/with-keyring.sh starts a private D-Bus session + gnome-keyring and sets this.
const keyringReady = process.env.DESK_KEYRING_READY === '1';
const skipReason = 'no Secret Service here: run under `bash scripts/with-keyring.sh npx vitest run …`';

/** secret-tool is an independent reader: proves the value really is in the Secret Service. */
const lookup = async (service: string, account: string) => {
  try {
    const { stdout } = await run('secret-tool', ['lookup', 'service', service, 'username', account]);
    return stdout;
  } catch {
    return null; // secret-tool exits 1 when nothing matches
  }
};

describe('KeychainSecretStore against the real Secret Service', () => {
  it('has a keyring to test against in CI', () => {
    if (!process.env.CI) return void expect(typeof keyringReady).toBe('boolean');
    expect(keyringReady, 'CI must run the unit tests under scripts/with-keyring.sh').toBe(true);
  });

  it('probes, stores, reads and deletes secrets keyed by workspace and kind', async (ctx) => {
    if (!keyringReady) ctx.skip(skipReason);
    const service = `campaign-desk-test-${randomBytes(4).toString('hex')}`;
    const store = await KeychainSecretStore.open({ service });
    expect(store.status()).toEqual({ available: true });

    const key = `sk-${randomBytes(16).toString('hex')}`;
    const token = `bt-${randomBytes(16).toString('hex')}`;
    await store.set('ws-1', 'apiKey', key);
    await store.set('ws-1', 'bearerToken', token);
    await store.set('ws-2', 'apiKey', 'other');

    expect(await store.get('ws-1', 'apiKey')).toBe(key);
    expect(await store.get('ws-1', 'bearerToken')).toBe(token);
    expect(await store.get('ws-2', 'apiKey')).toBe('other');
    expect(await store.get('ws-3', 'apiKey')).toBeNull();
    expect(await lookup(service, 'ws-1:apiKey')).toBe(key);

    // A second store (as after a restart) reads the same items.
    const again = await KeychainSecretStore.open({ service });
    expect(await again.get('ws-1', 'apiKey')).toBe(key);

    await store.set('ws-1', 'apiKey', `${key}-rotated`);
    expect(await again.get('ws-1', 'apiKey')).toBe(`${key}-rotated`);

    await store.delete('ws-1', 'apiKey');
    expect(await store.get('ws-1', 'apiKey')).toBeNull();
    expect(await lookup(service, 'ws-1:apiKey')).toBeNull();
    expect(await store.get('ws-1', 'bearerToken')).toBe(token);
    await store.delete('ws-1', 'apiKey'); // deleting what is gone is fine

    await store.delete('ws-1', 'bearerToken');
    await store.delete('ws-2', 'apiKey');
    // The probe entry leaves nothing behind.
    const { stdout } = await run('secret-tool', ['search', '--all', 'service', service]).catch(() => ({
      stdout: '',
    }));
    expect(stdout).not.toContain('probe:');
  });
});

describe('KeychainSecretStore without a keychain', () => {
  it('says so plainly and refuses to store instead of falling back to plain text', async () => {
    const module = fileURLToPath(new URL('./keychainSecretStore.ts', import.meta.url));
    const script = `
      const { KeychainSecretStore } = await import(${JSON.stringify(module)});
      const store = await KeychainSecretStore.open({ service: 'campaign-desk-test-missing' });
      let setError = null;
      try { await store.set('ws-1', 'apiKey', 'never-stored'); } catch (e) { setError = { name: e.name, code: e.code, message: e.message }; }
      console.log(JSON.stringify({ status: store.status(), setError }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', DESK_KEYRING_READY: '' },
    });
    const out = JSON.parse(stdout) as {
      status: { available: boolean; message: string; detail?: string };
      setError: { name: string; code: string; message: string } | null;
    };
    expect(out.status.available).toBe(false);
    expect(out.status.message).toMatch(
      /^No OS keychain is available \(.+\)\. Secrets can be kept for this session only\.$/,
    );
    if (process.platform === 'linux') {
      expect(out.status.message).toContain(
        'no D-Bus session here, so no Secret Service such as GNOME Keyring or KWallet',
      );
      expect(out.status.detail).toContain('/nonexistent'); // the raw cause, for the log
    }
    expect(out.setError).toEqual({
      name: 'DeskFailure',
      code: 'keychain_unavailable',
      message: out.status.message,
    });
  });

  it('explains the keyring errors in plain words', () => {
    expect(
      plainReason('Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled'),
    ).toMatch(/^no D-Bus session/);
    expect(plainReason('The name org.freedesktop.secrets was not provided by any .service files')).toMatch(
      /no Secret Service/,
    );
    expect(plainReason('something new')).toBe('something new');
    expect(new DeskFailure('keychain_unavailable', 'x').code).toBe('keychain_unavailable');
  });
});
