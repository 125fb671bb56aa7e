// The per-row rules (shape, phone, variables), shared by bulk cleaning and single-row
// revalidation so both always agree.
import { createPhoneNormalizer } from '../phone/normalizePhone.ts';
import type { PhoneNormalizer } from '../phone/normalizePhone.ts';
import { hasFloatSuffix, isScientificNotation, phoneText } from '../phone/excelDamage.ts';
import type { ByteWriter } from './byteWriter.ts';
import { csvCell, safeCell } from './csvWrite.ts';
import { hasBidiControl, stripBidiControls } from '../visibleText.ts';
import { defuseFormula, isFormulaCell } from './formulaCells.ts';
import { ISSUE, REASON_SEPARATOR } from './issues.ts';
import { cleanName } from './names.ts';
import type { EngineSetup, VariableSetup } from './types.ts';

export interface RowCheck {
  /** ISSUE bits (duplicate is decided later, across the whole file). */
  flags: number;
  /** E.164 when the phone is valid, else null. */
  e164: string | null;
  /** Mapped, non-optional variables that are empty. */
  missing: readonly VariableSetup[];
}

const NONE: readonly VariableSetup[] = [];

export interface RowRules {
  readonly phone: PhoneNormalizer;
  /** True for a record with no content (blank line, or only delimiters and spaces). */
  isBlank(cells: readonly string[]): boolean;
  check(cells: readonly string[]): RowCheck;
  /** The phone cell's own flag (one of the phone issues, or 0) and its E.164 when valid. */
  phoneCheck(raw: string | undefined): { flag: number; e164: string | null };
  /**
   * Upload record: E.164 first, then the upload columns as imported (trimmed; names cleaned), bidi
   * controls removed and formula cells defused (formulaCells.ts).
   */
  uploadLine(e164: string, cells: readonly string[]): string;
  /** The same record written as UTF-8 into a byte writer (the bulk path). */
  writeUpload(out: ByteWriter, e164: string, cells: readonly string[]): void;
  /** The original cells as a rejects-file tail (neutralised, quoted), without a line end. */
  rejectTail(cells: readonly string[]): string;

  /**
   * The Reasons cell text for a flagged row: its errors, without "duplicate" (the merger decides it),
   * quote_unbalanced (the merger names its line) and warnings (they reject nothing).
   */
  reasons(flags: number, check: RowCheck, cellCount: number): string;
}

export function createRowRules(
  setup: EngineSetup,
  phone: PhoneNormalizer = createPhoneNormalizer(setup.country),
): RowRules {
  const { phoneIndex, nameIndex, variables, uploadColumns } = setup;
  const width = setup.header.length;
  const required = variables.filter((v) => !v.optional);

  const phoneFlags = (raw: string | undefined): { flag: number; e164: string | null } => {
    const text = phoneText(raw ?? '');
    if (text === '') return { flag: ISSUE.phone_missing, e164: null };
    // Bidi controls make a number show other digits than it holds ("+91\u202E0123456789").
    if (hasBidiControl(text)) return { flag: ISSUE.phone_bidi_control, e164: null };
    if ((text.indexOf('E') >= 0 || text.indexOf('e') >= 0) && isScientificNotation(text)) {
      return { flag: ISSUE.phone_scientific_notation, e164: null };
    }
    if (text.indexOf('.') >= 0 && hasFloatSuffix(text))
      return { flag: ISSUE.phone_excel_decimal, e164: null };
    const e164 = phone.toE164(text);
    if (e164 === null) return { flag: ISSUE.phone_invalid, e164 };
    return { flag: phone.isLandline(e164) ? ISSUE.phone_landline : 0, e164 };
  };

  const defuse = setup.keepFormulaCells ? (v: string): string => v : defuseFormula;
  /** A cell as the upload carries it. */
  const uploadValue = (i: number, value: string): string => {
    const plain = stripBidiControls(value);
    return defuse(i === nameIndex ? cleanName(plain) : plain.trim());
  };

  return {
    phone,
    isBlank(cells) {
      const phoneCell = cells[phoneIndex];
      if (phoneCell !== undefined && phoneCell !== '' && phoneCell.trim() !== '') return false;
      for (const cell of cells) if (cell.trim() !== '') return false;
      return true;
    },
    phoneCheck: phoneFlags,
    check(cells) {
      let flags = cells.length === width ? 0 : ISSUE.row_ragged;
      const { flag, e164 } = phoneFlags(cells[phoneIndex]);
      flags |= flag;
      let missing = NONE;
      for (const v of required) {
        const value = cells[v.index];
        if (value === undefined || value.trim() === '') {
          if (missing === NONE) missing = [];
          (missing as VariableSetup[]).push(v);
        }
      }
      if (missing.length > 0) flags |= ISSUE.variable_missing;
      for (let i = 0; i < cells.length; i++) {
        if (i !== phoneIndex && isFormulaCell(cells[i] as string)) {
          flags |= ISSUE.formula_cell;
          break;
        }
      }
      return { flags, e164, missing };
    },
    uploadLine(e164, cells) {
      let line = e164;
      for (const i of uploadColumns) {
        const value = cells[i] ?? '';
        line += ',' + csvCell(uploadValue(i, value));
      }
      return line + '\n';
    },
    writeUpload(out, e164, cells) {
      out.plain(e164);
      for (const i of uploadColumns) {
        const value = cells[i] ?? '';
        out.byte(44);
        // Most cells start with a letter or digit (never a formula) and need no cleaning: written
        // as they are in one pass (a third of a lane's time went to the full path).
        const first = value.charCodeAt(0);
        if (((first >= 48 && first <= 57) || first >= 65) && out.simpleCell(value, i === nameIndex)) continue;
        out.cell(uploadValue(i, value));
      }
      out.byte(10);
    },
    rejectTail(cells) {
      let tail = '';
      for (let i = 0; i < cells.length; i++) tail += (i === 0 ? '' : ',') + safeCell(cells[i] as string);
      return tail;
    },
    reasons(flags, check, cellCount) {
      const parts: string[] = [];
      if (flags & ISSUE.row_ragged) parts.push(`row_ragged:${cellCount} of ${width} cells`);
      if (flags & ISSUE.phone_missing) parts.push('phone_missing');
      if (flags & ISSUE.phone_scientific_notation) parts.push('phone_scientific_notation');
      if (flags & ISSUE.phone_excel_decimal) parts.push('phone_excel_decimal');
      if (flags & ISSUE.phone_invalid) parts.push('phone_invalid');
      if (flags & ISSUE.phone_bidi_control) parts.push('phone_bidi_control');
      if (flags & ISSUE.variable_missing)
        parts.push(`variable_missing:${check.missing.map((v) => v.column).join(', ')}`);
      return parts.join(REASON_SEPARATOR);
    },
  };
}
