// One row, checked again after an operator edits a cell. Same rules as bulk cleaning (rowRules),
// same Reasons text as the rejects file.
import { bucketOf, duplicateReason, ISSUE, ISSUE_CODES, REASON_SEPARATOR } from './issues.ts';
import type { Bucket, IssueCode } from './issues.ts';
import { cleanName, firstNamePreview } from './names.ts';
import { createRowRules } from './rowRules.ts';
import type { EngineSetup } from './types.ts';

export interface RowOutcome {
  row: number;
  bucket: Bucket;
  issues: IssueCode[];
  /** The Reasons cell of the rejects file ('' for a valid row). */
  reasons: string;
  phoneRaw: string;
  e164: string | null;
  /** The earlier row this one repeats, or 0. */
  duplicateOf: number;
  /** Cleaned name and first-name preview, when the file has a name column. */
  name: string | null;
  firstName: string | null;
}

/** A RowOutcome whose name previews are made when read: a bulk change checks a million rows and reads neither. */
class Outcome implements RowOutcome {
  readonly row: number;
  readonly bucket: Bucket;
  readonly issues: IssueCode[];
  readonly reasons: string;
  readonly phoneRaw: string;
  readonly e164: string | null;
  readonly duplicateOf: number;
  readonly #nameCell: string | null;
  constructor(fields: Omit<RowOutcome, 'name' | 'firstName'>, nameCell: string | null) {
    this.row = fields.row;
    this.bucket = fields.bucket;
    this.issues = fields.issues;
    this.reasons = fields.reasons;
    this.phoneRaw = fields.phoneRaw;
    this.e164 = fields.e164;
    this.duplicateOf = fields.duplicateOf;
    this.#nameCell = nameCell;
  }
  get name(): string | null {
    return this.#nameCell === null ? null : cleanName(this.#nameCell);
  }
  get firstName(): string | null {
    return this.#nameCell === null ? null : firstNamePreview(this.#nameCell);
  }
}

/**
 * Returns a function that checks one row. `earliestRowWith(e164)` answers the smallest spreadsheet
 * row, other than this one, whose valid phone has that E.164 number (0 when none): this row is a
 * duplicate only when that row comes first. After an edit the host should also recheck rows that
 * pointed at this row's old number (one of them may now be the first).
 */
export function createRowRevalidator(setup: EngineSetup) {
  const rules = createRowRules(setup);
  return (cells: readonly string[], row: number, earliestRowWith: (e164: string) => number): RowOutcome => {
    const check = rules.check(cells);
    const other = check.e164 !== null ? earliestRowWith(check.e164) : 0;
    const duplicateOf = other > 0 && other < row ? other : 0;
    const own = check.flags !== 0 ? rules.reasons(check.flags, check, cells.length) : '';
    const issues = ISSUE_CODES.filter((c) =>
      c === 'duplicate' ? duplicateOf > 0 : (check.flags & ISSUE[c]) !== 0,
    );
    const bucket = bucketOf(check.flags, duplicateOf);
    const nameCell = setup.nameIndex >= 0 ? (cells[setup.nameIndex] ?? '') : null;
    return new Outcome(
      {
        row,
        bucket,
        issues,
        reasons: duplicateOf > 0 ? duplicateReason(duplicateOf) + (own ? REASON_SEPARATOR + own : '') : own,
        phoneRaw: cells[setup.phoneIndex] ?? '',
        e164: check.e164,
        duplicateOf,
      },
      nameCell,
    );
  };
}

/** Phone issues that come from the cell's text alone, whatever the country. */
const TEXT_ONLY =
  ISSUE.phone_missing |
  ISSUE.phone_scientific_notation |
  ISSUE.phone_excel_decimal |
  ISSUE.phone_bidi_control;
/** Phone issues a country decides. */
const BY_COUNTRY = ISSUE.phone_invalid | ISSUE.phone_landline;
const LEADING_PARTS = ['quote_unbalanced:', 'row_ragged:'];

export interface PhoneRecheck {
  e164: string | null;
  /** The row's flags with its phone's read again (duplicate aside). */
  flags: number;
  /** Its own Reasons text (no duplicate part). */
  reasons: string;
}

/**
 * Reads only a row's phone again, with another default country: what the row's other cells give
 * (its shape, variables, how the file was read) stays as stored, so a million rows need not have
 * their cells parsed and checked again (~4 µs a row). `flags` are the row's flags and `reasons` its
 * own Reasons text, both as the engine left them. Answers null when the whole row must be checked
 * instead (createRowRevalidator): a phone whose text alone decides its issue (missing, Excel
 * damage) either way. Otherwise the same answer as checking the row's cells (tested on the
 * generator's files): only the phone_invalid part of the Reasons can come or go, and it sits after
 * the parts that come first (how the file was read, the row's shape) and before the variables'.
 */
export function createPhoneRecheck(setup: EngineSetup) {
  const rules = createRowRules(setup);
  return (phoneRaw: string, flags: number, reasons: string): PhoneRecheck | null => {
    if (flags & TEXT_ONLY) return null;
    const { flag, e164 } = rules.phoneCheck(phoneRaw);
    if (flag & TEXT_ONLY) return null;
    const parts = reasons === '' ? [] : reasons.split(REASON_SEPARATOR);
    let at = 0;
    while (at < parts.length && LEADING_PARTS.some((p) => parts[at]!.startsWith(p))) at++;
    const had = parts[at] === 'phone_invalid';
    const invalid = (flag & ISSUE.phone_invalid) !== 0;
    if (had && !invalid) parts.splice(at, 1);
    else if (!had && invalid) parts.splice(at, 0, 'phone_invalid');
    return { e164, flags: (flags & ~BY_COUNTRY) | flag, reasons: parts.join(REASON_SEPARATOR) };
  };
}
