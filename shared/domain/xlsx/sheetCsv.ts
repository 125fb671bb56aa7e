// A worksheet as the contacts engine's input: its rows become CSV text (UTF-8, comma, "\n"), one
// line per sheet row, so the engine's rules, duplicates, writers and report apply unchanged and
// its row numbers are the sheet's (rows Excel left out become blank lines). Also: which sheet to
// read, and one line naming the sheets when the choice cannot be used.
import { detectPhoneColumn } from '../contacts/columns.ts';
import { csvLine } from '../contacts/csvWrite.ts';
import { ContactsError } from '../contacts/errors.ts';
import type { ChunkSource, Progress } from '../contacts/runClean.ts';
import type { CleanChoices } from '../contacts/types.ts';
import { sheetRows } from './sheetRows.ts';
import { openWorkbook } from './workbook.ts';
import type { SheetInfo, Workbook } from './workbook.ts';
import type { RandomAccess } from './zip.ts';

export interface SheetOverview {
  number: number;
  name: string;
  hidden: boolean;
  /** The first non-empty row, trimmed; null for an empty sheet. */
  header: string[] | null;
  /** The column the engine would take as the phone column, or null. */
  phoneColumn: string | null;
}

/** The first non-empty row of a sheet (reads only as far as that row). */
export async function sheetHeader(book: Workbook, sheet: SheetInfo): Promise<string[] | null> {
  for await (const rows of sheetRows(book, sheet, { sliceBytes: 64 * 1024 }))
    for (const { cells } of rows) if (cells.some((c) => c.trim() !== '')) return cells.map((c) => c.trim());
  return null;
}

export async function sheetOverview(book: Workbook): Promise<SheetOverview[]> {
  const out: SheetOverview[] = [];
  for (const sheet of book.sheets) {
    const header = await sheetHeader(book, sheet);
    const phone = header ? detectPhoneColumn(header) : -1;
    out.push({
      number: sheet.number,
      name: sheet.name,
      hidden: sheet.hidden,
      header,
      phoneColumn: header && phone >= 0 ? (header[phone] ?? null) : null,
    });
  }
  return out;
}

/** `1 "Summary", 2 "Contacts" (phone column "Mobile")`: the sheets, for one-line messages. */
export const describeSheets = (sheets: readonly SheetOverview[]): string =>
  sheets
    .map(
      (s) =>
        `${s.number} "${s.name}"${s.phoneColumn ? ` (phone column "${s.phoneColumn}")` : s.header ? '' : ' (empty)'}`,
    )
    .join(', ');

/** A sheet by name (exact, then ignoring case) or by number (1 = the first tab). */
export function findSheet(sheets: readonly SheetOverview[], choice: string): SheetOverview {
  const wanted = choice.trim();
  const found =
    sheets.find((s) => s.name === wanted) ??
    sheets.find((s) => s.name.toLowerCase() === wanted.toLowerCase()) ??
    (/^\d+$/.test(wanted) ? sheets.find((s) => s.number === Number(wanted)) : undefined);
  if (!found)
    throw new ContactsError(
      'bad_option',
      `no sheet "${wanted}" in the workbook; its sheets: ${describeSheets(sheets)}`,
    );
  return found;
}

/**
 * The sheet to read: the one chosen, else the first visible sheet (`first`, the CLI) or the first
 * with a phone column (`first-with-phone`, the app's default). A sheet without a phone column (when
 * none was named) or without rows is refused with one line naming the sheets.
 */
export function chooseSheet(
  sheets: readonly SheetOverview[],
  choices: Pick<CleanChoices, 'phoneColumn'> & { sheet?: string | undefined },
  fallback: 'first' | 'first-with-phone',
): SheetOverview {
  const visible = sheets.filter((s) => !s.hidden);
  const first = visible[0] ?? sheets[0];
  if (!first) throw new ContactsError('bad_workbook', 'the workbook has no worksheets');
  const sheet = choices.sheet
    ? findSheet(sheets, choices.sheet)
    : fallback === 'first-with-phone'
      ? (visible.find((s) => s.phoneColumn !== null) ?? first)
      : first;
  if (sheet.header === null)
    throw new ContactsError(
      'empty_file',
      `sheet ${sheet.number} "${sheet.name}" is empty; the workbook's sheets: ${describeSheets(sheets)}`,
    );
  if (!choices.phoneColumn && sheet.phoneColumn === null)
    throw new ContactsError(
      'no_phone_column',
      `sheet ${sheet.number} "${sheet.name}" has no phone column (headers: ${sheet.header.map((h) => JSON.stringify(h)).join(', ')}); the workbook's sheets: ${describeSheets(sheets)}`,
    );
  return sheet;
}

