// Cells a spreadsheet would run as a formula (issue 22): flagged `formula_cell` (a warning) and
// defused in the upload file. The phone column is not checked: "+91…" is a phone, and the upload
// carries its E.164 form anyway.
import { stripBidiControls } from '../visibleText.ts';

/** A plain signed number ("-500", "+12.5", "-1,200.50"): a spreadsheet reads a number, not a formula. */
const NUMBER = /^[+-]?\d+(?:[.,]\d+)*$/;
const LEADING_TRIGGERS = /^[\s=+\-@]+/;
/** Nothing but those characters ("-", "--", "="): nothing to run, and often a placeholder. */
const ONLY_TRIGGERS = /^[\s=+\-@]*$/;

/**
 * True when the cell, as the upload would carry it (bidi controls removed, trimmed: "\t=2+2" is a
 * live "=2+2" there), starts with = + - or @ and is not a plain number nor only such characters.
 */
export function isFormulaCell(value: string): boolean {
  const c = value.charCodeAt(0);
  // Letters and digits first: the common case costs one comparison.
  if ((c >= 65 && c < 128) || (c >= 48 && c <= 57) || value === '') return false;
  const text = stripBidiControls(value).trim();
  const first = text.charCodeAt(0);
  if (first !== 61 && first !== 43 && first !== 45 && first !== 64) return false;
  return !NUMBER.test(text) && !ONLY_TRIGGERS.test(text);
}

/** File-column indexes (0-based) of the row's formula cells, the phone column excepted. */
export function formulaCellIndexes(cells: readonly string[], phoneIndex: number): number[] {
  const found: number[] = [];
  for (let i = 0; i < cells.length; i++)
    if (i !== phoneIndex && isFormulaCell(cells[i] as string)) found.push(i);
  return found;
}

/**
 * The upload's form of a cleaned (trimmed, bidi-free) value: a formula cell loses its leading
 * = + - @ characters (and spaces between them), "=HYPERLINK(…)" → "HYPERLINK(…)".
 * Why strip rather than the rejects file's apostrophe: the upload is read by the service and its
 * values are spoken by the agent. An apostrophe would reach the agent's prompt; a leading space is
 * trimmed by most CSV readers (leaving a live formula again) and an invisible character is what
 * bidi spoofing hides behind. Without its trigger the text is plain text to every spreadsheet
 * (also the service's own exports of the list) and says the same to the agent. Plain numbers are
 * never formula cells, so a sign ("-500") is kept.
 */
export const defuseFormula = (clean: string): string =>
  isFormulaCell(clean) ? clean.replace(LEADING_TRIGGERS, '') : clean;
