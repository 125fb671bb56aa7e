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

/**
 * Finds a column the operator named: exact (trimmed) header first, then the normalised name when
 * that is unambiguous. Throws unknown_column naming the option and listing the headers.
 */
export function resolveColumn(header: readonly string[], wanted: string, option: string): number {
  const exact = header.indexOf(wanted.trim());
  if (exact >= 0) return exact;
  const target = normaliseName(wanted);
  const matches = header.flatMap((h, i) => (target !== '' && normaliseName(h) === target ? [i] : []));
  if (matches.length === 1) return matches[0] as number;
  const list = header.map((h) => JSON.stringify(h)).join(', ');
  const why = matches.length > 1 ? 'matches several columns' : 'is not a column of the file';
  throw new ContactsError('unknown_column', `${option} "${wanted}" ${why} (columns: ${list})`);
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
    result[variable] = i >= 0 ? (header[i] as string) : null;
  }
  return result;
}
