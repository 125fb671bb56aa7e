import { z } from 'zod';
// The specific modules (not the engine's index) so the contract does not pull papaparse and the
// phone metadata into the UI bundle.
import { ALL_FLAGS, BUCKET, ISSUE_CODES } from '../../domain/contacts/issues.ts';
import type { MergedBlock } from '../../domain/contacts/merger.ts';
import type { CleanReport } from '../../domain/contacts/report.ts';
import { DELIMITERS, ENCODINGS } from '../../domain/contacts/types.ts';
import type { CleanChoices } from '../../domain/contacts/types.ts';
import { SUPPRESSION_REASONS } from '../../domain/suppression.ts';
import { channel, event } from '../define.ts';

// Contact lists: import (the renderer's Web Workers clean the file and stream finished rows here in
// large batches), review (keyset-paged windows of rows read from SQLite), fix (edit a cell, bulk
// actions, undo) and export (the upload and rejects files, written by the back end).

const listId = z.number().int().positive();
const rowNumber = z.number().int().positive();
const importId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'not an import id');
const cellText = z.string().max(100_000);
const country = z.string().trim().min(1, 'Choose a default country').max(8);
const variableName = z.string().trim().min(1, 'A variable needs a name').max(100);

export const BUCKETS = ['valid', 'invalid', 'duplicate'] as const;
export type ContactBucket = (typeof BUCKETS)[number];

/** What the grid can show: everything, one bucket, one issue code, excluded or edited rows. */
export const CONTACT_FILTERS = [
  'all',
  'bucket:valid',
  'bucket:invalid',
  'bucket:duplicate',
  ...ISSUE_CODES.map((code) => `issue:${code}` as const),
  'excluded',
  'edited',
  /** Rows the upload would carry whose number is on the do-not-call list (held back). */
  'suppressed',
] as const;
/**
 * `empty:<column index>[,<column index>…]`: rows the upload would carry (valid, not excluded) whose
 * cell in that column (any of those columns) is empty: the agent lint's "mapped column empty in some
 * valid rows", and with several columns the rows the service will refuse.
 */
export type EmptyColumnFilter = `empty:${string}`;
export type ContactFilter = (typeof CONTACT_FILTERS)[number] | EmptyColumnFilter;
export const emptyColumnFilter = (...columns: number[]): EmptyColumnFilter =>
  `empty:${[...new Set(columns)].sort((a, b) => a - b).join(',')}`;
/** The column indexes of an `empty:` filter. */
export const emptyFilterColumns = (filter: EmptyColumnFilter): number[] =>
  filter.slice(6).split(',').map(Number);
export const contactFilterSchema = z.union([
  z.enum(CONTACT_FILTERS),
  z
    .string()
    .regex(/^empty:(0|[1-9]\d{0,3})(,(0|[1-9]\d{0,3})){0,99}$/, 'not a contacts filter')
    .transform((s) => s as EmptyColumnFilter),
]);

/** A prompt variable mapped to a column of the file ('' = not mapped yet). */
export const variableMappingSchema = z.object({
  variable: variableName,
  column: z.string().max(500),
  optional: z.boolean(),
});
export type VariableMapping = z.infer<typeof variableMappingSchema>;

/** The operator's choices for one import (undefined = detect). */
export const importChoicesSchema = z.object({
  country,
  encoding: z.enum(ENCODINGS).optional(),
  delimiter: z.enum(DELIMITERS).optional(),
  phoneColumn: z.string().max(500).optional(),
  variables: z.array(variableMappingSchema).max(200),
  /** An Excel workbook's sheet by name (default: the first sheet with a phone column). */
  sheet: z.string().max(255).optional(),
});
export type ImportChoices = z.infer<typeof importChoicesSchema>;

const sourceSchema = z.enum(['bom', 'detected', 'default', 'override']);
const count = z.number().int().nonnegative();
/** More than any file the engine takes has rows (each row is named at most once). */
const MAX_LATE_DUPLICATES = 10_000_000;
const issueCounts = z.object(
  Object.fromEntries(ISSUE_CODES.map((c) => [c, count])) as Record<
    (typeof ISSUE_CODES)[number],
    typeof count
  >,
);

