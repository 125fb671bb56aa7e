// The contacts domain's back end, composed: import sessions, bulk changes, list deletion and
// exports each in a module of its own; here the paging reads and single-row fixes that use them.
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract.ts';
import type { BulkProgress, ContactFilter, ContactList } from '../../../shared/ipc/channels/contacts.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { DbClient } from '../db/client.ts';
import type { EventBus } from '../desk/events.ts';
import type { Logger } from '../logging/logger.ts';
import { createBackgroundWork } from './backgroundWork.ts';
import { createBulkRunner, STEP_MS } from './bulkRunner.ts';
import { createImportSessions } from './importSessions.ts';
import { createListDeletion } from './listDeletion.ts';
import { exportList } from './listExport.ts';
import type { AgentUpload } from './listExport.ts';
import { filterTotal, toContactList } from './listView.ts';
import { createAnchorCache } from './pagingAnchors.ts';
import { toContactRow } from './rowState.ts';

export { IMPORT_IDLE_MS } from './importSessions.ts';

export interface ContactsServiceOptions {
  db: DbClient;
  logger: Logger;
  dataDir: string;
  now?: () => string;
  /** The upload for an agent (its mapping's columns and variables_map), from the agents domain. */
  agentUpload?: AgentUpload;
  /** Where bulk progress goes (contacts:bulk-progress); none in some tests. */
  events?: Pick<EventBus, 'emit'>;
  /** Rows deleted per database call when a list goes away (tests make it small). */
  deleteChunk?: number;
  /** Time budget of one bulk step (0: one chunk of rows per step, as tests use). */
  stepMs?: number;
  /** How long a deleted list's rows wait, with Cancel, before they are removed. */
  deleteGraceMs?: number;
}

