// Column roles: which column holds the phone, which holds the person's name, and which columns
// feed the agent's prompt variables. Header names are compared "normalised": lower case, letters
// (with their combining marks: Devanagari vowel signs) and digits only (any script), so "Mobile-No.", "mobile no" and "MOBILE_NO" are the same.
import { ContactsError } from './errors.ts';

export const normaliseName = (text: string): string =>
  text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}]+/gu, '');

/** The service's template header; always preferred. */
export const SERVICE_PHONE_HEADER = 'Mobile Number';

// Exact normalised names, best first.
const PHONE_NAMES = [
  'mobilenumber',
  'mobile',
  'mobileno',
  'mobilenum',
  'mob',
  'mobno',
  'phonenumber',
  'phone',
  'phoneno',
  'phonenum',
  'msisdn',
  'cellnumber',
  'cellphone',
  'cell',
  'contactnumber',
  'contactno',
  'whatsappnumber',
  'whatsapp',
  'telephone',
  'telephonenumber',
  'tel',
  // The calling service's name for the number called: the calls CSV's column, so a follow-up list
  // made from that export imports with no column to pick.
  'tonumber',
  'contact',
  'number',
];
// Substrings that mark a phone column ("Customer Mobile", "Primary Phone") unless the header is
// about something else ("Phone Type", "Mobile Operator").
const PHONE_PARTS = ['mobile', 'phone', 'msisdn', 'whatsapp'];
const NOT_PHONE_PARTS = ['type', 'name', 'email', 'operator', 'carrier', 'verified', 'status', 'country'];

const NAME_NAMES = [
  'name',
  'fullname',
  'customername',
  'calleename',
  'contactname',
  'clientname',
  'borrowername',
];

function findByName(header: readonly string[], names: readonly string[]): number {
  const normalised = header.map(normaliseName);
  for (const name of names) {
    const i = normalised.indexOf(name);
    if (i >= 0) return i;
  }
  return -1;
}

/** Index of the phone column, or -1. See PHONE_NAMES / PHONE_PARTS for the order of preference. */
export function detectPhoneColumn(header: readonly string[]): number {
  const exact = findByName(header, PHONE_NAMES);
  if (exact >= 0) return exact;
  return header.findIndex((h) => {
    const n = normaliseName(h);
    return PHONE_PARTS.some((p) => n.includes(p)) && !NOT_PHONE_PARTS.some((p) => n.includes(p));
  });
}

/** Index of the person's name column, or -1. */
export const detectNameColumn = (header: readonly string[]): number => findByName(header, NAME_NAMES);

/** Header names that occur more than once, each with its 1-based positions, in header order. */
export function duplicateColumns(header: readonly string[]): Array<{ name: string; positions: number[] }> {
  const positions = new Map<string, number[]>();
  header.forEach((h, i) => positions.set(h, [...(positions.get(h) ?? []), i + 1]));
  return [...positions].filter(([, at]) => at.length > 1).map(([name, at]) => ({ name, positions: at }));
}

/** How to name column `index` unambiguously: its header, or "#N" (its position) when that repeats. */
export const columnRef = (header: readonly string[], index: number): string =>
  header.indexOf(header[index] as string) === header.lastIndexOf(header[index] as string)
    ? (header[index] as string)
    : `#${index + 1}`;

const positionList = (at: readonly number[]): string => at.map((p) => `#${p}`).join(', ');

/**
 * Finds a column the operator named: "#N" is the Nth column; else the exact (trimmed) header, then
 * the normalised name. A name several columns share is refused until a position picks one. Throws
 * unknown_column naming the option and listing the headers.
 */
export function resolveColumn(header: readonly string[], wanted: string, option: string): number {
  const list = header.map((h) => JSON.stringify(h)).join(', ');
  const position = /^#(\d+)$/.exec(wanted.trim());
  if (position) {
    const n = Number(position[1]);
    if (n >= 1 && n <= header.length) return n - 1;
    throw new ContactsError(
      'unknown_column',
      `${option} "${wanted}": the file has columns #1 to #${header.length} (columns: ${list})`,
    );
  }
  const exact = header.flatMap((h, i) => (h === wanted.trim() ? [i] : []));
  const target = normaliseName(wanted);
  const matches =
    exact.length > 0
      ? exact
      : header.flatMap((h, i) => (target !== '' && normaliseName(h) === target ? [i] : []));
  if (matches.length === 1) return matches[0] as number;
  if (matches.length > 1) {
    const at = matches.map((i) => i + 1);
    throw new ContactsError(
      'unknown_column',
      `${option} "${wanted}" names ${matches.length} columns (${positionList(at)}); pick one by its position, e.g. "#${at[at.length - 1]}"`,
    );
  }
  throw new ContactsError(
    'unknown_column',
    `${option} "${wanted}" is not a column of the file (columns: ${list})`,
  );
}

/**
 * Suggests a column for each prompt variable by normalised name ("loan_amount" ↔ "Loan Amount"),
 * then by a unique header containing the variable's name. Null when nothing fits.
 */
export function autoMatchVariables(
  variables: readonly string[],
  header: readonly string[],
): Record<string, string | null> {
  const normalised = header.map(normaliseName);
  const result: Record<string, string | null> = {};
  for (const variable of variables) {
    const v = normaliseName(variable);
    let i = v === '' ? -1 : normalised.indexOf(v);
    if (i < 0 && v.length >= 3) {
      const containing = normalised.flatMap((h, j) =>
        h.includes(v) || (h.length >= 3 && v.includes(h)) ? [j] : [],
      );
      if (containing.length === 1) i = containing[0] as number;
    }
    // A name several columns share is left for the operator to pick by position.
    result[variable] = i >= 0 && columnRef(header, i) === header[i] ? (header[i] as string) : null;
  }
  return result;
}
