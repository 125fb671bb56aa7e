// papaparse's low-level Parser, typed: arrays (not objects: 1.5-1.7x faster), explicit delimiter
// and newline (no guessing), no header handling, no empty-line skipping (we count blank lines to
// keep spreadsheet row numbers exact). Records are handed over one at a time (papaparse's `step`)
// so they die young instead of piling up in a big array (which costs more in GC than parsing).
import Papa from 'papaparse';
import type { Delimiter, Newline } from './types.ts';

interface StepResult {
  data: string[][];
  errors: Array<{ code: string; message: string }>;
  meta: { cursor: number };
}
interface LowLevelParser {
  parse(input: string, baseIndex: number, ignoreLastRow: boolean): StepResult;
  abort(): void;
}

/** papaparse's Parser with our settings (RFC 4180 quoting, given delimiter and newline), one record per `step`. */
const lowLevelParser = (
  delimiter: Delimiter,
  newline: Newline,
  step: (results: StepResult) => void,
): LowLevelParser =>
  new Papa.Parser({
    delimiter,
    newline,
    quoteChar: '"',
    escapeChar: '"',
    step,
  } as Papa.ParseConfig) as unknown as LowLevelParser;

/** Called per record with its cells and its text span [start, end) (line break excluded). */
export type RecordVisitor = (cells: string[], start: number, end: number) => void;

export interface ParseOutcome {
  /** Where the next record starts (text.length when all was consumed). */
  cursor: number;
  /** papaparse's quoting complaints (none for text the splitter vouched for). */
  errors: number;
}

/**
 * Parses `text` record by record. A trailing line break does not make an extra empty record
 * (papaparse reports one; we skip it), so there is exactly one record per line break (plus one
 * when the text does not end with a line break). With `partial`, the last record is only reported
 * once a line break ends it (streaming: the rest waits for the next chunk).
 */
export function eachRecord(
  text: string,
  delimiter: Delimiter,
  newline: Newline,
  partial: boolean,
  visit: RecordVisitor,
): ParseOutcome {
  if (text === '') return { cursor: 0, errors: 0 };
  const breaks = newline === '\r\n' ? loneLineFeeds(text, delimiter) : null;
  if (!breaks) return eachRecordOf(text, delimiter, newline, partial, visit);
  // A lone LF outside quotes in a CRLF file ends a line too (files edited by hand or joined from
  // several tools mix both; a spreadsheet starts a row there): the text is read as the runs of
  // CRLF records between those LFs.
  let errors = 0;
  let from = 0;
  for (const lf of breaks) {
    const segment = text.slice(from, lf);
    const offset = from;
    const shifted: RecordVisitor = (cells, s, e) => visit(cells, s + offset, e + offset);
    errors += eachRecordOf(segment, delimiter, newline, false, shifted).errors;
    // "\r\n\n" or "\n\n": an empty line ended by the lone LF (papaparse reports no record for it).
    if (segment === '' || segment.endsWith(newline)) visit([''], lf, lf);
    from = lf + 1;
  }
  // The last line ended by a lone LF at the end of the text leaves no empty record after it.
  if (from === text.length) return { cursor: text.length, errors };
  const offset = from;
  const last = eachRecordOf(text.slice(from), delimiter, newline, partial, (cells, s, e) =>
    visit(cells, s + offset, e + offset),
  );
  return { cursor: offset + last.cursor, errors: errors + last.errors };
}

/**
 * Offsets of the LFs of a CRLF text that have no CR before them and are outside quotes (a quote
 * opens a field at the start, after the delimiter or after a line break, as papaparse reads it),
 * or null when there are none (one indexOf per line when every LF has its CR).
 */
