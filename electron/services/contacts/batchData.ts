// The import batch as it arrives (see importBatchMetaSchema): a JSON line of columns, then one
// JSON line of cells per row, as text or as its UTF-8 bytes. Parsed and checked here, in the
// database worker (contacts.insertBatch), into the rows it inserts; the cells' JSON text is kept
// as is (it is what gets stored).
import { ALL_FLAGS, BUCKET, bucketOf } from '../../../shared/domain/contacts/index.ts';
import { importBatchMetaSchema, rowCellsSchema } from '../../../shared/ipc/channels/contacts.ts';
import type { ImportBatchMeta } from '../../../shared/ipc/channels/contacts.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { issueBits, renderTail } from './rowState.ts';

/** A checked batch, as contacts.insertBatch stores it. */
export interface InsertPlan {
  pos: number;
  rows: number[];
  buckets: number[];
  issues: number[];
  duplicateOf: number[];
  /** E.164 digits, 0 when the phone is not valid. */
  e164: number[];
  phoneRaw: string[];
  /** The rows' cells lines joined by "\n"; row i is cellsText.slice(cellEnds[i-1] + 1, cellEnds[i]). */
  cellsText: string;
  cellEnds: number[];
  /** Rows not valid: [index, Reasons, tail when it differs from re-rendering the cells, else null]. */
  rejects: Array<[number, string, string | null]>;
}

const invalid = (message: string): DeskFailure => new DeskFailure('invalid_request', message, 'data');

// Fast checks that accept exactly what the zod schemas accept (importBatchMetaSchema,
// rowCellsSchema; batchData.test.ts compares them): a batch is millions of values, and zod's
// per-value cost was half of decoding. Anything they refuse goes through zod for its message.
const MAX_E164 = 999_999_999_999_999;
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const countsIn = (v: unknown, n: number, max: number, min = 0): boolean => {
  if (!Array.isArray(v) || v.length !== n) return false;
  for (const x of v) if (!isCount(x) || x < min || x > max) return false;
  return true;
};
export function isBatchMeta(v: unknown): v is ImportBatchMeta {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const m = v as Record<string, unknown>;
  const rows = m.rows;
  if (!isCount(m.pos) || !Array.isArray(rows)) return false;
  const n = rows.length;
  if (!countsIn(rows, n, Number.MAX_SAFE_INTEGER, 1)) return false;
  if (
    !countsIn(m.buckets, n, 2) ||
    !countsIn(m.flags, n, ALL_FLAGS) ||
    !countsIn(m.duplicateOf, n, Number.MAX_SAFE_INTEGER)
  )
    return false;
  if (!countsIn(m.e164, n, MAX_E164)) return false;
  if (!Array.isArray(m.rejects)) return false;
  for (const r of m.rejects as unknown[]) {
    if (
      !Array.isArray(r) ||
      r.length !== 3 ||
      !isCount(r[0]) ||
      typeof r[1] !== 'string' ||
      typeof r[2] !== 'string'
    )
      return false;
  }
  return true;
}
export function isRowCells(v: unknown): v is string[] {
  if (!Array.isArray(v) || v.length > 10_000) return false;
  for (const c of v) if (typeof c !== 'string' || c.length > 1_000_000) return false;
  return true;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The batch's text: bytes must be valid UTF-8 (a damaged frame is refused, never guessed at). */
function batchText(data: string | Uint8Array): string {
  if (typeof data === 'string') return data;
  try {
    return utf8.decode(data);
  } catch {
    throw invalid('The import batch is not valid UTF-8 text.');
  }
}

export function decodeBatch(batch: string | Uint8Array, phoneIndex: number): InsertPlan {
  const data = batchText(batch);
  const split = data.indexOf('\n');
  let json: unknown;
  try {
    json = JSON.parse(split < 0 ? data : data.slice(0, split));
  } catch {
    throw invalid('The import batch is not valid JSON.');
  }
  let meta: ImportBatchMeta;
  if (isBatchMeta(json)) meta = json;
  else {
    const parsed = importBatchMetaSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
      throw invalid(`The import batch is not valid${where}: ${issue?.message ?? 'unknown problem'}.`);
    }
    meta = parsed.data;
  }
  const n = meta.rows.length;
  const rejects = new Map<number, [string, string]>();
  for (const [index, reasons, tail] of meta.rejects) {
    if (index >= n) throw invalid('The import batch names a rejected row it does not have.');
    rejects.set(index, [reasons, tail]);
  }
  const cellsText = split < 0 ? '' : data.slice(split + 1);
  const plan: InsertPlan = {
    pos: meta.pos,
    rows: meta.rows,
    buckets: meta.buckets,
    issues: new Array<number>(n),
    duplicateOf: meta.duplicateOf,
    e164: meta.e164,
    phoneRaw: new Array<string>(n),
    cellsText,
    cellEnds: new Array<number>(n),
    rejects: [],
  };
  let start = 0;
  for (let i = 0; i < n; i++) {
    const row = meta.rows[i] as number;
    if (i > 0 && row <= (meta.rows[i - 1] as number))
      throw invalid(`The import batch is not in file order (row ${row}).`);
    if (start > cellsText.length) throw invalid(`The import batch has no cells for row ${row}.`);
    let end = cellsText.indexOf('\n', start);
    if (end < 0) end = cellsText.length;
    let cells: string[];
    try {
      const json: unknown = JSON.parse(cellsText.slice(start, end));
      cells = isRowCells(json) ? json : rowCellsSchema.parse(json);
    } catch {
      throw invalid(`Row ${row}: its cells are not a list of texts.`);
    }
    const flags = meta.flags[i] as number;
    const duplicateOf = meta.duplicateOf[i] as number;
    const bucket = meta.buckets[i] as number;
    if (BUCKET[bucketOf(flags, duplicateOf)] !== bucket)
      throw invalid(`Row ${row}: its bucket does not follow from its issues.`);
    const reject = rejects.get(i);
    if ((reject === undefined) !== (bucket === BUCKET.valid))
      throw invalid(`Row ${row}: rejected rows (and only they) need their Reasons.`);
    if (reject) plan.rejects.push([i, reject[0], reject[1] === renderTail(cells) ? null : reject[1]]);
    plan.issues[i] = issueBits(flags, duplicateOf);
    plan.phoneRaw[i] = cells[phoneIndex] ?? '';
    plan.cellEnds[i] = end;
    start = end + 1;
  }
  if (n > 0 && start < cellsText.length) throw invalid('The import batch has more cell lines than rows.');
  return plan;
}
