// The start of a file → everything needed to clean it: encoding, line break, delimiter, header,
// phone column, variables, upload columns. Hosts read the first chunk (1 MB is plenty), call
// sniff(), then keep decoding with the decoder it returns.
import { resolveDefaultCountry } from '../phone/country.ts';
import {
  autoMatchVariables,
  detectNameColumn,
  detectPhoneColumn,
  duplicateColumns,
  normaliseName,
  resolveColumn,
} from './columns.ts';
import { detectLayout, detectNewline } from './delimiter.ts';
import { createDecoder, detectEncoding, utf8Length } from './encoding.ts';
import type { EncodingGuess, StreamDecoder } from './encoding.ts';
import { binaryKind } from './binaryKind.ts';
import { ContactsError } from './errors.ts';
import { countLines, firstRecord, readStrayLine } from './parseRecords.ts';
import { findCut } from './splitBlocks.ts';
import type {
  CleanChoices,
  Delimiter,
  EngineSetup,
  Newline,
  Source,
  VariableSetup,
  WireEncoding,
} from './types.ts';
import { UPLOAD_PHONE_HEADER } from './merger.ts';

export interface Sniffed {
  setup: EngineSetup;
  encoding: EncodingGuess;
  delimiterSource: Source;
  /**
   * UTF-8 and Windows-1252 files go to the workers as they are: the data records start at this
   * byte of the first chunk. Null for UTF-16 files, which are re-encoded as UTF-8: decode the
   * following chunks with `decoder` and start from `rest`.
   */
  dataOffset: number | null;
  /** The decoder, already past the first chunk. */
  decoder: StreamDecoder;
  /** Decoded text of the first chunk after the header record (and any blank lines before it). */
  rest: string;
  /** Physical line (1-based) where the data records start. */
  dataLine: number;
  /** How the header was found when it was not simply the first line (titles skipped, a stray quote). */
  headerNote: string | null;
}

/** Text files have no NUL and hardly any control characters (tab, CR, LF, FF aside). */
function looksBinary(text: string): boolean {
  const n = Math.min(text.length, 64 * 1024);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return true;
    if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) control++;
  }
  return control > n * 0.01;
}

export function resolveSetup(
  header: string[],
  headerRow: number,
  delimiter: Delimiter,
  newline: EngineSetup['newline'],
  choices: CleanChoices,
  wireEncoding: WireEncoding = 'utf-8',
): EngineSetup {
  const country = resolveDefaultCountry(choices.country);
  if (!country) {
    throw new ContactsError(
      'bad_option',
      `unknown country "${choices.country}": use an ISO code such as IN or a dialling prefix such as +91`,
    );
  }
  const phoneIndex = choices.phoneColumn
    ? resolveColumn(header, choices.phoneColumn, 'phone column')
    : detectPhoneColumn(header);
  if (phoneIndex < 0) {
    const list = header.map((h) => JSON.stringify(h)).join(', ');
    throw new ContactsError(
      'no_phone_column',
      `no phone column among the headers (${list}); expected "${UPLOAD_PHONE_HEADER}" or a header such as Phone, Mobile, Contact, MSISDN`,
    );
  }
  const variables: VariableSetup[] = [];
  const optional = new Set(choices.optional ?? []);
  for (const [variable, column] of choices.map ?? []) {
    if (variable.trim() === '')
      throw new ContactsError('bad_option', `a mapping has no variable name ("=${column}")`);
    const option = `column for variable "${variable}"`;
    const target = column.trim() === '' ? autoMatchVariables([variable], header)[variable] : column;
    if (!target) {
      // Say so when the name is one several columns share; otherwise nothing matched.
      if (duplicateColumns(header).some((d) => normaliseName(d.name) === normaliseName(variable)))
        resolveColumn(header, variable, option);
      throw new ContactsError(
        'unknown_column',
        `no column matches variable "${variable}"; map it explicitly (variable=column)`,
      );
    }
    const index = resolveColumn(header, target, option);
    variables.push({ variable, column: header[index] as string, index, optional: optional.has(variable) });
  }
  for (const v of optional) {
    if (!variables.some((m) => m.variable === v)) {
      throw new ContactsError('bad_option', `optional variable "${v}" is not mapped to a column`);
    }
  }
  const uploadColumns: number[] = [];
  if (variables.length > 0) {
    for (const v of variables)
      if (v.index !== phoneIndex && !uploadColumns.includes(v.index)) uploadColumns.push(v.index);
  } else {
    // Every other column; repeated names are told apart in the upload header (uploadColumnNames).
    header.forEach((_h, i) => {
      if (i !== phoneIndex) uploadColumns.push(i);
    });
  }
  return {
    wireEncoding,
    country: country.country,
    callingCode: country.callingCode,
    delimiter,
    newline,
    header,
    headerRow,
    phoneIndex,
    nameIndex: detectNameColumn(header),
    variables,
    uploadColumns,
    ...(choices.keepFormulaCells ? { keepFormulaCells: true } : {}),
  };
}

