// The default country for national numbers: an ISO code ("IN") or a dialling prefix ("+91").
import { getCountryCallingCode, isSupportedCountry } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import { createPlanRegistry } from './metadataPlans.ts';

export interface DefaultCountry {
  country: CountryCode;
  callingCode: string;
}

/**
 * Resolves `IN`, `in` or `+91` (also `91`, `0091`-free digits). A dialling prefix means the main
 * country of that calling code (+1 → US, +44 → GB, +7 → RU). Returns null when unknown.
 */
export function resolveDefaultCountry(input: string): DefaultCountry | null {
  const text = input.trim();
  if (/^[A-Za-z]{2}$/.test(text)) {
    const code = text.toUpperCase();
    if (!isSupportedCountry(code)) return null;
    return { country: code, callingCode: getCountryCallingCode(code) };
  }
  const digits = /^\+?(\d{1,3})$/.exec(text)?.[1];
  if (!digits) return null;
  const main = createPlanRegistry().callingCode(digits)?.countries?.[0];
  if (!main || !isSupportedCountry(main)) return null;
  return { country: main, callingCode: digits };
}