function loneLineFeeds(text: string, delimiter: Delimiter): number[] | null {
  let lf = text.indexOf('\n');
  while (lf !== -1 && lf > 0 && text.charCodeAt(lf - 1) === 13) lf = text.indexOf('\n', lf + 1);
  if (lf === -1) return null;
  const delim = delimiter.charCodeAt(0);
  const out: number[] = [];
  let quote = text.indexOf('"');
  lf = text.indexOf('\n');
  while (lf !== -1) {
    if (quote !== -1 && quote < lf) {
      const prev = quote === 0 ? 10 : text.charCodeAt(quote - 1);
      // After the quote: a quote inside an unquoted field is a character; a quoted field is
      // skipped to its closing quote ("" is an escaped quote).
      let pos = quote + 1;
      if (prev === delim || prev === 10) {
        let close = text.indexOf('"', quote + 1);
        while (close !== -1 && text.charCodeAt(close + 1) === 34) close = text.indexOf('"', close + 2);
        if (close === -1) break; // open to the end: no line break after it is outside quotes
        pos = close + 1;
      }
      quote = text.indexOf('"', pos);
      if (lf < pos) lf = text.indexOf('\n', pos);
      continue;
    }
    if (lf === 0 || text.charCodeAt(lf - 1) !== 13) out.push(lf);
    lf = text.indexOf('\n', lf + 1);
  }
  return out.length > 0 ? out : null;
}

/** eachRecord for text whose records all end with `newline`. */
function eachRecordOf(
  text: string,
  delimiter: Delimiter,
  newline: Newline,
  partial: boolean,
  visit: RecordVisitor,
): ParseOutcome {
  if (partial) return eachRecordByPapaparse(text, delimiter, newline, partial, visit);
  const stop = eachRegularRecord(text, delimiter, newline, visit);
  if (stop >= text.length) return { cursor: text.length, errors: 0 };
  const rest = eachRecordByPapaparse(text.slice(stop), delimiter, newline, false, (cells, s, e) =>
    visit(cells, s + stop, e + stop),
  );
  return { cursor: text.length, errors: rest.errors };
}

/**
 * Reads whole records the way papaparse does, without it, as long as their quoting is regular
 * (RFC 4180: a quote opens a field, and its closing quote is followed by the delimiter, the line
 * break or the end): a record without a quote is split at the delimiter, one with quotes is read
 * field by field. Returns where it stopped: text.length, or the start of the first record it
 * does not read (a quote inside an unquoted field, text after a closing quote, a quote that never
 * closes), which papaparse then reads with the rest. papaparse's character loop was a quarter of
 * a lane's time; its own fast mode (split) only applies to a text with no quote at all.
 */
export function eachRegularRecord(
  text: string,
  delimiter: Delimiter,
  newline: Newline,
  visit: RecordVisitor,
): number {
  const n = text.length;
  const nl = newline.length;
  const delim = delimiter.charCodeAt(0);
  let start = 0;
  let quote = text.indexOf('"');
  while (start < n) {
    let end = text.indexOf(newline, start);
    if (end < 0) end = n;
    if (quote !== -1 && quote < start) quote = text.indexOf('"', start);
    if (quote === -1 || quote >= end) {
      visit(text.slice(start, end).split(delimiter), start, end);
      start = end + nl;
      continue;
    }
    const cells: string[] = [];
    let at = start;
    for (;;) {
      if (text.charCodeAt(at) === 34) {
        let close = text.indexOf('"', at + 1);
        while (close !== -1 && text.charCodeAt(close + 1) === 34) close = text.indexOf('"', close + 2);
        if (close === -1) return start;
        const value = text.slice(at + 1, close);
        cells.push(value.indexOf('"') < 0 ? value : value.replaceAll('""', '"'));
        const after = close + 1;
        if (after === n) {
          visit(cells, start, n);
          return n;
        }
        if (text.charCodeAt(after) === delim) {
          at = after + 1;
          continue;
        }
        if (!text.startsWith(newline, after)) return start;
        visit(cells, start, after);
        start = after + nl;
        break;
      }
      let lineEnd = text.indexOf(newline, at);
      if (lineEnd < 0) lineEnd = n;
      let fieldEnd = text.indexOf(delimiter, at);
      if (fieldEnd < 0 || fieldEnd > lineEnd) fieldEnd = lineEnd;
      const value = text.slice(at, fieldEnd);
      if (value.indexOf('"') >= 0) return start;
      cells.push(value);
      if (fieldEnd === lineEnd) {
        visit(cells, start, lineEnd);
        start = lineEnd + nl;
        break;
      }
      at = fieldEnd + 1;
    }
  }
  return n;
}

