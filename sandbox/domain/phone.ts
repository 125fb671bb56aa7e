// Phone numbers as the service checks them: E.164 for single calls; CSV cells parsed with the
// campaign's country_code (dialing prefix `+91` or ISO-2 `IN`) and validated (full metadata).
import parsePhoneNumberFromString, { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import { e164Pattern } from '../../shared/service/common.ts';

// The main country of each calling code (the first listed by the metadata, e.g. 1 → US, 7 → RU).
const countryByCallingCode = new Map<string, CountryCode>();
const mainCountry: Record<string, CountryCode> = { '1': 'US', '7': 'RU', '44': 'GB', '61': 'AU', '39': 'IT' };
for (const c of getCountries()) {
  const code = getCountryCallingCode(c);
  if (!countryByCallingCode.has(code)) countryByCallingCode.set(code, mainCountry[code] ?? c);
}

/** The default country for a `country_code` field, or null when it names none. */
export function countryFor(countryCode: string): CountryCode | null {
  const t = countryCode.trim();
  if (/^[A-Za-z]{2}$/.test(t)) {
    const upper = t.toUpperCase();
    return (getCountries() as string[]).includes(upper) ? (upper as CountryCode) : null;
  }
  const m = /^\+?(\d{1,4})$/.exec(t);
  return m?.[1] ? (countryByCallingCode.get(m[1]) ?? null) : null;
}

export type PhoneCheck = { ok: true; e164: string } | { ok: false; reason: string };

/** A CSV cell → E.164, judged with full metadata. */
export function normalizeCampaignPhone(raw: string, country: CountryCode): PhoneCheck {
  const text = raw.trim();
  if (text === '') return { ok: false, reason: 'Mobile Number is empty' };
  const parsed = parsePhoneNumberFromString(text, country);
  if (!parsed) return { ok: false, reason: `Mobile Number "${text}" is not a phone number` };
  if (!parsed.isValid())
    return {
      ok: false,
      reason: `Mobile Number "${text}" is not a valid number for ${parsed.country ?? country}`,
    };
  return { ok: true, e164: parsed.number };
}

/** The single-call rule: E.164 text, and a number the metadata finds possible. */
export function checkE164(value: string): string | null {
  if (!e164Pattern.test(value)) return 'must be in E.164 format with country code, such as +919876543210';
  const parsed = parsePhoneNumberFromString(value);
  if (!parsed || !parsed.isPossible()) return 'is not a possible phone number';
  return null;
}
