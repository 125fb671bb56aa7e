// Import sessions: a list created, its batches stored in order (each moved to the database worker
// as it came; the worker checks and stores it), then finished and checked against the engine's
// counts. An import left alone (its page closed or crashed) is dropped with its partial list.
import { randomBytes } from 'node:crypto';
import { ContactsError, resolveSetup } from '../../../shared/domain/contacts/index.ts';
import type { CleanChoices, EngineSetup } from '../../../shared/domain/contacts/index.ts';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract.ts';
import { variableChecks } from '../../../shared/ipc/channels/contacts.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { DbClient } from '../db/client.ts';
import type { Logger } from '../logging/logger.ts';
import type { BackgroundWork } from './backgroundWork.ts';
import { DELETE_CHUNK } from './listDeletion.ts';
import { toContactList } from './listView.ts';

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

/** An import with no message for this long is given up (its page was closed or crashed). */
export const IMPORT_IDLE_MS = 10 * 60 * 1000;

/** The bytes in a buffer of their own (a socket frame is a view into a larger one), so they can move. */
const standalone = (bytes: Uint8Array): Uint8Array =>
  bytes.byteOffset === 0 &&
  bytes.byteLength === bytes.buffer.byteLength &&
  bytes.buffer instanceof ArrayBuffer
    ? bytes
    : new Uint8Array(bytes);

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

/** Runs `work` after everything already queued for the import. */
const queued = <T>(s: ImportSession, work: () => Promise<T>): Promise<T> => {
  const next = s.queue.then(work, work);
  s.queue = next.catch(() => undefined);
  return next;
};

export interface ImportSessionsOptions {
  db: DbClient;
  logger: Logger;
  now: () => string;
  background: BackgroundWork;
  /** Removes a list (a failed or abandoned import's), once `after` settles. */
  deleteList: (listId: number, after?: Promise<unknown>) => Promise<void>;
}

export function createImportSessions(options: ImportSessionsOptions) {
  const { db, logger, now } = options;
  const sessions = new Map<string, ImportSession>();

  /**
   * The list's number index, owed by its import (migration 0100), built now in the background:
   * the list is ready without it, and a change that needs it first builds it itself.
   */
  const buildNumbersSoon = (listId: number): void =>
    options.background.add(
      db
        .call('contacts.buildNumbers', { listId })
        .then(() => undefined)
        .catch((error: unknown) => logger.error("building a list's number index failed", error, { listId })),
    );

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

  return {
    /** The list is being deleted: its imports end. */
    forgetList(listId: number): void {
      for (const [id, s] of sessions) if (s.listId === listId) sessions.delete(id);
    },

    async begin(req: ParsedRequestOf<'contacts:import-begin'>): Promise<ResponseOf<'contacts:import-begin'>> {
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

    async batch(req: ParsedRequestOf<'contacts:import-batch'>): Promise<ResponseOf<'contacts:import-batch'>> {
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

    async reset(req: ParsedRequestOf<'contacts:import-reset'>): Promise<ResponseOf<'contacts:import-reset'>> {
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

    async finish(
      req: ParsedRequestOf<'contacts:import-finish'>,
    ): Promise<ResponseOf<'contacts:import-finish'>> {
      const s = session(req.importId);
      return queued(s, async () => {
        const { report } = req;
        if (s.pos !== report.rows) {
          sessions.delete(req.importId);
          await options.deleteList(s.listId);
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
          await options.deleteList(s.listId);
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

    async abort(req: ParsedRequestOf<'contacts:import-abort'>): Promise<ResponseOf<'contacts:import-abort'>> {
      const s = sessions.get(req.importId);
      if (!s) return { aborted: false };
      sessions.delete(req.importId);
      // Hidden from every later read before this answers (so a list reloaded after Cancel cannot
      // show it); batches still queued finish first, then the rows go.
      await db.call('contacts.markDeleting', { listId: s.listId });
      void options.deleteList(s.listId, s.queue);
      return { aborted: true };
    },

    /** Drops imports whose page stopped talking (their partial lists are deleted). */
    dropIdle(now = Date.now()): number {
      let dropped = 0;
      for (const [id, s] of sessions) {
        if (now - s.lastActivity < IMPORT_IDLE_MS) continue;
        sessions.delete(id);
        void options.deleteList(s.listId, s.queue);
        dropped++;
      }
      return dropped;
    },
  };
}
