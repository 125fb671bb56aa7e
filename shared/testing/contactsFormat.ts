// The generated contacts file's columns and options, and the truth the generator keeps for each
// row (what it meant: the number, how it was damaged, which cells it left empty).
import type { GeneratedEncoding } from './generatedEncoding.ts';

export const GENERATED_HEADER = [
  'Customer ID',
  'Name',
  'Mobile Number',
  'City',
  'Loan Amount',
  'Due Date',
  'Language',
  'Email',
  'Notes',
] as const;

/** Column of the phone number (its cells are never formulas by intent). */
export const PHONE_INDEX = 2;
/** The prompt-variable columns the generator sometimes leaves empty. */
export const VARIABLE_COLUMNS = ['Name', 'Loan Amount', 'Due Date', 'Language'] as const;

export type GeneratedDelimiter = ',' | ';' | '\t' | '|';

export interface GeneratorOptions {
  rows: number;
  seed: number | string;
  /** UTF-8 byte-order mark (Excel's "CSV UTF-8"); UTF-16LE always has one. */
  bom?: boolean;
  crlf?: boolean;
  encoding?: GeneratedEncoding;
  delimiter?: GeneratedDelimiter;
  /**
   * Lines written as they are above the header (a report title, notes; commas included): the
   * header is then on row title.length + 1, and data rows number from there.
   */
  title?: readonly string[];
  /** The City header written with a stray quote, `"City" (town)`, as some exports do (header name kept as written). */
  strayQuoteHeader?: boolean;
  /** CRLF files: every 50th record, and the last, ends with a lone LF (files joined from several tools). */
  loneLf?: boolean;
}

export type PhoneKind =
  | 'in_mobile'
  | 'in_landline'
  /** A 0-prefixed landline whose zero Excel dropped (still the same number). */
  | 'in_landline_zero_lost'
  | 'us_international'
  /** A US number without +1 that, read under IN, is a valid Indian landline. */
  | 'us_read_as_in_landline'
  /** A US number without +1 that is no number at all under IN. */
  | 'us_invalid_in_in'
  | 'excel_scientific'
  | 'excel_decimal'
  | 'junk'
  /** Digits with a bidi control among them (issue 22): "+91\u202E0123456789" shows other digits. */
  | 'bidi'
  | 'empty';

export type PhoneIssue =
  | 'phone_missing'
  | 'phone_invalid'
  | 'phone_scientific_notation'
  | 'phone_excel_decimal'
  | 'phone_bidi_control';

/** What the generator meant for one data row. */
export interface RowTruth {
  /** Spreadsheet row (header = 1; blank lines count, line breaks inside quotes do not). */
  row: number;
  id: string;
  /** The phone cell's text (before CSV quoting). */
  phone: string;
  kind: PhoneKind;
  /** The number the cell means under default country IN, when it is a valid one. */
  e164: string | null;
  phoneIssue: PhoneIssue | null;
  /** Valid only as a fixed line (no mobile reading). */
  landline: boolean;
  /** The row has one cell fewer than the header (its Notes cell is missing). */
  ragged: boolean;
  /** Variable columns (VARIABLE_COLUMNS) left empty. */
  empty: string[];
  /** A cell other than the phone would run as a formula in a spreadsheet (issue 22). */
  formula: boolean;
  /** Spreadsheet row of the earlier row whose number this one reuses on purpose, or 0. */
  repeats: number;
}