/** What the file turned out to be (the engine's sniff), shown beside the choices. */
export const detectedSchema = z.object({
  encoding: z.enum(ENCODINGS),
  encodingSource: sourceSchema,
  /**
   * What was detected for a file that is not UTF-8/16 and how sure the detector is, or why the
   * encoding differs from the first guess (invalid UTF-8 later in the file).
   */
  encodingNote: z.string().max(500).nullable(),
  /** The encoding is a guess of low confidence: the operator checks the names (lists before issue 25: absent). */
  encodingUncertain: z.boolean().optional(),
  delimiter: z.enum(DELIMITERS),
  delimiterSource: sourceSchema,
  newline: z.enum(['\n', '\r\n', '\r']),
  header: z.array(z.string().max(2000)).min(1).max(2000),
  headerRow: z.number().int().positive(),
  /** How the header was found when it was not the first line (title lines skipped, a stray quote). */
  headerNote: z.string().max(1000).nullable().optional(),
  phoneColumn: z.string(),
  /** Excel workbooks: the sheet read, and every sheet with the phone column it would get. */
  sheet: z.string().max(255).optional(),
  sheets: z
    .array(z.object({ name: z.string().max(255), phoneColumn: z.string().max(2000).nullable() }))
    .max(1000)
    .optional(),
});
export type Detected = z.infer<typeof detectedSchema>;

export const listCountsSchema = z.object({
  rows: count,
  valid: count,
  invalid: count,
  duplicates: count,
  excluded: count,
  edited: count,
  /** Rows carrying each issue code (a row may carry several; excluded rows included). */
  issues: issueCounts,
  /** Rows the export would write now: valid and not excluded / not valid and not excluded. */
  upload: count,
  rejects: count,
});
export type ListCounts = z.infer<typeof listCountsSchema>;

