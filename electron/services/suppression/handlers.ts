import { requireActiveWorkspace } from '../workspaces/workspaceAccess.ts';
import { defineDomain } from '../desk/domain.ts';
import { createSuppressionService } from './suppressionService.ts';

/** After a sync stored calls, offers are looked for once things are quiet (a sync emits many changes). */
const SCAN_DELAY_MS = 2000;

/** suppression:* channels: the do-not-call list, its offers from results, files. */
export const suppressionDomain = defineDomain({
  name: 'suppression',
  create(ctx) {
    const service = createSuppressionService({
      db: ctx.db,
      dataDir: ctx.options.dataDir,
      events: ctx.events,
      workspace: async () => (await requireActiveWorkspace(ctx)).id,
    });
    // Calls stored by a sync (manual, background or live) are checked for DND skips and opt-out
    // phrases; what is found is offered, never added.
    const timers = new Map<string, NodeJS.Timeout>();
    let running: Promise<unknown> = Promise.resolve();
    const off = ctx.events.on('calls:changed', ({ workspaceId }) => {
      clearTimeout(timers.get(workspaceId));
      const timer = setTimeout(() => {
        timers.delete(workspaceId);
        running = running
          .then(() => service.scan(workspaceId))
          .catch((error: unknown) => ctx.logger.error('suppression scan failed', error));
      }, SCAN_DELAY_MS);
      timer.unref();
      timers.set(workspaceId, timer);
    });
    ctx.onClose(async () => {
      off();
      for (const t of timers.values()) clearTimeout(t);
      await running;
    });
    return {
      'suppression:list': (req) => service.list(req),
      'suppression:add': (req) => service.add(req),
      'suppression:remove': (req) => service.remove(req),
      'suppression:undo-remove': (req) => service.undoRemove(req),
      'suppression:history': (req) => service.history(req),
      'suppression:from-calls': (req) => service.fromCalls(req),
      'suppression:from-results': (req) => service.fromResults(req),
      'suppression:offers': (req) => service.offers(req),
      'suppression:resolve-offers': (req) => service.resolveOffers(req),
      'suppression:scan': () => service.scanNow(),
      'suppression:phrases': () => service.phrases(),
      'suppression:set-phrases': (req) => service.setPhrases(req),
      'suppression:list-check': (req) => service.listCheck(req),
      'suppression:import-list': (req) => service.importList(req),
      'suppression:export': (req) => service.exportFile(req),
    };
  },
});