export function createContactsService(options: ContactsServiceOptions) {
  const { db, logger } = options;
  const now = options.now ?? (() => new Date().toISOString());
  const anchors = createAnchorCache();
  const stepMs = options.stepMs ?? STEP_MS;
  const progress = (p: BulkProgress) => options.events?.emit('contacts:bulk-progress', p);
  const background = createBackgroundWork();

  const list = async (listId: number): Promise<ContactList> => {
    const stored = await db.call('contacts.list', { listId });
    if (!stored || stored.status === 'deleting')
      throw new DeskFailure('not_found', 'This contact list no longer exists.', 'listId');
    return toContactList(stored);
  };

  const bulk = createBulkRunner({ db, now, stepMs, progress, changed: (id) => anchors.forget(id), list });
  const deletion = createListDeletion({
    db,
    logger,
    progress,
    background,
    stepMs,
    deleteChunk: options.deleteChunk,
    deleteGraceMs: options.deleteGraceMs,
    leaving: (listId) => {
      anchors.forget(listId);
      bulk.stop(listId);
    },
  });
  const imports = createImportSessions({ db, logger, now, background, deleteList: deletion.deleteList });

  return {
    /** Lists left half-imported or half-deleted by an earlier run go away. */
    async sweepUnfinished(): Promise<void> {
      // Both asked at once (before the first await), so a back end closed right after start
      // still answers them.
      const [lists, jobsLeft] = await Promise.all([
        db.call('contacts.unfinished', {}),
        db.call('contacts.unfinishedJobs', {}),
      ]);
      for (const listId of lists) void deletion.deleteList(listId);
      // A bulk change cut short by a crash is rolled back; an undo or rollback is finished or reversed.
      for (const job of jobsLeft) {
        void bulk
          .runJob(job)
          .catch((error: unknown) =>
            logger.error('rolling back an unfinished bulk change failed', error, { listId: job.listId }),
          );
      }
    },

    async lists(): Promise<ResponseOf<'contacts:lists'>> {
      return { lists: (await db.call('contacts.lists', {})).map(toContactList) };
    },

    async get(req: ParsedRequestOf<'contacts:get'>): Promise<ResponseOf<'contacts:get'>> {
      return { list: await list(req.listId) };
    },

    async remove(req: ParsedRequestOf<'contacts:delete'>): Promise<ResponseOf<'contacts:delete'>> {
      // Stopping a change midway would leave the list half-changed (and, after Cancel, locked).
      bulk.idle(req.listId);
      const stored = await db.call('contacts.list', { listId: req.listId });
      if (!stored || stored.status === 'deleting') return { deleted: false };
      imports.forgetList(req.listId);
      await deletion.deleteList(req.listId, Promise.resolve(), true);
      return { deleted: true };
    },

    importBegin: imports.begin,
    importBatch: imports.batch,
    importReset: imports.reset,
    importFinish: imports.finish,
    importAbort: imports.abort,

    async rows(req: ParsedRequestOf<'contacts:rows'>): Promise<ResponseOf<'contacts:rows'>> {
      const all = req.filter === 'all';
      const read = db.call('contacts.listForPage', { listId: req.listId });
      // 'all' pages by position and needs nothing from the list: both queries go at once. Both go
      // to the read lane, so a page read never waits behind a bulk change's step.
      const page = (fromRow: number, skip: number) =>
        db.call('contacts.page', { listId: req.listId, filter: req.filter, fromRow, skip, limit: req.limit });
      const early = all ? page(0, req.offset) : null;
      early?.catch(() => undefined);
      const stored = await read;
      if (!stored || stored.status !== 'ready')
        throw new DeskFailure('not_found', 'This contact list is not available.', 'listId');
      const total =
        req.filter.startsWith('empty:') || req.filter === 'suppressed'
          ? await db.call('contacts.filterCount', {
              listId: req.listId,
              filter: req.filter as Exclude<ContactFilter, 'all'>,
            })
          : filterTotal(toContactList(stored).counts, req.filter);
      if (req.offset >= total) return { total, offset: req.offset, rows: [] };
      // Filters start from the nearest known anchor.
      let rows;
      if (early) rows = await early;
      else {
        const { fromRow, skip } = anchors.start(req.listId, req.filter, stored.revision, req.offset);
        rows = await page(fromRow, skip);
      }
      // A suppressed row's place moves with the do-not-call list, not with the list's revision.
      if (!all && req.filter !== 'suppressed')
        anchors.learn(
          req.listId,
          req.filter,
          stored.revision,
          req.offset,
          rows.map((r) => r.row),
        );
      const out = rows.map(toContactRow);
      if (out.length > 0) {
        // Rows the service refused in a launch of this list carry its reason (the grid's chip).
        const refused = await db.call('contacts.refusals', {
          listId: req.listId,
          rows: out.map((r) => r.row),
        });
        if (refused.length > 0) {
          const reasonOf = new Map(refused.map((r) => [r.row, r.reason]));
          for (const r of out) {
            const reason = reasonOf.get(r.row);
            if (reason !== undefined) r.refused = reason;
          }
        }
        // Rows whose number is on the do-not-call list carry its reason (issue `suppressed`).
        const suppressed = await db.call('suppression.rowReasons', {
          listId: req.listId,
          rows: out.filter((r) => r.bucket === 'valid' && !r.excluded).map((r) => r.row),
        });
        if (suppressed.length > 0) {
          const reasonOf = new Map(suppressed.map((r) => [r.row, r.reason]));
          for (const r of out) {
            const reason = reasonOf.get(r.row);
            if (reason !== undefined) r.suppressed = reason;
          }
        }
      }
      return { total, offset: req.offset, rows: out };
    },

    async locate(req: ParsedRequestOf<'contacts:locate'>): Promise<ResponseOf<'contacts:locate'>> {
      return { index: await db.call('contacts.locate', req) };
    },

    async editCell(req: ParsedRequestOf<'contacts:edit-cell'>): Promise<ResponseOf<'contacts:edit-cell'>> {
      bulk.idle(req.listId);
      const result = await db.call('contacts.editCell', { ...req, now: now() });
      return { list: toContactList(result.list), changed: result.changed.map(toContactRow) };
    },

    async setExcluded(
      req: ParsedRequestOf<'contacts:set-excluded'>,
    ): Promise<ResponseOf<'contacts:set-excluded'>> {
      bulk.idle(req.listId);
      return { list: toContactList(await db.call('contacts.setExcluded', { ...req, now: now() })) };
    },

    bulk: bulk.bulk,
    undo: bulk.undo,

    async cancelBulk(
      req: ParsedRequestOf<'contacts:bulk-cancel'>,
    ): Promise<ResponseOf<'contacts:bulk-cancel'>> {
      return { cancelling: deletion.cancel(req.listId) || bulk.cancel(req.listId) };
    },

    async exportFile(req: ParsedRequestOf<'contacts:export'>): Promise<ResponseOf<'contacts:export'>> {
      bulk.idle(req.listId);
      return exportList(db, options.dataDir, options.agentUpload, req);
    },

    /** Drops imports whose page stopped talking (their partial lists are deleted). */
    dropIdleImports: imports.dropIdle,

    /** Waits for background deletions (ending their Cancel windows now) and number indexes (tests, shutdown). */
    settle: deletion.settle,

    /** Whether a bulk change or undo runs on the list (tests). */
    busy: bulk.busy,
  };
}

export type ContactsService = ReturnType<typeof createContactsService>;
