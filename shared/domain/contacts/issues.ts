// Issue codes a row can carry, and how they decide its bucket.
//
// Buckets (every data row lands in exactly one; rows = valid + invalid + duplicates):
//   1. invalid   — the row is ragged, or its phone is missing / Excel-damaged / invalid;
//   2. duplicate — its phone is valid and an earlier row already has the same E.164 number
//                  (the first row with a valid number wins, whatever else is wrong with it);
//   3. invalid   — a mapped, non-optional variable is empty;
//   4. valid     — none of the above.
// A row keeps every code that applies (a duplicate may also miss a variable); the bucket follows
// this precedence. Blank lines are not data rows: they are counted apart (report.blank_rows).

export const ISSUE = {
  row_ragged: 1,
  phone_missing: 2,
  phone_scientific_notation: 4,
  phone_excel_decimal: 8,
  phone_invalid: 16,
  variable_missing: 32,
} as const;

export type FlagCode = keyof typeof ISSUE;
export const ISSUE_CODES = [
  'row_ragged',
  'phone_missing',
  'phone_scientific_notation',
  'phone_excel_decimal',
  'phone_invalid',
  'duplicate',
  'variable_missing',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];

/** Flags that make a row invalid before duplicates are considered. */
export const PHONE_OR_SHAPE_ERRORS =
  ISSUE.row_ragged |
  ISSUE.phone_missing |
  ISSUE.phone_scientific_notation |
  ISSUE.phone_excel_decimal |
  ISSUE.phone_invalid;

export const FLAG_ORDER: readonly FlagCode[] = [
  'row_ragged',
  'phone_missing',
  'phone_scientific_notation',
  'phone_excel_decimal',
  'phone_invalid',
  'variable_missing',
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
  if (flags & PHONE_OR_SHAPE_ERRORS) return 'invalid';
  if (duplicateOf > 0) return 'duplicate';
  return flags === 0 ? 'valid' : 'invalid';
}

// The Reasons cell of the rejects file: entries joined by "; ", each an issue code optionally
// followed by ":" and a detail for people, e.g.
//   "duplicate:row 12; variable_missing:Loan Amount, Due Date"
export const REASON_SEPARATOR = '; ';
export const duplicateReason = (firstRow: number): string => `duplicate:row ${firstRow}`;
