// The contacts domain's back end: import sessions (ordered batches into SQLite), paging, fixes,
// exports, and deleting big lists in small steps so the database worker stays responsive.
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { ContactsError, resolveSetup } from '../../../shared/domain/contacts/index.ts';
import type { CleanChoices, EngineSetup } from '../../../shared/domain/contacts/index.ts';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract.ts';
import { variableChecks } from '../../../shared/ipc/channels/contacts.ts';
import type { BulkProgress, ContactFilter, ContactList } from '../../../shared/ipc/channels/contacts.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { DbClient } from '../db/client.ts';
import { isCancellable } from '../db/queries/contactsBulk.ts';
import type { BulkAction, BulkJob } from '../db/queries/contactsBulk.ts';
import type { EventBus } from '../desk/events.ts';
import type { Logger } from '../logging/logger.ts';
import { newDownload, removeDownload } from './downloads.ts';
import { writeSteadyExport } from './exportFile.ts';
import { filterTotal, toContactList } from './listView.ts';
import { createAnchorCache } from './pagingAnchors.ts';
import { bulkBusy, toContactRow } from './rowState.ts';

interface ImportSession {
  listId: number;
  /** When the renderer last sent something (an import left alone is dropped, see IDLE_MS). */
  lastActivity: number;
  phoneIndex: number;
  headerRow: number;
  /** The next batch seq expected, rows stored so far, last spreadsheet row stored. */
  nextSeq: number;
  pos: number;
  lastRow: number;
  /** Batches, resets and the finish run one after another, in the order they arrived. */
  queue: Promise<unknown>;
  started: number;
}

/** The bytes in a buffer of their own (a socket frame is a view into a larger one), so they can move. */
const standalone = (bytes: Uint8Array): Uint8Array =>
  bytes.byteOffset === 0 &&
  bytes.byteLength === bytes.buffer.byteLength &&
  bytes.buffer instanceof ArrayBuffer
    ? bytes
    : new Uint8Array(bytes);

/**
 * Entries deleted per database call when a list goes away (rows, their numbers, their undo): other
 * writes wait at most one call (page reads go to the read lane and wait for none). Key-range
 * deletes of 20,000 took up to ~140 ms on a 2-core machine; 1M rows with their numbers 4.7 s,
 * against 5.8 s in calls of 5,000.
 */
const DELETE_CHUNK = 20_000;
/** An import with no message for this long is given up (its page was closed or crashed). */
export const IMPORT_IDLE_MS = 10 * 60 * 1000;

const failureFromEngine = (error: unknown): unknown => {
  if (!(error instanceof ContactsError)) return error;
  const field =
    error.code === 'unknown_column' || error.code === 'no_phone_column' ? 'choices' : 'choices.country';
  return new DeskFailure(
    'invalid_request',
    error.message.charAt(0).toUpperCase() + error.message.slice(1) + '.',
    field,
  );
};

/** The engine's choices from the renderer's: unmapped variables are left out (nothing to check). */
function engineChoices(req: ParsedRequestOf<'contacts:import-begin'>): CleanChoices {
  return {
    country: req.choices.country,
    phoneColumn: req.detected.phoneColumn,
    ...variableChecks(req.choices.variables),
  };
}

const safeFileName = (name: string): string =>
  name
    .replace(/\.csv$/i, '')
    .replace(/[^\p{L}\p{N}._ -]+/gu, '_')
    .trim()
    .slice(0, 80) || 'contacts';

export interface ContactsServiceOptions {
  db: DbClient;
  logger: Logger;
  dataDir: string;
  now?: () => string;
  /** The upload for an agent (its mapping's columns and variables_map), from the agents domain. */
  agentUpload?: (req: {
    listId: number;
    agentId: string;
    versionId?: string | undefined;
  }) => Promise<{ setup: EngineSetup; variablesMap: Record<string, string>; fillBlank?: number[] }>;
  /** Where bulk progress goes (contacts:bulk-progress); none in some tests. */
  events?: Pick<EventBus, 'emit'>;
  /** Rows deleted per database call when a list goes away (tests make it small). */
  deleteChunk?: number;
  /** Time budget of one bulk step (0: one chunk of rows per step, as tests use). */
  stepMs?: number;
  /** How long a deleted list's rows wait, with Cancel, before they are removed. */
  deleteGraceMs?: number;
}

