import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { DeskContext } from '../desk/context.ts';
import type { SandboxHandle, SandboxOptions } from '../sandbox/startSandbox.ts';

export const SANDBOX_NAME = 'Sandbox';

export type SandboxStarter = (options: SandboxOptions) => Promise<SandboxHandle>;

/**
 * Starts the embedded sandbox and makes sure the built-in "Sandbox" workspace points at it: created
 * on first start (and made active when nothing else is), its base URL refreshed every start (the
 * port is chosen by the OS). Its API key is random: kept in the keychain when there is one, else a
 * fresh key each start (memory only). A sandbox that fails to start is logged, not fatal.
 */
export async function startSandboxWorkspace(
  ctx: DeskContext,
  start: SandboxStarter,
): Promise<SandboxHandle | null> {
  const { db, secrets, logger } = ctx;
  const existing = await db.call('workspaces.sandbox', {});
  const id = existing?.id ?? randomUUID();
  const storage = secrets.keychain.status().available ? 'keychain' : 'session';
  const store = secrets.store(storage);

  let apiKey = existing?.secretStorage === storage ? await store.get(id, 'apiKey').catch(() => null) : null;
  if (!apiKey) {
    apiKey = `sbx_${randomBytes(24).toString('base64url')}`;
    await store.set(id, 'apiKey', apiKey);
  }

  let handle: SandboxHandle;
  try {
    const dataDir = join(ctx.options.dataDir, 'sandbox');
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    handle = await start({ apiKey, dataDir });
  } catch (error) {
    logger.error('the built-in sandbox did not start', error);
    return null;
  }

  if (existing) {
    await db.call('workspaces.update', { id, baseUrl: handle.baseUrl, secretStorage: storage });
  } else {
    await db
      .call('workspaces.insert', {
        id,
        name: SANDBOX_NAME,
        baseUrl: handle.baseUrl,
        isSandbox: true,
        secretStorage: storage,
      })
      .catch((error: unknown) => {
        // An operator's own workspace already uses the name: keep theirs, name ours apart.
        if (!(error instanceof DeskFailure && error.code === 'conflict')) throw error;
        return db.call('workspaces.insert', {
          id,
          name: `${SANDBOX_NAME} (built-in)`,
          baseUrl: handle.baseUrl,
          isSandbox: true,
          secretStorage: storage,
        });
      });
  }
  if ((await db.call('workspaces.active', {})) === null) await db.call('workspaces.setActive', { id });
  logger.info('sandbox started', { url: handle.baseUrl, storage });
  return handle;
}
