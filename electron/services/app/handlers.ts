import { DeskFailure } from '../../../shared/ipc/result.ts';
import { activeWorkspace, workspaceClient } from '../workspaces/workspaceAccess.ts';
import { isApiError } from '../api/index.ts';
import { defineDomain } from '../desk/domain.ts';
import type { DeskContext } from '../desk/context.ts';
import { createConnectivityMonitor } from './connectivity.ts';
import type { ServiceStatus } from './connectivity.ts';

/** The active workspace's service with its key: online, key rejected, or an error in its words. */
async function serviceStatus(
  ctx: DeskContext,
): Promise<{ status: Exclude<ServiceStatus, 'offline'>; message?: string }> {
  const record = await activeWorkspace(ctx);
  if (!record) return { status: 'online' };
  try {
    const client = await workspaceClient(ctx, record, {
      timeoutMs: ctx.options.timings.connectivityTimeoutMs,
      maxRetries: 0,
    });
    await client.getWorkspaceInfo();
    return { status: 'online' };
  } catch (e) {
    if (e instanceof DeskFailure && e.code === 'unauthorized')
      return { status: 'key-rejected', message: e.message };
    if (isApiError(e)) {
      if (e.kind === 'unauthorized') return { status: 'key-rejected', message: e.message };
      // The host answered the reachability check; a timeout here is the service failing to answer.
      return { status: 'service-error', message: e.message };
    }
    throw e;
  }
}

/** app:info, app:connectivity (+ the app:connectivity-changed event) and app:startup once started. */
export const appDomain = defineDomain({
  name: 'app',
  create(ctx) {
    const monitor = createConnectivityMonitor({
      target: async () => {
        const activeId = await ctx.db.call('workspaces.active', {});
        if (activeId === null) return null;
        return (await ctx.db.call('workspaces.get', { id: activeId }))?.baseUrl ?? null;
      },
      intervalMs: ctx.options.timings.connectivityIntervalMs,
      timeoutMs: ctx.options.timings.connectivityTimeoutMs,
      onChange: (state) => ctx.events.emit('app:connectivity-changed', state),
      logger: ctx.logger,
      authCheck: () => serviceStatus(ctx),
    });
    // A new active workspace (or a new address for it) is checked at once.
    const unsubscribe = ctx.events.on('workspaces:changed', () => void monitor.refresh());
    void monitor.refresh();
    ctx.onClose(() => {
      unsubscribe();
      monitor.stop();
    });

    return {
      'app:info': async () => ({
        version: ctx.options.version,
        host: ctx.options.host,
        keychain: ctx.secrets.keychain.status(),
      }),
      'app:connectivity': () => monitor.current(),
      // The back end answering at all means it has started (startDesk.ts answers before that).
      'app:startup': async () => ({ state: 'ready' as const }),
    };
  },
});
