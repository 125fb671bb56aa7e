import type { DeskContext } from '../desk/context.ts';
import type { Domain } from '../desk/domain.ts';
import { defineDomain } from '../desk/domain.ts';
import { createContactsService, IMPORT_IDLE_MS } from './contactsService.ts';
import { DOWNLOAD_TTL_MS, sweepDownloads } from '../files/downloads.ts';
import type { AgentUpload } from './listExport.ts';

/**
 * contacts:* channels: import batches into SQLite, review, fix, export. An agent's upload comes
 * from the agents domain, handed in by domains.ts (agents uses contacts, so contacts does not
 * import agents).
 */
export const contactsDomain = (agentUpload: (ctx: DeskContext) => AgentUpload): Domain =>
  defineDomain({
    name: 'contacts',
    create(ctx) {
      const service = createContactsService({
        db: ctx.db,
        logger: ctx.logger,
        dataDir: ctx.options.dataDir,
        agentUpload: agentUpload(ctx),
        events: ctx.events,
      });
      // Half-imported lists and unfetched downloads from an earlier run go away.
      void service
        .sweepUnfinished()
        .catch((error: unknown) => ctx.logger.error('contacts clean-up failed', error));
      sweepDownloads(ctx.options.dataDir);
      const sweeper = setInterval(() => sweepDownloads(ctx.options.dataDir), DOWNLOAD_TTL_MS / 4);
      sweeper.unref();
      const idle = setInterval(() => service.dropIdleImports(), IMPORT_IDLE_MS / 4);
      idle.unref();
      ctx.onClose(async () => {
        clearInterval(sweeper);
        clearInterval(idle);
        await service.settle();
      });
      return {
        'contacts:lists': () => service.lists(),
        'contacts:get': (request) => service.get(request),
        'contacts:delete': (request) => service.remove(request),
        'contacts:import-begin': (request) => service.importBegin(request),
        'contacts:import-batch': (request) => service.importBatch(request),
        'contacts:import-reset': (request) => service.importReset(request),
        'contacts:import-finish': (request) => service.importFinish(request),
        'contacts:import-abort': (request) => service.importAbort(request),
        'contacts:rows': (request) => service.rows(request),
        'contacts:locate': (request) => service.locate(request),
        'contacts:edit-cell': (request) => service.editCell(request),
        'contacts:set-excluded': (request) => service.setExcluded(request),
        'contacts:bulk': (request) => service.bulk(request),
        'contacts:undo': (request) => service.undo(request),
        'contacts:bulk-cancel': (request) => service.cancelBulk(request),
        'contacts:export': (request) => service.exportFile(request),
      };
    },
  });
