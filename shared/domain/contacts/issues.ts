// Issue codes a row can carry, and how they decide its bucket.
//
// Buckets (every data row lands in exactly one; rows = valid + invalid + duplicates):
//   1. invalid   — the row has an error of its own: its structure (quote_unbalanced, row_ragged),
//                  its phone (missing, Excel-damaged, bidi controls, invalid) or an empty required variable;
//   2. duplicate — otherwise valid, and its number belongs to another row: the first row with that
//                  number that is otherwise valid (or, when none is, the first row with it);
//   3. valid     — none of the above. Warnings (phone_landline, formula_cell) do not change the bucket.
// A row keeps every code that applies (an invalid row may also point to the row holding its
// number: `duplicate`); the bucket follows this precedence. Blank lines are not data rows: they are
// counted apart (report.blank_rows).

export const ISSUE = {
  row_ragged: 1,
  phone_missing: 2,
  phone_scientific_notation: 4,
  phone_excel_decimal: 8,
  phone_invalid: 16,
  variable_missing: 32,
  /** A warning: the number is valid only as a fixed line (e.g. a US number read as an Indian landline). */
  phone_landline: 64,
  /** A quote opened a field that never closed: the line was read with the quote as a character. */
  quote_unbalanced: 128,
  /** A warning: a cell (not the phone) would run as a formula in a spreadsheet (formulaCells.ts). */
  formula_cell: 256,
  /** The phone cell holds bidi controls (U+202E…): what it shows is not what would be dialled. */
  phone_bidi_control: 512,
} as const;

/** Every engine flag set (the widest value a row's flags can take). */
export const ALL_FLAGS = 1023;

export type FlagCode = keyof typeof ISSUE;
export const ISSUE_CODES = [
  'row_ragged',
  'phone_missing',
  'phone_scientific_notation',
  'phone_excel_decimal',
  'phone_invalid',
  'duplicate',
  'variable_missing',
  'phone_landline',
  'quote_unbalanced',
  'formula_cell',
  'phone_bidi_control',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];

/** Flags that only warn: the row stays valid (and is uploaded). */
export const WARNINGS = ISSUE.phone_landline | ISSUE.formula_cell;
/** Flags that make a row invalid whatever its number. */
export const ERRORS = ALL_FLAGS & ~WARNINGS;

/** True when a row's flags hold no error (warnings allowed): it may be uploaded or hold its number. */
export const isClean = (flags: number): boolean => (flags & ERRORS) === 0;

export const FLAG_ORDER: readonly FlagCode[] = [
  'quote_unbalanced',
  'row_ragged',
  'phone_missing',
  'phone_scientific_notation',
  'phone_excel_decimal',
  'phone_invalid',
  'phone_bidi_control',
  'variable_missing',
  'phone_landline',
  'formula_cell',
];

export const BUCKET = { valid: 0, invalid: 1, duplicate: 2 } as const;
export type Bucket = keyof typeof BUCKET;
export const BUCKET_NAMES: readonly Bucket[] = ['valid', 'invalid', 'duplicate'];

/** Codes set in a flag mask, in report order. */
export function flagCodes(flags: number): FlagCode[] {
  const codes: FlagCode[] = [];
  for (const code of FLAG_ORDER) if (flags & ISSUE[code]) codes.push(code);
  return codes;
}

/** The bucket a row lands in (see the precedence above). */
export function bucketOf(flags: number, duplicateOf: number): Bucket {
  if (!isClean(flags)) return 'invalid';
  return duplicateOf > 0 ? 'duplicate' : 'valid';
}

// The Reasons cell of the rejects file: entries joined by "; ", each an issue code optionally
// followed by ":" and a detail for people, e.g.
//   "duplicate:row 12; variable_missing:Loan Amount, Due Date"
export const REASON_SEPARATOR = '; ';
export const duplicateReason = (firstRow: number): string => `duplicate:row ${firstRow}`;
export const quoteReason = (line: number): string => `quote_unbalanced:quote opened on line ${line}`;
