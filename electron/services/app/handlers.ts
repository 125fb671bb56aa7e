import { defineDomain } from '../desk/domain.ts';
import { createConnectivityMonitor } from './connectivity.ts';

/** app:info and app:connectivity (+ the app:connectivity-changed event). */
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
    };
  },
});