/** The engine's choices for a workbook: its CSV form is always UTF-8 with commas. */
export const workbookChoices = <T extends CleanChoices>(choices: T): T => ({
  ...choices,
  encoding: 'utf-8',
  delimiter: ',',
});

/** Characters of CSV text per chunk handed to the engine. */
const CHUNK_CHARS = 1 << 20;

export interface SheetSource extends ChunkSource {
  /** Compressed bytes of the sheet read so far, and in all (for progress). */
  readonly read: number;
  readonly total: number;
}

/** The sheet's rows as CSV bytes, streamed (opened again from the top if the engine restarts). */
export function sheetCsvSource(book: Workbook, sheet: SheetInfo): SheetSource {
  let read = 0;
  const total = book.entry(sheet.part).compressedSize;
  const encoder = new TextEncoder();
  return {
    get read() {
      return read;
    },
    total,
    async *open() {
      read = 0;
      let width = -1;
      let last = 0;
      let lines: string[] = [];
      let size = 0;
      const rows = sheetRows(book, sheet, { onRead: (done) => (read = done) });
      for await (const batch of rows) {
        for (const { row, cells } of batch) {
          if (row <= last) continue; // rows out of order or repeated: Excel never writes them
          if (row > last + 1) lines.push('\n'.repeat(row - last - 1));
          size += row - last;
          last = row;
          if (width < 0 && cells.some((c) => c.trim() !== '')) width = cells.length;
          while (cells.length < width) cells.push('');
          const line = cells.length === 0 ? '\n' : csvLine(cells);
          lines.push(line);
          size += line.length;
        }
        if (size >= CHUNK_CHARS) {
          yield encoder.encode(lines.join(''));
          lines = [];
          size = 0;
        }
      }
      if (lines.length > 0) yield encoder.encode(lines.join(''));
    },
  };
}

/** The engine's progress with the workbook's figures: bytes of the sheet read, time left from them. */
export function sheetProgress(
  progress: Progress,
  source: SheetSource,
  startedMs: number,
  nowMs: number,
): Progress {
  const seconds = Math.max((nowMs - startedMs) / 1000, 1e-3);
  const rate = source.read / seconds;
  return {
    ...progress,
    bytes: source.read,
    totalBytes: source.total,
    etaSeconds: rate > 0 ? Math.max(0, (source.total - source.read) / rate) : null,
  };
}

export interface OpenedSheet {
  /** The sheet read, and every sheet of the workbook (for the picker). */
  sheet: SheetInfo;
  sheets: SheetOverview[];
  source: SheetSource;
  /** The engine's progress with the sheet's figures. */
  progress(progress: Progress): Progress;
}

/** Opens a workbook and the sheet to clean (see chooseSheet): what the hosts feed to runClean. */
export async function openSheet(
  file: RandomAccess,
  choices: Pick<CleanChoices, 'phoneColumn'> & { sheet?: string | undefined },
  fallback: 'first' | 'first-with-phone',
): Promise<OpenedSheet> {
  const book = await openWorkbook(file);
  const sheets = await sheetOverview(book);
  const chosen = chooseSheet(sheets, choices, fallback);
  const sheet = book.sheets[chosen.number - 1];
  if (!sheet) throw new Error(`internal: sheet ${chosen.number} is not in the workbook`);
  const source = sheetCsvSource(book, sheet);
  const started = Date.now();
  return { sheet, sheets, source, progress: (p) => sheetProgress(p, source, started, Date.now()) };
}
