import { agentUpload } from '../agents/listMapping.ts';
import { defineDomain } from '../desk/domain.ts';
import { createContactsService, IMPORT_IDLE_MS } from './contactsService.ts';
import { DOWNLOAD_TTL_MS, sweepDownloads } from './downloads.ts';

/** contacts:* channels: import batches into SQLite, review, fix, export. */
export const contactsDomain = defineDomain({
  name: 'contacts',
  create(ctx) {
    const service = createContactsService({
      db: ctx.db,
      logger: ctx.logger,
      dataDir: ctx.options.dataDir,
      agentUpload: (req) => agentUpload(ctx, req),
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
      'contacts:export': (request) => service.exportFile(request),
    };
  },
});