export const contactListSchema = z.object({
  id: listId,
  name: z.string(),
  fileName: z.string(),
  fileBytes: count,
  status: z.enum(['importing', 'ready']),
  detected: detectedSchema,
  /** The list's default country as chosen (IN or +91) and what it resolved to. */
  country: z.string(),
  countryCode: z.string(),
  callingCode: z.string(),
  variables: z.array(variableMappingSchema),
  /** Columns written after Mobile Number in the upload file. */
  uploadColumns: z.array(z.string()),
  nameColumn: z.string().nullable(),
  counts: listCountsSchema,
  blankRows: count,
  /** How the import ran: workers, parallel or sequential, and why. */
  split: z
    .object({ workers: z.number().int().positive(), mode: z.string(), reason: z.string().nullable() })
    .nullable(),
  importMs: count.nullable(),
  /** What Undo would undo ("Edit of row 12", "Exclude 927 invalid rows"), or null. */
  undo: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactList = z.infer<typeof contactListSchema>;

export const contactRowSchema = z.object({
  /** Spreadsheet row (the header is row 1). */
  row: rowNumber,
  /** 0-based position among the list's data rows. */
  pos: count,
  cells: z.array(z.string()),
  phoneRaw: z.string(),
  e164: z.string().nullable(),
  bucket: z.enum(BUCKETS),
  issues: z.array(z.enum(ISSUE_CODES)),
  /** The Reasons cell of the rejects file ('' for a valid row). */
  reasons: z.string(),
  /** The earlier row this one repeats, or 0. */
  duplicateOf: count,
  excluded: z.boolean(),
  edited: z.boolean(),
  /** A country applied to this row only (Apply country to invalid numbers), or null. */
  country: z.string().nullable(),
  /** The calling service refused this row when the list was launched: its reason. */
  refused: z.string().optional(),
  /** The row's number is on the do-not-call list (issue `suppressed`): its reason; never uploaded. */
  suppressed: z.enum(SUPPRESSION_REASONS).optional(),
});
export type ContactRow = z.infer<typeof contactRowSchema>;

/**
 * One batch of cleaned rows as the single string `contacts:import-batch` carries (one string
 * crosses the UI thread and the IPC hop cheaply): a JSON line with the columns below, then one
 * line per row with that row's cells as a JSON array (JSON text never holds a raw line break).
 * The back end stores each row's cells as that very text, so they are never re-encoded.
 * Columnar: entry i of each array is the batch's i-th data row, in file order.
 */
export const importBatchMetaSchema = z
  .object({
    /** Position of the first row among the list's data rows (batches are contiguous). */
    pos: count,
    rows: z.array(rowNumber),
    buckets: z.array(z.number().int().min(0).max(2)),
    /** The engine's issue flags (duplicate excluded), see shared/domain/contacts/issues.ts. */
    flags: z.array(z.number().int().min(0).max(ALL_FLAGS)),
    duplicateOf: z.array(count),
    /** E.164 digits as a number (0 = no valid phone). */
    e164: z.array(z.number().int().nonnegative().max(999_999_999_999_999)),
    /** Rows not valid: [index in batch, Reasons cell, rejects-file tail as the engine wrote it]. */
    rejects: z.array(z.tuple([count, z.string(), z.string()])),
  })
  .refine((b) => [b.buckets, b.flags, b.duplicateOf, b.e164].every((a) => a.length === b.rows.length), {
    message: 'every column of a batch has one entry per row',
  });
export type ImportBatchMeta = z.infer<typeof importBatchMetaSchema>;

const MAX_BATCH = 60 * 1024 * 1024;
/** A batch as text, or as its UTF-8 bytes (no copy: the same Uint8Array comes out). */
export const importBatchData = z.union([
  z.string().max(MAX_BATCH),
  z.custom<Uint8Array>(
    (v) => v instanceof Uint8Array && v.byteLength <= MAX_BATCH,
    'an import batch is text or bytes of at most 60 MiB',
  ),
]);

/** One row's cells (a line of the batch). */
export const rowCellsSchema = z.array(z.string().max(1_000_000)).max(10_000);

/** The engine's end-of-run figures the back end checks its own counts against. */
export const importReportSchema = z.object({
  rows: count,
  valid: count,
  invalid: count,
  duplicates: count,
  blankRows: count,
  encoding: z.enum(ENCODINGS),
  encodingSource: sourceSchema,
  encodingNote: z.string().max(500).nullable(),
  split: z.object({
    workers: z.number().int().positive(),
    mode: z.string().max(40),
    reason: z.string().max(500).nullable(),
  }),
  elapsedMs: count,
});
export type ImportReport = z.infer<typeof importReportSchema>;

export const exportKinds = ['upload', 'rejects'] as const;
export type ExportKind = (typeof exportKinds)[number];

export const exportResultSchema = z.object({
  kind: z.enum(exportKinds),
  rows: count,
  bytes: count,
  fileName: z.string(),
  /** Where the file was written (Electron: the chosen path), or null for a download. */
  path: z.string().nullable(),
  /** Same-origin address that streams the file once (browser host), or null. */
  downloadUrl: z.string().nullable(),
  /** With an agent: the launch's variables_map (variable → upload column), derived from the mapping. */
  variablesMap: z.record(z.string(), z.string()).nullable().optional(),
});
export type ExportResult = z.infer<typeof exportResultSchema>;

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

/** The kinds of long work on a list that report progress. */
export const BULK_ACTIONS = [
  'exclude-invalid',
  'exclude-landline',
  'exclude-empty',
  'include-all',
  'apply-country',
  'undo',
  'delete',
] as const;

/** Progress of a bulk change, an undo or a deletion, a chunk at a time (the grid keeps answering). */
export const bulkProgressSchema = z.object({
  listId,
  action: z.enum(BULK_ACTIONS),
  /** What it does, in words ("Exclude 927 invalid rows", "Finding duplicates"). */
  label: z.string(),
  state: z.enum(['running', 'cancelling', 'done', 'cancelled', 'failed']),
  /** Rows done and to do in the current stage (total 0 = unknown). */
  done: count,
  total: count,
  /** Whether Cancel can still stop it (a rollback and a deletion run to their end). */
  cancellable: z.boolean(),
});
export type BulkProgress = z.infer<typeof bulkProgressSchema>;

export const contactsEvents = {
  'contacts:bulk-progress': event(bulkProgressSchema),
};

// ---- the import batch codec (used by the renderer's import worker; tested with the back end) ----

/** A merged block of the engine, with the columns the app stores. */
export interface BatchColumns {
  pos: number;
  rows: ArrayLike<number>;
  buckets: ArrayLike<number>;
  flags: ArrayLike<number>;
  duplicateOf: ArrayLike<number>;
  e164: ArrayLike<number>;
  /** Each row's cells as a JSON array, one per line, made where the cells were parsed. */
  cellLines: string;
  rejects: Array<[number, string, string]>;
}

const numbers = (values: ArrayLike<number>): string => `[${Array.prototype.join.call(values, ',')}]`;

/** One row's cells as a line of a batch. */
export const cellLine = (cells: readonly string[]): string => JSON.stringify(cells);

/** The first line of a batch: its columns as JSON. */
const batchMetaLine = (b: Omit<BatchColumns, 'cellLines'>): string =>
  `{"pos":${b.pos},"rows":${numbers(b.rows)},"buckets":${numbers(b.buckets)},"flags":${numbers(b.flags)},` +
  `"duplicateOf":${numbers(b.duplicateOf)},"e164":${numbers(b.e164)},"rejects":${JSON.stringify(b.rejects)}}`;

/** One batch as the single string `contacts:import-batch` carries (cells are not re-encoded). */
export const encodeImportBatch = (b: BatchColumns): string =>
  batchMetaLine(b) + (b.rows.length > 0 ? `\n${b.cellLines}` : '');

/** A merged block's columns, with each rejected row's Reasons and tail split from its rejects text. */
function mergedColumns(
  merged: Pick<MergedBlock, 'seq' | 'rowNumbers' | 'buckets' | 'flags' | 'duplicateOf' | 'rejects'>,
  e164: ArrayLike<number>,
  pos: number,
): Omit<BatchColumns, 'cellLines'> {
  const n = merged.rowNumbers.length;
  if (e164.length !== n)
    throw new Error(`internal: block ${merged.seq} has ${n} rows but ${e164.length} phones`);
  const rejectRows: number[] = [];
  const rejectIndex: number[] = [];
  for (let i = 0; i < n; i++) {
    if (merged.buckets[i] !== BUCKET.valid) {
      rejectRows.push(merged.rowNumbers[i] as number);
      rejectIndex.push(i);
    }
  }
  const lines = splitRejectLines(merged.rejects, rejectRows);
  return {
    pos,
    rows: merged.rowNumbers,
    buckets: merged.buckets,
    flags: merged.flags,
    duplicateOf: merged.duplicateOf,
    e164,
    rejects: lines.map(([reasons, tail], k) => [rejectIndex[k] as number, reasons, tail]),
  };
}

/**
 * One merged block of the engine as a batch: its columns, the E.164 digits and cell lines its lane
 * made, and each rejected row's Reasons and tail split from the block's rejects text.
 */
export function encodeMergedBlock(
  merged: Pick<MergedBlock, 'seq' | 'rowNumbers' | 'buckets' | 'flags' | 'duplicateOf' | 'rejects'>,
  lane: { e164: ArrayLike<number>; cellLines: string },
  pos: number,
): string {
  return encodeImportBatch({ ...mergedColumns(merged, lane.e164, pos), cellLines: lane.cellLines });
}

/**
 * The same batch as UTF-8 bytes, from the cell lines the lane already encoded (`cellBytes`): the
 * lanes encode in parallel, and the big text is never built or encoded again here.
 */
export function encodeMergedBlockBytes(
  merged: Pick<MergedBlock, 'seq' | 'rowNumbers' | 'buckets' | 'flags' | 'duplicateOf' | 'rejects'>,
  lane: { e164: ArrayLike<number>; cellBytes: Uint8Array },
  pos: number,
): Uint8Array<ArrayBuffer> {
  const meta = new TextEncoder().encode(batchMetaLine(mergedColumns(merged, lane.e164, pos)));
  if (merged.rowNumbers.length === 0) return meta;
  const out = new Uint8Array(meta.byteLength + 1 + lane.cellBytes.byteLength);
  out.set(meta, 0);
  out[meta.byteLength] = 10; // '\n'
  out.set(lane.cellBytes, meta.byteLength + 1);
  return out;
}

/** The engine's end-of-run report as contacts:import-finish carries it. */
export const toImportReport = (report: CleanReport, elapsedMs: number): ImportReport => ({
  rows: report.rows,
  valid: report.valid,
  invalid: report.invalid,
  duplicates: report.duplicates,
  blankRows: report.blank_rows,
  encoding: report.encoding,
  encodingSource: report.encoding_source,
  encodingNote: report.encoding_note,
  split: { workers: report.split.workers, mode: report.split.mode, reason: report.split.reason },
  elapsedMs: Math.round(elapsedMs),
});

/** The engine's checks of the prompt variables: mapped ones only (an unmapped one has nothing to check). */
export function variableChecks(
  variables: readonly VariableMapping[],
): Required<Pick<CleanChoices, 'map' | 'optional'>> {
  const mapped = variables.filter((v) => v.column.trim() !== '');
  return {
    map: mapped.map((v) => [v.variable, v.column] as const),
    optional: mapped.filter((v) => v.optional).map((v) => v.variable),
  };
}

/** The engine's choices from the operator's (`variables`: the mapping as it stands now). */
export const engineChoices = (
  choices: ImportChoices,
  variables: readonly VariableMapping[] = choices.variables,
): CleanChoices => ({
  country: choices.country,
  encoding: choices.encoding,
  delimiter: choices.delimiter,
  phoneColumn: choices.phoneColumn,
  ...variableChecks(variables),
});

/** Reads a whole batch back (tests and tools; the back end reads it its own way, see batchData.ts). */
export function readImportBatch(batch: string | Uint8Array): { meta: ImportBatchMeta; cells: string[][] } {
  const data = typeof batch === 'string' ? batch : new TextDecoder('utf-8', { fatal: true }).decode(batch);
  const split = data.indexOf('\n');
  const meta = importBatchMetaSchema.parse(JSON.parse(split < 0 ? data : data.slice(0, split)));
  const cells =
    split < 0
      ? []
      : data
          .slice(split + 1)
          .split('\n')
          .map((line) => rowCellsSchema.parse(JSON.parse(line)));
  if (cells.length !== meta.rows.length)
    throw new Error(`the batch has ${meta.rows.length} rows but ${cells.length} cell lines`);
  return { meta, cells };
}

/**
 * Splits the engine's rejects text for one merged block (`${row},${csvCell(reasons)},${tail}\n`
 * per row that is not valid, in file order) into each row's Reasons and tail. `rows` are those
 * rows' spreadsheet numbers. A tail may hold line breaks (inside quotes, or bare ones the file's
 * line-break style treats as data), so a line ends at the line break that is outside quotes and
 * followed by the next row's `${row},`. Throws when the text does not line up with `rows`.
 */
export function splitRejectLines(
  text: string,
  rows: readonly number[],
): Array<[reasons: string, tail: string]> {
  const out: Array<[string, string]> = [];
  let p = 0;
  const fail = (row: number): never => {
    throw new Error(`internal: the rejects text does not line up at row ${row}`);
  };
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    const prefix = `${row},`;
    if (!text.startsWith(prefix, p)) fail(row);
    let q = p + prefix.length;
    let reasons: string;
    if (text.charCodeAt(q) === 34) {
      let j = q + 1;
      for (;;) {
        const quote = text.indexOf('"', j);
        if (quote < 0) fail(row);
        if (text.charCodeAt(quote + 1) === 34) {
          j = quote + 2;
          continue;
        }
        reasons = text.slice(q + 1, quote).replace(/""/g, '"');
        q = quote + 1;
        break;
      }
      if (text.charCodeAt(q) !== 44) fail(row);
      q++;
    } else {
      const comma = text.indexOf(',', q);
      if (comma < 0) fail(row);
      reasons = text.slice(q, comma);
      q = comma + 1;
    }
    let end: number;
    if (k === rows.length - 1) {
      end = text.length - 1;
      if (end < q || text.charCodeAt(end) !== 10) fail(row);
    } else {
      const next = `\n${rows[k + 1] as number},`;
      let quotes = 0;
      let counted = q;
      end = text.indexOf(next, q);
      for (;;) {
        if (end < 0) fail(row);
        for (let i = text.indexOf('"', counted); i >= 0 && i < end; i = text.indexOf('"', i + 1)) quotes++;
        counted = end;
        if (quotes % 2 === 0) break;
        end = text.indexOf(next, end + 1);
      }
    }
    out.push([reasons!, text.slice(q, end)]);
    p = end + 1;
  }
  if (p !== text.length) throw new Error('internal: the rejects text has more lines than rows');
  return out;
}
