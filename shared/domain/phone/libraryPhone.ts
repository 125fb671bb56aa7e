// The reference: libphonenumber-js with `max` metadata, through its default export
// (parsePhoneNumberFromString; the named `parsePhoneNumber` export is deprecated and throws).
import parsePhoneNumberFromString from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';

/** E.164 when libphonenumber-js `max` says the number is valid, else null. */
export function libraryE164(text: string, defaultCountry: CountryCode): string | null {
  const parsed = parsePhoneNumberFromString(text, defaultCountry);
  return parsed !== undefined && parsed.isValid() ? parsed.number : null;
}
