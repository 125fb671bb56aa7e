// Test fixtures of the calls domain: a desk on a real sandbox process, and a sync asked for now.
import type { SyncStatus } from '../../../shared/ipc/channels/calls.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import type { SandboxProcess } from '../api/testing/sandboxProcess.ts';
import { createDesk } from '../createDesk.ts';
import type { Desk, DeskOptions } from '../createDesk.ts';
import { SessionSecretStore } from '../secrets/sessionSecretStore.ts';

export const value = <T>(result: Result<unknown>): T => {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value as T;
};

/** A desk (no built-in sandbox, session secrets) whose active workspace is `sandbox`. */
export async function deskOnSandbox(
  sandbox: Pick<SandboxProcess, 'baseUrl' | 'apiKey'>,
  dataDir: string,
  timings?: DeskOptions['timings'],
): Promise<{ desk: Desk; workspaceId: string }> {
  const desk = await createDesk({
    dataDir,
    host: 'browser',
    version: '1',
    sandbox: 'off',
    secrets: new SessionSecretStore(),
    ...(timings ? { timings } : {}),
  });
  const ws = value<{ id: string }>(
    await desk.handle('workspaces:create', {
      name: 'S',
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      sessionOnly: true,
    }),
  );
  value(await desk.handle('workspaces:set-active', { id: ws.id }));
  return { desk, workspaceId: ws.id };
}

/** Asks for a sync of the last 31 days (no recordings) and resolves with its final status. */
export async function syncNow(desk: Desk): Promise<{ started: boolean; final: SyncStatus }> {
  const done = new Promise<SyncStatus>((resolve) =>
    desk.on('calls:sync-progress', (s) => {
      if (s.state !== 'running') resolve(s);
    }),
  );
  const { started } = value<{ started: boolean }>(
    await desk.handle('calls:sync', {
      since: new Date(Date.now() - 31 * 86_400_000).toISOString(),
      recordings: false,
    }),
  );
  return { started, final: await done };
}