/** eachRecordOf by papaparse itself (streaming, and whatever eachRegularRecord leaves). */
export function eachRecordByPapaparse(
  text: string,
  delimiter: Delimiter,
  newline: Newline,
  partial: boolean,
  visit: RecordVisitor,
): ParseOutcome {
  if (text === '') return { cursor: 0, errors: 0 };
  let start = 0;
  let errors = 0;
  const nl = newline.length;
  const parser = lowLevelParser(delimiter, newline, (results) => {
    const end = results.meta.cursor;
    errors += results.errors.length;
    const cells = results.data[0];
    if (cells) {
      if (!(start === text.length && cells.length === 1 && cells[0] === '')) {
        const stop = end - start >= nl && text.startsWith(newline, end - nl) ? end - nl : end;
        visit(cells, start, stop);
      }
    }
    start = end;
  });
  const outcome = parser.parse(text, 0, partial);
  return { cursor: partial ? outcome.meta.cursor : text.length, errors: errors + outcome.errors.length };
}

/** All records of a text made of whole records (small inputs: headers, samples, tests). */
export function parseRecords(text: string, delimiter: Delimiter, newline: Newline): string[][] {
  const rows: string[][] = [];
  eachRecord(text, delimiter, newline, false, (cells) => rows.push(cells));
  return rows;
}

/**
 * The cells of one line whose quote at `quoteAt` opened a field that never closes: the fields
 * before it as usual, then the rest of the line split at the delimiter with every quote kept as a
 * character (`a,"b,c` → a | "b | c).
 */
export function readStrayLine(
  line: string,
  quoteAt: number,
  delimiter: Delimiter,
  newline: Newline,
): string[] {
  // A CRLF file's line may end with a lone LF (see splitAtLoneLf).
  const text = line.endsWith(newline)
    ? line.slice(0, -newline.length)
    : line.endsWith('\n')
      ? line.slice(0, -1)
      : line;
  const before =
    quoteAt === 0 ? [] : (parseRecords(text.slice(0, quoteAt), delimiter, newline)[0] ?? ['']).slice(0, -1);
  return [...before, ...text.slice(quoteAt).split(delimiter)];
}

/** Line breaks in text (LF, or CR in CR-only files): physical lines, as a text editor counts them. */
export function countLines(text: string, newline: Newline, from = 0, to = text.length): number {
  const mark = newline === '\r' ? '\r' : '\n';
  let lines = 0;
  for (let i = text.indexOf(mark, from); i !== -1 && i < to; i = text.indexOf(mark, i + 1)) lines++;
  return lines;
}

/**
 * Streaming parse of arbitrary chunks (used when quoting makes splitting unsafe): complete records
 * are visited on push(); the partial record at the end waits for the next chunk, as papaparse's own
 * ChunkStreamer does. Spans are relative to the text given to that push() call (carry included),
 * so they are only meaningful inside the visitor.
 */
export function createRecordStream(delimiter: Delimiter, newline: Newline) {
  let carry = '';
  return {
    push(text: string, visit: RecordVisitor): void {
      const input = carry + text;
      const { cursor } = eachRecord(input, delimiter, newline, true, visit);
      carry = input.slice(cursor);
    },
    end(visit: RecordVisitor): void {
      const rest = carry;
      carry = '';
      eachRecord(rest, delimiter, newline, false, visit);
    },
  };
}

/**
 * The first record of `text` as papaparse reads it, and the offset where the next record starts
 * (text.length when the record runs to the end of the text).
 */
export function firstRecord(
  text: string,
  delimiter: Delimiter,
  newline: Newline,
): { cells: string[]; end: number } {
  let cells: string[] = [];
  let end = text.length;
  let seen = false;
  const parser = lowLevelParser(delimiter, newline, (results) => {
    if (seen) return;
    seen = true;
    cells = results.data[0] ?? [];
    end = results.meta.cursor;
    parser.abort();
  });
  parser.parse(text, 0, false);
  return { cells, end };
}
