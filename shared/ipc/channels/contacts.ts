import { z } from 'zod';
import { channel, event } from '../define.ts';
import { bulkProgressSchema } from './contacts/bulk.ts';
import { exportKinds, exportResultSchema } from './contacts/export.ts';
import { cellText, count, country, importId, listId, rowNumber } from './contacts/fields.ts';
import { contactFilterSchema } from './contacts/filters.ts';
import { importBatchData } from './contacts/importBatch.ts';
import { detectedSchema, importChoicesSchema, importReportSchema } from './contacts/importSettings.ts';
import { contactListSchema, contactRowSchema } from './contacts/lists.ts';

// Contact lists: import (the renderer's Web Workers clean the file and stream finished rows here in
// large batches), review (keyset-paged windows of rows read from SQLite), fix (edit a cell, bulk
// actions, undo) and export (the upload and rejects files, written by the back end).
// The channels are here; their schemas and helpers live in contacts/ by job, re-exported below so
// that importers keep this one path.

export * from './contacts/bulk.ts';
export * from './contacts/export.ts';
export * from './contacts/filters.ts';
export * from './contacts/importBatch.ts';
export * from './contacts/importSettings.ts';
export * from './contacts/lists.ts';
export * from './contacts/rejectLines.ts';

/** More than any file the engine takes has rows (each row is named at most once). */
const MAX_LATE_DUPLICATES = 10_000_000;
const listAnswer = z.object({ list: contactListSchema });

/**
 * An upload for an agent: the columns its mapping (agents:mapping) uses, under their clean header
 * names, and the launch's variables_map in the answer. Without it, the import's own columns.
 */
const exportAgent = {
  agentId: z.string().trim().min(1).max(200).optional(),
  versionId: z.string().min(1).max(200).optional(),
};

export const contactsChannels = {
  'contacts:lists': channel(z.object({}).strict(), z.object({ lists: z.array(contactListSchema) })),
  'contacts:get': channel(z.object({ listId }).strict(), listAnswer),
  'contacts:delete': channel(z.object({ listId }).strict(), z.object({ deleted: z.boolean() })),

  /** Starts storing an import once the worker has read the header; answers the import id. */
  'contacts:import-begin': channel(
    z
      .object({
        name: z.string().trim().min(1).max(200),
        fileName: z.string().max(500),
        fileBytes: count,
        choices: importChoicesSchema,
        detected: detectedSchema,
      })
      .strict(),
    z.object({ importId, list: contactListSchema }),
  ),
  /**
   * One batch (thousands of rows), in order: `seq` 0, 1, 2 … `data` is the batch text
   * (encodeImportBatch) or, as the app sends it, that text's UTF-8 bytes (a binary frame / a
   * transferred buffer; checked with the same rules in the database worker, see batchData.ts).
   */
  'contacts:import-batch': channel(
    z.object({ importId, seq: z.number().int().nonnegative(), data: importBatchData }).strict(),
    z.object({ received: count }),
  ),
  /** The engine started over (encoding fallback, splitter disagreement): forget the rows so far. */
  'contacts:import-reset': channel(z.object({ importId }).strict(), z.object({ received: count })),
  /**
   * The engine is done. `lateDuplicates`: rows it streamed before a later, otherwise valid row
   * claimed their number, each with that row (merger.lateDuplicates); checked against the rows.
   */
  'contacts:import-finish': channel(
    z
      .object({
        importId,
        report: importReportSchema,
        lateDuplicates: z.array(z.tuple([rowNumber, rowNumber])).max(MAX_LATE_DUPLICATES),
      })
      .strict(),
    listAnswer,
  ),
  /** Cancelled or failed in the renderer: the partial list is deleted. */
  'contacts:import-abort': channel(z.object({ importId }).strict(), z.object({ aborted: z.boolean() })),

  /** A window of rows (keyset paging on the spreadsheet row behind the scenes). */
  'contacts:rows': channel(
    z
      .object({
        listId,
        filter: contactFilterSchema,
        offset: count,
        limit: z.number().int().min(1).max(500),
      })
      .strict(),
    z.object({ total: count, offset: count, rows: z.array(contactRowSchema) }),
  ),
  /** Where a row sits in a filtered view (to jump to the row a duplicate repeats). */
  'contacts:locate': channel(
    z.object({ listId, filter: contactFilterSchema, row: rowNumber }).strict(),
    z.object({ index: count.nullable() }),
  ),
  'contacts:edit-cell': channel(
    z
      .object({ listId, row: rowNumber, column: z.number().int().nonnegative().max(1999), value: cellText })
      .strict(),
    z.object({ list: contactListSchema, changed: z.array(contactRowSchema) }),
  ),
  'contacts:set-excluded': channel(
    z.object({ listId, rows: z.array(rowNumber).min(1).max(1000), excluded: z.boolean() }).strict(),
    listAnswer,
  ),
  /**
   * exclude-invalid: every invalid row leaves both files; exclude-landline: every row whose number
   * is valid only as a landline (phone_landline) leaves them; include-all: every excluded row comes
   * back; apply-country: numbers without a country code are read with `country` (scope 'invalid':
   * only rows whose number is invalid, and only where that makes it valid; 'all': the list's default).
   */
  'contacts:bulk': channel(
    z.discriminatedUnion('action', [
      z.object({ listId, action: z.literal('exclude-invalid') }).strict(),
      z.object({ listId, action: z.literal('exclude-landline') }).strict(),
      // Rows the upload carries with any of these columns empty (what the service would refuse).
      z
        .object({
          listId,
          action: z.literal('exclude-empty'),
          columns: z.array(z.number().int().min(0).max(9999)).min(1).max(100),
        })
        .strict(),
      z.object({ listId, action: z.literal('include-all') }).strict(),
      z
        .object({ listId, action: z.literal('apply-country'), country, scope: z.enum(['invalid', 'all']) })
        .strict(),
    ]),
    // cancelled: Cancel stopped it and the list is as it was before (its undo is gone).
    z.object({ list: contactListSchema, affected: count, cancelled: z.boolean() }),
  ),
  // cancelled: Cancel stopped the undo and put the list back as it was; the undo is still there.
  'contacts:undo': channel(
    z.object({ listId }).strict(),
    z.object({ list: contactListSchema, undone: z.string(), cancelled: z.boolean() }),
  ),
  /** Stops the bulk change or undo running on a list (it is rolled back, in chunks). */
  'contacts:bulk-cancel': channel(z.object({ listId }).strict(), z.object({ cancelling: z.boolean() })),
  /**
   * Writes the upload or rejects file from SQLite: to `path` (Electron: a path the operator chose),
   * or, with `download`, to a one-time download the browser host streams.
   */
  'contacts:export': channel(
    z.union([
      z
        .object({
          listId,
          kind: z.enum(exportKinds),
          path: z.string().trim().min(1).max(4096),
          ...exportAgent,
        })
        .strict(),
      z.object({ listId, kind: z.enum(exportKinds), download: z.literal(true), ...exportAgent }).strict(),
    ]),
    exportResultSchema,
  ),
};

export const contactsEvents = {
  'contacts:bulk-progress': event(bulkProgressSchema),
};
