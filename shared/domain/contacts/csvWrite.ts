// Writing CSV: RFC 4180 quoting (comma delimiter, CRLF-free "\n" record ends, fields with a quote,
// comma, CR or LF quoted and their quotes doubled), and formula neutralisation for files people
// open in a spreadsheet.
import { showBidiControls } from '../visibleText.ts';

const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE = /"/g;

/** One RFC 4180 field. */
export const csvCell = (value: string): string =>
  NEEDS_QUOTES.test(value) ? `"${value.replace(QUOTE, '""')}"` : value;

/** A record: fields joined by commas, ended by "\n". */
export const csvLine = (values: readonly string[]): string => values.map(csvCell).join(',') + '\n';

/** True when neutralise() would change the value (cheap first-characters check). */
export function needsNeutralising(value: string): boolean {
  const first = value.charCodeAt(0);
  if (first === 9 || first === 13) return true;
  if (first > 64 && first < 128) return false;
  // Any leading whitespace (spaces, NBSP, line breaks): a reader that trims would see the formula.
  const c = value.trimStart().charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64;
}

/**
 * Spreadsheet formula injection guard for files meant for people: a cell starting with = + - @,
 * a tab or a carriage return gets a leading apostrophe, so the spreadsheet shows text instead of
 * running a formula. Leading spaces do not hide a formula character (" =1+1" is guarded too).
 * Not applied to the upload file: the service needs "+91…" as is.
 */
export const neutralise = (value: string): string => (needsNeutralising(value) ? `'${value}` : value);

/**
 * A cell for a file meant for people (rejects, calls export): bidi controls shown by name
 * ("+91⟨RLO⟩0123…", visibleText.ts), so a value reads as what it holds, then neutralised.
 */
export const safeCell = (value: string): string => csvCell(neutralise(showBidiControls(value)));

/** A number as the calling service writes it: "+" and 2 to 15 digits. */
const E164 = /^\+\d{2,15}$/;

/**
 * A phone number for a file meant for people (the calls export): an E.164 number as an RFC 3966
 * URI, `tel:+919002855525`. A bare "+91…" is the formula risk (a spreadsheet reads a leading "+" as
 * a formula or turns the number into 9.19E+11) and "'+91…" shows its apostrophe; "tel:" makes a
 * spreadsheet keep the cell as text with every digit, is still a number phones and browsers dial,
 * and the contacts importer reads it back as the number (`phoneText`). Anything else is a safeCell.
 */
export const safePhoneCell = (value: string): string => (E164.test(value) ? `tel:${value}` : safeCell(value));
