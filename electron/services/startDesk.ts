import { contract } from '../../shared/ipc/contract.ts';
import type { EventName } from '../../shared/ipc/contract.ts';
import type { Startup } from '../../shared/ipc/channels/app.ts';
import { DeskFailure, fail, ok } from '../../shared/ipc/result.ts';
import { createDesk } from './createDesk.ts';
import type { Desk, DeskOptions } from './createDesk.ts';
import { contractListener, EventBus } from './desk/events.ts';
import { silentLogger } from './logging/logger.ts';

export interface StartingDesk {
  /** Answers at once: `app:startup` while starting, every other request once started (or fails). */
  desk: Desk;
  /**
   * Resolves as soon as a host has something to show: the back end has started, or it is upgrading
   * the database (which may take long). Rejects when it failed before that (the folder in use, a
   * newer schema): the host reports that as it always has.
   */
  answering: Promise<void>;
  /** Resolves with the started back end; rejects with why it could not start. */
  started: Promise<Desk>;
}

const genericFailure = 'The back end could not start. The details are in the log file.';

/**
 * createDesk for the hosts (Electron, the browser host): the window or page can open while the
 * local database is being upgraded (a migration over a million calls takes tens of seconds), shows
 * `app:startup` (and its `app:startup-changed` event) as an upgrade screen, and the app once it
 * has started. Requests other than `app:startup` wait for the start; events are subscribed to the
 * back end once it exists.
 */
export function startDesk(options: DeskOptions): StartingDesk {
  const logger = options.logger ?? silentLogger;
  const bus = new EventBus(logger);
  let status: Startup | null = null;
  let real: Desk | null = null;
  const pending = new Set<{ event: EventName; listener: (payload: unknown) => void; off?: () => void }>();
  let resolveAnswering!: () => void;
  let rejectAnswering!: (error: unknown) => void;
  const answering = new Promise<void>((resolve, reject) => {
    resolveAnswering = resolve;
    rejectAnswering = reject;
  });
  // Marked handled here: a host that never awaits it must not crash the process.
  answering.catch(() => undefined);
  const setStatus = (next: Startup) => {
    status = next;
    bus.emit('app:startup-changed', next);
  };

  const started = createDesk({
    ...options,
    onUpgrade: (p) => {
      options.onUpgrade?.(p);
      setStatus({ state: 'upgrading', ...p });
      resolveAnswering();
    },
  }).then(
    (desk) => {
      real = desk;
      for (const sub of pending) sub.off = desk.on(sub.event, sub.listener);
      setStatus({ state: 'ready' });
      resolveAnswering();
      return desk;
    },
    (error: unknown) => {
      // Before an upgrade was shown the host reports it (answering rejects); during one, the page.
      if (status === null) rejectAnswering(error);
      setStatus({ state: 'failed', message: error instanceof DeskFailure ? error.message : genericFailure });
      throw error;
    },
  );
  started.catch(() => undefined);

  const desk: Desk = {
    async handle(channel, payload) {
      if (real) return real.handle(channel, payload);
      if (channel === 'app:startup') {
        if (!contract['app:startup'].request.safeParse(payload).success)
          return fail('invalid_request', 'The request is not valid for app:startup.');
        await answering.catch(() => undefined);
        if (real) return (real as Desk).handle(channel, payload);
        return ok(contract['app:startup'].response.parse(status));
      }
      try {
        return await (await started).handle(channel, payload);
      } catch {
        return fail('database_error', status?.state === 'failed' ? status.message : genericFailure);
      }
    },
    on(event, listener) {
      if (event === 'app:startup-changed') return bus.on(event, contractListener(event, listener, logger));
      if (real) return real.on(event, listener);
      const sub: { event: EventName; listener: (payload: unknown) => void; off?: () => void } = {
        event,
        listener: listener as (payload: unknown) => void,
      };
      pending.add(sub);
      return () => {
        pending.delete(sub);
        sub.off?.();
      };
    },
    windowState: {
      // Bounds are in the database: a window opened during an upgrade gets the default ones.
      get: () => (real ? real.windowState.get() : Promise.resolve(null)),
      set: (state) => (real ? real.windowState.set(state) : Promise.resolve()),
    },
    dataDir: options.dataDir,
    async close() {
      // During an upgrade this waits for the step to commit (a killed one would roll back whole).
      bus.clear();
      const desk = await started.catch(() => null);
      await desk?.close();
    },
  };
  return { desk, answering, started };
}