/**
 * A deleted list disappears at once, but its rows stay this long with Cancel on the progress bar:
 * once removal starts, the rows are gone for good, so that is the moment Cancel can still act.
 */
const DELETE_GRACE_MS = 6000;

/**
 * Time budget of one bulk step in the database worker: a call on the writer waits at most about
 * this (plus one chunk); page reads go to the read lane and wait for no step. Longer steps write
 * each touched index page fewer times and commit less often: on a 2-core machine 150 ms made
 * `bench:bulk` 20-25% faster than 50 ms (apply to all 1M rows 29 -> 22 s, its undo 20.5 -> 15 s).
 */
const STEP_MS = 150;

/** A bulk change or undo running on a list (one at a time per list). */
interface RunningJob {
  cancel: boolean;
  /** The list went away: stop without rolling back. */
  stopped: boolean;
}

const progressAction = (job: BulkJob): BulkProgress['action'] =>
  job.mode === 'undo' || job.mode === 'unswap' || !job.action ? 'undo' : job.action.kind;

export function createContactsService(options: ContactsServiceOptions) {
  const { db, logger } = options;
  const now = options.now ?? (() => new Date().toISOString());
  const sessions = new Map<string, ImportSession>();
  const anchors = createAnchorCache();
  const deletions = new Set<Promise<void>>();
  /** Other work started in the background (number indexes): settle() waits for it too. */
  const background = new Set<Promise<void>>();
  const jobs = new Map<number, RunningJob>();
  const deleteChunk = options.deleteChunk ?? DELETE_CHUNK;
  const deleteGraceMs = options.deleteGraceMs ?? DELETE_GRACE_MS;
  /** Deletions in their Cancel window: end(true) cancels, end(false) starts the removal now. */
  const graces = new Map<number, (cancel: boolean) => void>();
  /** settle() runs: deletions start their removal without a Cancel window. */
  let settling = 0;
  const stepMs = options.stepMs ?? STEP_MS;
  const progress = (p: BulkProgress) => options.events?.emit('contacts:bulk-progress', p);

  /** Refuses a change while a bulk change or undo runs on the list. */
  const idle = (listId: number) => {
    if (jobs.has(listId)) throw bulkBusy();
  };

  /**
   * Runs a job a step at a time (each step one short transaction in the database worker, so page
   * reads get their turn between steps), reporting progress; Cancel turns it into its rollback.
   */
  const runJob = async (first: BulkJob): Promise<{ job: BulkJob; cancelled: boolean; list: ContactList }> => {
    const { listId } = first;
    const running: RunningJob = { cancel: false, stopped: false };
    jobs.set(listId, running);
    let job = first;
    let cancelled = false;
    const action = progressAction(first);
    try {
      while (job.phase !== 'done') {
        if (running.stopped)
          throw new DeskFailure('not_found', 'This contact list no longer exists.', 'listId');
        const cancel = running.cancel && isCancellable(job);
        if (cancel) cancelled = true;
        job = await db.call('contacts.bulkStep', { job, cancel, budgetMs: stepMs, now: now() });
        // Calls that arrived meanwhile (a page read's second query) go to the worker before the next step.
        await new Promise((resolve) => setImmediate(resolve));
        anchors.forget(listId);
        const rollingBack = job.mode === 'revert' || job.mode === 'unswap';
        progress({
          listId,
          action,
          label: job.label,
          state:
            job.phase === 'done'
              ? cancelled
                ? 'cancelled'
                : 'done'
              : rollingBack
                ? 'cancelling'
                : 'running',
          done: Math.min(job.done, job.total),
          total: job.total,
          cancellable: isCancellable(job),
        });
      }
      return { job, cancelled, list: await list(listId) };
    } catch (error) {
      progress({
        listId,
        action,
        label: job.label,
        state: 'failed',
        done: job.done,
        total: job.total,
        cancellable: false,
      });
      throw error;
    } finally {
      jobs.delete(listId);
    }
  };

  /** The Cancel window of a deleted list; true (and the list is back) when the operator cancelled. */
  const cancelledInGrace = async (listId: number, label: string, total: number): Promise<boolean> => {
    if (settling > 0 || deleteGraceMs <= 0) return false;
    const base = { listId, action: 'delete', label, done: 0, total } as const;
    progress({ ...base, state: 'running', cancellable: true });
    const cancel = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), deleteGraceMs);
      graces.set(listId, (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    graces.delete(listId);
    if (!cancel) return false;
    await db.call('contacts.restoreDeleted', { listId });
    progress({ ...base, state: 'cancelled', cancellable: false });
    return true;
  };

  const list = async (listId: number): Promise<ContactList> => {
    const stored = await db.call('contacts.list', { listId });
    if (!stored || stored.status === 'deleting')
      throw new DeskFailure('not_found', 'This contact list no longer exists.', 'listId');
    return toContactList(stored);
  };

  /**
   * Marks a list deleted at once, then (once `after` settles) removes its rows a chunk at a time
   * in the background. Resolves once the mark is committed: read queries go to the read lane and
   * may overtake a write still in flight, so an answer that says "deleted" awaits it.
   */
  const deleteList = (
    listId: number,
    after: Promise<unknown> = Promise.resolve(),
    cancellable = false,
  ): Promise<void> => {
    anchors.forget(listId);
    const running = jobs.get(listId);
    if (running) running.stopped = true;
    let hidden = () => {};
    const marked = new Promise<void>((resolve) => (hidden = resolve));
    const work = (async () => {
      // Marked first, removed afterwards.
      const read = db.call('contacts.list', { listId });
      const marking = db.call('contacts.markDeleting', { listId });
      const stored = await read;
      await marking.finally(hidden);
      await after.catch(() => undefined);
      const total = stored ? toContactList(stored).counts.rows : 0;
      const label = stored ? `Delete ${stored.name}` : 'Delete a list';
      if (cancellable && stored?.status === 'ready' && (await cancelledInGrace(listId, label, total))) return;
      let done = 0;
      for (;;) {
        const n = await db.call('contacts.clearRows', { listId, limit: deleteChunk });
        if (n === 0) break;
        // Next chunk: other queries get their turn between calls.
        done += n;
        progress({
          listId,
          action: 'delete',
          label,
          state: 'running',
          done: Math.min(done, total),
          total,
          cancellable: false,
        });
      }
      await db.call('contacts.removeList', { listId });
      // The file gives the space back, one time-bounded step per call so the worker keeps answering.
      while (await db.call('db.reclaimSpace', { budgetMs: stepMs })) {
        // Next chunk.
      }
      progress({ listId, action: 'delete', label, state: 'done', done: total, total, cancellable: false });
    })().catch((error: unknown) => logger.error('deleting a contact list failed', error, { listId }));
    deletions.add(work);
    void work.finally(() => {
      hidden();
      deletions.delete(work);
    });
    return marked;
  };

  /**
   * The list's number index, owed by its import (migration 0100), built now in the background:
   * the list is ready without it, and a change that needs it first builds it itself.
   */
  const buildNumbersSoon = (listId: number): void => {
    const work = db
      .call('contacts.buildNumbers', { listId })
      .then(() => undefined)
      .catch((error: unknown) => logger.error("building a list's number index failed", error, { listId }));
    background.add(work);
    void work.finally(() => background.delete(work));
  };

  const session = (importId: string): ImportSession => {
    const s = sessions.get(importId);
    if (!s)
      throw new DeskFailure(
        'not_found',
        'This import is no longer running (it finished, failed or was cancelled).',
        'importId',
      );
    s.lastActivity = Date.now();
    return s;
  };

  /** Runs `work` after everything already queued for the import. */
  const queued = <T>(s: ImportSession, work: () => Promise<T>): Promise<T> => {
    const next = s.queue.then(work, work);
    s.queue = next.catch(() => undefined);
    return next;
  };

  const exportTarget = (path: string, fileName: string): string => {
    const expanded = path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
    if (!isAbsolute(expanded)) {
      throw new DeskFailure(
        'invalid_request',
        'Give a full path, such as ~/Downloads/contacts-upload.csv.',
        'path',
      );
    }
    let target = resolve(expanded);
    if (existsSync(target) && statSync(target).isDirectory()) target = join(target, fileName);
    const folder = dirname(target);
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      throw new DeskFailure('file_error', `The folder ${folder} does not exist.`, 'path');
    }
    return target;
  };

  return {
    /** Lists left half-imported or half-deleted by an earlier run go away. */
    async sweepUnfinished(): Promise<void> {
      // Both asked at once (before the first await), so a back end closed right after start
      // still answers them.
      const [lists, jobsLeft] = await Promise.all([
        db.call('contacts.unfinished', {}),
        db.call('contacts.unfinishedJobs', {}),
      ]);
      for (const listId of lists) void deleteList(listId);
      // A bulk change cut short by a crash is rolled back; an undo or rollback is finished or reversed.
      for (const job of jobsLeft) {
        void runJob(job).catch((error: unknown) =>
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
      idle(req.listId);
      const stored = await db.call('contacts.list', { listId: req.listId });
      if (!stored || stored.status === 'deleting') return { deleted: false };
      for (const [id, s] of sessions) if (s.listId === req.listId) sessions.delete(id);
      await deleteList(req.listId, Promise.resolve(), true);
      return { deleted: true };
    },

    async importBegin(
      req: ParsedRequestOf<'contacts:import-begin'>,
    ): Promise<ResponseOf<'contacts:import-begin'>> {
      let setup: EngineSetup;
      try {
        const d = req.detected;
        setup = resolveSetup(d.header, d.headerRow, d.delimiter, d.newline, engineChoices(req));
      } catch (error) {
        throw failureFromEngine(error);
      }
      const stored = await db.call('contacts.createList', {
        name: req.name,
        fileName: req.fileName,
        fileBytes: req.fileBytes,
        country: req.choices.country,
        detected: req.detected,
        mapping: req.choices.variables,
        setup,
        now: now(),
      });
      const importId = randomBytes(16).toString('base64url');
      sessions.set(importId, {
        listId: stored.id,
        phoneIndex: setup.phoneIndex,
        headerRow: setup.headerRow,
        nextSeq: 0,
        pos: 0,
        lastRow: setup.headerRow,
        queue: Promise.resolve(),
        started: Date.now(),
        lastActivity: Date.now(),
      });
      logger.info('contacts import started', { listId: stored.id, bytes: req.fileBytes });
      return { importId, list: toContactList(stored) };
    },

    async importBatch(
      req: ParsedRequestOf<'contacts:import-batch'>,
    ): Promise<ResponseOf<'contacts:import-batch'>> {
      const s = session(req.importId);
      return queued(s, async () => {
        if (req.seq !== s.nextSeq) {
          throw new DeskFailure(
            'invalid_request',
            `Import batch ${req.seq} arrived out of order (expected ${s.nextSeq}).`,
            'seq',
          );
        }
        // The bytes go to the database worker as they came (moved, not cloned); it checks and
        // stores them, so this thread never parses a row.
        const data = typeof req.data === 'string' ? req.data : standalone(req.data);
        const stored = await db.call(
          'contacts.insertBatch',
          { listId: s.listId, seq: req.seq, data, phoneIndex: s.phoneIndex, pos: s.pos, afterRow: s.lastRow },
          typeof data === 'string' ? [] : [data.buffer as ArrayBuffer],
        );
        s.nextSeq++;
        s.pos += stored.rows;
        s.lastRow = stored.lastRow ?? s.lastRow;
        return { received: s.pos };
      });
    },

    async importReset(
      req: ParsedRequestOf<'contacts:import-reset'>,
    ): Promise<ResponseOf<'contacts:import-reset'>> {
      const s = session(req.importId);
      return queued(s, async () => {
        while ((await db.call('contacts.clearRows', { listId: s.listId, limit: DELETE_CHUNK })) > 0) {
          // Next chunk.
        }
        s.pos = 0;
        s.lastRow = s.headerRow;
        return { received: 0 };
      });
    },

    async importFinish(
      req: ParsedRequestOf<'contacts:import-finish'>,
    ): Promise<ResponseOf<'contacts:import-finish'>> {
      const s = session(req.importId);
      return queued(s, async () => {
        const { report } = req;
        if (s.pos !== report.rows) {
          sessions.delete(req.importId);
          await deleteList(s.listId);
          throw new DeskFailure(
            'internal',
            `The import stored ${s.pos} rows but the file has ${report.rows}; nothing was kept. Import the file again.`,
          );
        }
        const stored = await db.call('contacts.finishImport', {
          listId: s.listId,
          report,
          lateDuplicates: req.lateDuplicates,
          now: now(),
        });
        sessions.delete(req.importId);
        const result = toContactList(stored);
        const c = result.counts;
        if (c.valid !== report.valid || c.invalid !== report.invalid || c.duplicates !== report.duplicates) {
          await deleteList(s.listId);
          throw new DeskFailure(
            'internal',
            `The stored counts (${c.valid} valid, ${c.invalid} invalid, ${c.duplicates} duplicates) differ from the engine's (${report.valid}, ${report.invalid}, ${report.duplicates}); nothing was kept.`,
          );
        }
        logger.info('contacts import finished', {
          listId: s.listId,
          rows: c.rows,
          ms: Date.now() - s.started,
        });
        buildNumbersSoon(s.listId);
        return { list: result };
      });
    },

    async importAbort(
      req: ParsedRequestOf<'contacts:import-abort'>,
    ): Promise<ResponseOf<'contacts:import-abort'>> {
      const s = sessions.get(req.importId);
      if (!s) return { aborted: false };
      sessions.delete(req.importId);
      // Hidden from every later read before this answers (so a list reloaded after Cancel cannot
      // show it); batches still queued finish first, then the rows go.
      await db.call('contacts.markDeleting', { listId: s.listId });
      void deleteList(s.listId, s.queue);
      return { aborted: true };
    },

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
      idle(req.listId);
      const result = await db.call('contacts.editCell', { ...req, now: now() });
      return { list: toContactList(result.list), changed: result.changed.map(toContactRow) };
    },

    async setExcluded(
      req: ParsedRequestOf<'contacts:set-excluded'>,
    ): Promise<ResponseOf<'contacts:set-excluded'>> {
      idle(req.listId);
      return { list: toContactList(await db.call('contacts.setExcluded', { ...req, now: now() })) };
    },

    async bulk(req: ParsedRequestOf<'contacts:bulk'>): Promise<ResponseOf<'contacts:bulk'>> {
      idle(req.listId);
      const action: BulkAction =
        req.action === 'apply-country'
          ? { kind: 'apply-country', country: req.country, scope: req.scope }
          : req.action === 'exclude-empty'
            ? { kind: 'exclude-empty', columns: req.columns }
            : { kind: req.action };
      const job = await db.call('contacts.bulkBegin', { listId: req.listId, action, now: now() });
      if (!job) return { list: await list(req.listId), affected: 0, cancelled: false };
      const end = await runJob(job);
      return { list: end.list, affected: end.cancelled ? 0 : end.job.affected, cancelled: end.cancelled };
    },

    async undo(req: ParsedRequestOf<'contacts:undo'>): Promise<ResponseOf<'contacts:undo'>> {
      idle(req.listId);
      const job = await db.call('contacts.undoBegin', { listId: req.listId });
      const end = await runJob(job);
      return { list: end.list, undone: job.label, cancelled: end.cancelled };
    },

    async cancelBulk(
      req: ParsedRequestOf<'contacts:bulk-cancel'>,
    ): Promise<ResponseOf<'contacts:bulk-cancel'>> {
      const grace = graces.get(req.listId);
      if (grace) {
        grace(true);
        return { cancelling: true };
      }
      const running = jobs.get(req.listId);
      if (!running || running.cancel) return { cancelling: false };
      running.cancel = true;
      return { cancelling: true };
    },

    async exportFile(req: ParsedRequestOf<'contacts:export'>): Promise<ResponseOf<'contacts:export'>> {
      idle(req.listId);
      const stored = await db.call('contacts.list', { listId: req.listId });
      if (!stored || stored.status !== 'ready')
        throw new DeskFailure('not_found', 'This contact list is not available.', 'listId');
      let setup = JSON.parse(stored.setup) as EngineSetup;
      let variablesMap: Record<string, string> | null = null;
      // Optional variables' blank cells, written as the launch writes them.
      let fillBlank: number[] = [];
      if (req.agentId !== undefined) {
        if (req.kind !== 'upload' || !options.agentUpload)
          throw new DeskFailure(
            'invalid_request',
            'Only the upload file is written for an agent.',
            'agentId',
          );
        const plan = await options.agentUpload({
          listId: req.listId,
          agentId: req.agentId,
          versionId: req.versionId,
        });
        setup = plan.setup;
        variablesMap = plan.variablesMap;
        fillBlank = plan.fillBlank ?? [];
      }
      const fileName = `${safeFileName(stored.name)}-${req.kind}.csv`;
      if ('path' in req) {
        const target = exportTarget(req.path, fileName);
        try {
          const { rows, bytes } = await writeSteadyExport(db, req.listId, setup, req.kind, target, stored, {
            fillBlank,
          });
          return {
            kind: req.kind,
            rows,
            bytes,
            fileName: basename(target),
            path: target,
            downloadUrl: null,
            variablesMap,
          };
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
            throw new DeskFailure('file_error', `${target}: cannot write the file (${code}).`, 'path');
          }
          throw error;
        }
      }
      const download = newDownload(options.dataDir);
      try {
        const { rows, bytes } = await writeSteadyExport(
          db,
          req.listId,
          setup,
          req.kind,
          join(download.dir, fileName),
          stored,
          { fillBlank },
        );
        return { kind: req.kind, rows, bytes, fileName, path: null, downloadUrl: download.url, variablesMap };
      } catch (error) {
        removeDownload(download.dir);
        throw error;
      }
    },

    /** Drops imports whose page stopped talking (their partial lists are deleted). */
    dropIdleImports(now = Date.now()): number {
      let dropped = 0;
      for (const [id, s] of sessions) {
        if (now - s.lastActivity < IMPORT_IDLE_MS) continue;
        sessions.delete(id);
        void deleteList(s.listId, s.queue);
        dropped++;
      }
      return dropped;
    },

    /** Waits for background deletions (ending their Cancel windows now) and number indexes (tests, shutdown). */
    async settle(): Promise<void> {
      settling++;
      try {
        for (const end of graces.values()) end(false);
        while (deletions.size + background.size > 0) await Promise.all([...deletions, ...background]);
      } finally {
        settling--;
      }
    },

    /** Whether a bulk change or undo runs on the list (tests). */
    busy: (listId: number): boolean => jobs.has(listId),
  };
}

export type ContactsService = ReturnType<typeof createContactsService>;
