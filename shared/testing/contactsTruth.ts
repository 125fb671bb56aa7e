// What cleaning a generated file must give, derived from the generator's truth (contactsGenerator.ts)
// and the engine's rules as written in shared/domain/contacts/README.md, independently of the
// engine's code: tests compare the engine, the CLI and the app with this.
import type { RowTruth } from './contactsGenerator.ts';

export type ExpectedBucket = 'valid' | 'invalid' | 'duplicate';

export interface ExpectedRow {
  row: number;
  bucket: ExpectedBucket;
  /** The row holding this row's number (0 = none). */
  duplicateOf: number;
  issues: string[];
  e164: string | null;
}

export interface ExpectedClean {
  rows: number;
  valid: number;
  invalid: number;
  duplicates: number;
  issues: Record<string, number>;
  byRow: Map<number, ExpectedRow>;
}

export interface ExpectOptions {
  /** Columns mapped to non-optional variables (their empty cells make a row invalid). */
  required?: readonly string[];
}

/** The rows, buckets and issue counts the engine must report for a generated file. */
export function expectedClean(truth: readonly RowTruth[], options: ExpectOptions = {}): ExpectedClean {
  const required = new Set(options.required ?? []);
  const errorsOf = (t: RowTruth): string[] => [
    ...(t.ragged ? ['row_ragged'] : []),
    ...(t.phoneIssue ? [t.phoneIssue] : []),
    ...(t.empty.some((c) => required.has(c)) ? ['variable_missing'] : []),
  ];
  // A number belongs to the first row that has it and no error of its own, else to the first row.
  const holder = new Map<string, number>();
  const clean = new Set<string>();
  for (const t of truth) {
    if (t.e164 === null || clean.has(t.e164)) continue;
    if (errorsOf(t).length === 0) {
      holder.set(t.e164, t.row);
      clean.add(t.e164);
    } else if (!holder.has(t.e164)) holder.set(t.e164, t.row);
  }
  const byRow = new Map<number, ExpectedRow>();
  const issues: Record<string, number> = {};
  const out: ExpectedClean = { rows: 0, valid: 0, invalid: 0, duplicates: 0, issues, byRow };
  for (const t of truth) {
    const errors = errorsOf(t);
    const held = t.e164 === null ? 0 : (holder.get(t.e164) as number);
    const duplicateOf = held === t.row ? 0 : held;
    const bucket: ExpectedBucket = errors.length > 0 ? 'invalid' : duplicateOf > 0 ? 'duplicate' : 'valid';
    const codes = [
      ...errors,
      ...(duplicateOf > 0 ? ['duplicate'] : []),
      ...(t.landline ? ['phone_landline'] : []),
      ...(t.formula ? ['formula_cell'] : []),
    ];
    for (const code of codes) issues[code] = (issues[code] ?? 0) + 1;
    byRow.set(t.row, { row: t.row, bucket, duplicateOf, issues: codes, e164: t.e164 });
    out.rows++;
    if (bucket === 'valid') out.valid++;
    else if (bucket === 'invalid') out.invalid++;
    else out.duplicates++;
  }
  return out;
}
