import type { CountryCode } from 'libphonenumber-js/max';

export const ENCODINGS = [
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
  // Detected in files that are not UTF-8 (encoding.ts), decoded by TextDecoder and passed on as UTF-8:
  'big5',
  'gb18030',
  'shift_jis',
  'euc-jp',
  'iso-2022-jp',
  'euc-kr',
  'windows-1250',
  'windows-1251',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'windows-1258',
  'windows-874',
  'iso-8859-2',
  'iso-8859-5',
  'iso-8859-6',
  'iso-8859-7',
  'iso-8859-8',
  'koi8-r',
] as const;
export type Encoding = (typeof ENCODINGS)[number];

export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

export type Newline = '\n' | '\r\n' | '\r';

/** How a setting was decided. */
export type Source = 'bom' | 'detected' | 'default' | 'override';

/** What the operator chooses (CLI flags or the app's import form). */
export interface CleanChoices {
  /** Default country for national numbers: ISO code ("IN") or dialling prefix ("+91"). */
  country: string;
  /** Header of the phone column; detected when absent. */
  phoneColumn?: string | undefined;
  /** Prompt variable → column header, in output order. */
  map?: ReadonlyArray<readonly [variable: string, column: string]> | undefined;
  /** Variables that may be empty. */
  optional?: readonly string[] | undefined;
  encoding?: Encoding | undefined;
  delimiter?: Delimiter | undefined;
  /** Upload formula cells as they are (default: their leading = + - @ dropped; still flagged). */
  keepFormulaCells?: boolean | undefined;
}

export interface VariableSetup {
  variable: string;
  column: string;
  index: number;
  optional: boolean;
}

/**
 * Everything a worker needs to clean rows: plain data (structured-clone safe), built once by
 * sniffing the start of the file (sniff.ts).
 */
export interface EngineSetup {
  /** How workers decode the blocks they receive. */
  wireEncoding: WireEncoding;
  country: CountryCode;
  callingCode: string;
  delimiter: Delimiter;
  newline: Newline;
  /** Header names, trimmed. */
  header: string[];
  /** Spreadsheet row of the header (1 unless blank lines precede it). */
  headerRow: number;
  phoneIndex: number;
  /** Column cleaned as a person's name (trim + collapse spaces), -1 when none. */
  nameIndex: number;
  variables: VariableSetup[];
  /** Columns written after `Mobile Number` in the upload file. */
  uploadColumns: number[];
  /** CleanChoices.keepFormulaCells (absent: formula cells are defused in the upload). */
  keepFormulaCells?: boolean;
}

/**
 * The bytes of whole records, ready for a worker, which decodes them with EngineSetup.wireEncoding.
 * A block owns its buffer (it can be transferred).
 */
export interface ByteBlock {
  seq: number;
  bytes: Uint8Array;
  /**
   * Set on a block that is one line whose quote at this byte opened a field that never closes
   * (splitBlocks.ts, `stray`): the line is read with that quote as a plain character.
   */
  strayQuote?: number;
}

/** Encodings of the byte stream workers receive (UTF-16 input is re-encoded as UTF-8). */
export type WireEncoding = 'utf-8' | 'windows-1252';
