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
  const holder = new Map<string, number>();
  const byRow = new Map<number, ExpectedRow>();
  const issues: Record<string, number> = {};
  const out: ExpectedClean = { rows: 0, valid: 0, invalid: 0, duplicates: 0, issues, byRow };
  for (const t of truth) {
    const own: string[] = [];
    if (t.ragged) own.push('row_ragged');
    if (t.phoneIssue) own.push(t.phoneIssue);
    if (t.empty.some((c) => required.has(c))) own.push('variable_missing');
    // Duplicates: the first row with a valid number holds it (whatever else is wrong with it).
    let duplicateOf = 0;
    if (t.e164 !== null) {
      const first = holder.get(t.e164);
      if (first === undefined) holder.set(t.e164, t.row);
      else duplicateOf = first;
    }
    const shape = t.ragged || t.phoneIssue !== null;
    const bucket: ExpectedBucket = shape
      ? 'invalid'
      : duplicateOf > 0
        ? 'duplicate'
        : own.length > 0
          ? 'invalid'
          : 'valid';
    const codes = duplicateOf > 0 ? [...own, 'duplicate'] : own;
    for (const code of codes) issues[code] = (issues[code] ?? 0) + 1;
    byRow.set(t.row, { row: t.row, bucket, duplicateOf, issues: codes, e164: t.e164 });
    out.rows++;
    if (bucket === 'valid') out.valid++;
    else if (bucket === 'invalid') out.invalid++;
    else out.duplicates++;
  }
  return out;
}
