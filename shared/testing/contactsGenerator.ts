// The project's own generator of messy contact CSVs (tests, benchmarks, verify:phones). Pure and
// deterministic: the same options give the same bytes. Every row comes with its truth (what the
// generator meant: the number, how it was damaged, which cells it left empty), so tests compare the
// engine with the generator's intent instead of with magic numbers. Node CLI: scripts/gen-contacts.ts.
//
// Columns: Customer ID, Name, Mobile Number, City, Loan Amount, Due Date, Language, Email, Notes.
// The mess (approximate shares of rows):
//   phones  Indian mobiles in a dozen spellings (+91 98xxx xxxxx, 0091…, 091…, 91-…, spaces, dashes,
//           padding), Excel damage (9.87654E+09, 9.19876E+11 → phone_scientific_notation,
//           919876543210.0 → phone_excel_decimal, leading zero lost from 0-prefixed landlines),
//           US numbers with +1 (valid), US numbers without it (under IN some read as Indian
//           landlines, some are invalid), Indian landlines, junk (short, letters, zeros, N/A),
//           empty or blank cells, ~5% repeats of an earlier number (same bytes or re-spelt)
//   names   titles, odd spacing and case, "Last, First" (quoted), Devanagari and accented names
//   other   quoted fields with the delimiter, doubled quotes and embedded newlines (Notes), Indian
//           digit grouping, currency signs, five date formats, ~1.5% empty prompt-variable cells
//           (Name / Loan Amount / Due Date / Language), rare blank lines and rows missing a cell
//   bytes   UTF-8 (optionally with a BOM), UTF-16LE, Windows-1252 or a legacy encoding (Big5, GBK,
//           Shift_JIS, EUC-KR, Windows-1251, ISO-8859-2: names in its script); LF or CRLF; , ; tab
//           or |; optionally title lines above the header, a stray quote in it, lone LFs in CRLF
// Parts: contactsFormat.ts (columns, options, truth), contactRowSource.ts (the rows),
// contactsVocabulary.ts (the words drawn from), generatedEncoding.ts (text to the file's bytes).
import { createRowSource } from './contactRowSource.ts';
import type { GeneratorOptions, RowTruth } from './contactsFormat.ts';
import { encodeText } from './generatedEncoding.ts';

export { createRowSource } from './contactRowSource.ts';
export { GENERATED_HEADER, VARIABLE_COLUMNS } from './contactsFormat.ts';
export type {
  GeneratedDelimiter,
  GeneratorOptions,
  PhoneIssue,
  PhoneKind,
  RowTruth,
} from './contactsFormat.ts';
export { encodeText, LEGACY_ENCODINGS } from './generatedEncoding.ts';
export type { GeneratedEncoding, LegacyEncoding } from './generatedEncoding.ts';

/**
 * The file as byte chunks of about `chunkChars` characters each; `onRow` receives each row's truth.
 * Streams: a million rows never sit in memory at once.
 */
export function* generateContactChunks(
  options: GeneratorOptions,
  onRow?: (truth: RowTruth) => void,
  chunkChars = 1 << 20,
): Generator<Uint8Array> {
  const encoding = options.encoding ?? 'utf-8';
  const source = createRowSource(options);
  const bom = encoding === 'utf-16le' || (encoding === 'utf-8' && options.bom) ? '\ufeff' : '';
  const title = (options.title ?? []).map((line) => line + source.newline).join('');
  let text = bom + title + source.header + source.newline;
  for (let i = 0; i < options.rows; i++) {
    const { text: record, truth } = source.next();
    const loneLf = options.loneLf && (i % 50 === 49 || i === options.rows - 1);
    text += record + (loneLf ? '\n' : source.newline);
    onRow?.(truth);
    if (text.length >= chunkChars) {
      yield encodeText(text, encoding);
      text = '';
    }
  }
  if (text) yield encodeText(text, encoding);
}

/** A whole generated file in memory with its truth (tests; use the chunks for big files). */
export function generateContacts(options: GeneratorOptions): { bytes: Uint8Array; truth: RowTruth[] } {
  const truth: RowTruth[] = [];
  const chunks = [...generateContactChunks(options, (t) => truth.push(t))];
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { bytes, truth };
}