/**
 * Reads the first chunk of a file. `complete` says the chunk is the whole file. Throws
 * ContactsError for files that cannot be cleaned (empty, binary, no header, no phone column,
 * bad options).
 */
export function sniff(firstChunk: Uint8Array, complete: boolean, choices: CleanChoices): Sniffed {
  if (firstChunk.length === 0) throw new ContactsError('empty_file', 'the file is empty');
  const binary = binaryKind(firstChunk);
  if (binary) throw new ContactsError('not_text', `not a CSV text file: it looks like ${binary}`);
  const encoding = detectEncoding(firstChunk, complete, choices.encoding);
  const decoder = createDecoder(encoding.encoding, encoding.bomLength);
  let text = decoder.push(firstChunk);
  if (complete) text += decoder.end();
  if (looksBinary(text)) throw new ContactsError('not_text', 'not a CSV text file: it contains binary data');
  if (text.trim() === '') throw new ContactsError('empty_file', 'the file is empty');

  // Blank lines before the header still count as spreadsheet rows.
  let start = 0;
  let headerRow = 1;
  for (;;) {
    const m = /^[ \t]*(\r\n|\n|\r)/.exec(text.slice(start, start + 1024));
    if (!m) break;
    start += m[0].length;
    headerRow++;
  }
  const newline = detectNewline(text.slice(start, start + 64 * 1024));
  // Title or notes lines above the table are found with the delimiter (the records before the
  // header have fewer filled cells); the delimiter is detected or, when chosen, kept.
  const layout = detectLayout(text.slice(start), newline, complete, choices.delimiter);
  const delimiter = layout.delimiter;
  const delimiterSource: Source = layout.source;
  const notes: string[] = [];
  if (layout.skipped) {
    start += layout.skipped.chars;
    headerRow += layout.skipped.records;
    const { lines } = layout.skipped;
    const shown = lines.slice(0, 3).map((l) => JSON.stringify(l.length > 60 ? `${l.slice(0, 57)}…` : l));
    notes.push(
      `header on row ${headerRow}: skipped ${lines.length === 1 ? 'a line above it that looks like a title or note' : `${lines.length} lines above it that look like a title or notes`} (fewer filled cells): ${shown.join(', ')}${lines.length > 3 ? ', …' : ''}`,
    );
  }

  const first = headerRecord(text.slice(start), delimiter, newline, complete);
  if (first.strayQuote)
    notes.push(
      `the header has a quote that never closes: read with the quote as a character (header row ${headerRow})`,
    );
  const headerEnd = start + first.end;
  if (headerEnd === text.length && !complete) {
    throw new ContactsError('no_header', 'no complete header line in the first megabyte of the file');
  }
  const headerCells = first.cells;
  const header = headerCells.map((h) => h.trim());
  if (header.every((h) => h === '')) throw new ContactsError('no_header', 'the header line is empty');
  const wire: WireEncoding = encoding.encoding === 'windows-1252' ? 'windows-1252' : 'utf-8';
  const setup = resolveSetup(header, headerRow, delimiter, newline, choices, wire);
  const passThrough = encoding.encoding === 'utf-8' || encoding.encoding === 'windows-1252';
  const dataOffset = passThrough
    ? encoding.bomLength + (wire === 'utf-8' ? utf8Length(text, 0, headerEnd) : headerEnd)
    : null;
  const dataLine = 1 + countLines(text, newline, 0, headerEnd);
  return {
    setup,
    encoding,
    delimiterSource,
    dataOffset,
    decoder,
    rest: text.slice(headerEnd),
    dataLine,
    headerNote: notes.length > 0 ? notes.join('; ') : null,
  };
}

/**
 * The header record, read as a data record is: a quote that opens a field and never closes (or
 * "closes" with text after it, `"Age" (years)`) is a stray quote, and the line is read with it
 * as a character instead of swallowing the following lines (splitBlocks.ts decides, as for data).
 */
function headerRecord(
  text: string,
  delimiter: Delimiter,
  newline: Newline,
  complete: boolean,
): { cells: string[]; end: number; strayQuote: boolean } {
  if (text.includes('"')) {
    const bytes = new TextEncoder().encode(text);
    const cut = findCut(bytes, 0, bytes.length, 1, complete, delimiter, newline, 'literal');
    if (cut.kind === 'stray' && cut.recordStart === 0) {
      const utf8 = new TextDecoder();
      const end = utf8.decode(bytes.subarray(0, cut.lineEnd)).length;
      const quoteAt = utf8.decode(bytes.subarray(0, cut.quote)).length;
      return { cells: readStrayLine(text.slice(0, end), quoteAt, delimiter, newline), end, strayQuote: true };
    }
  }
  return { ...firstRecord(text, delimiter, newline), strayQuote: false };
}
