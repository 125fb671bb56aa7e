// Fast path for phone validation: the same decisions libphonenumber-js `max` makes for
// parsePhoneNumberFromString(text, defaultCountry) → isValid() → .number, replayed step by step
// (parse.js, extractCountryCallingCode, stripIddPrefix, extractNationalNumber,
// getCountryByCallingCode, getNumberType) with regular expressions compiled once from the same
// metadata. It only answers for inputs made of ASCII digits, an optional leading "+", and the
// separators space - ( ) . — for those the library's extraction steps (RFC 3966, extensions,
// non-ASCII digits, letters) cannot apply. Anything else, or a rule it does not replay (national
// prefix transform rules, non-geographic calling codes), returns FALLBACK so the caller asks the
// library. Agreement is proven on every number of the 1M-row file by bench/lib/verifyPhones.ts.
import type { CompiledPlan, PlanRegistry } from './metadataPlans.ts';

/** "Not sure: ask the library." */
export const FALLBACK = undefined;
/** E.164 when valid, null when invalid, FALLBACK (undefined) when the fast path does not know. */
export type FastResult = string | null | undefined;

const MAX_INPUT_LENGTH = 250; // the library's MAX_INPUT_STRING_LENGTH
const MIN_NSN = 2; // MIN_LENGTH_FOR_NSN
const MAX_NSN = 17; // MAX_LENGTH_FOR_NSN
const MAX_CALLING_CODE = 3;

type LengthCheck = 'IS_POSSIBLE' | 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_LENGTH';

function checkLength(length: number, lengths: number[] | undefined): LengthCheck {
  if (!lengths || lengths.length === 0) return 'IS_POSSIBLE';
  const min = lengths[0] as number;
  if (min === length) return 'IS_POSSIBLE';
  if (min > length) return 'TOO_SHORT';
  if ((lengths[lengths.length - 1] as number) < length) return 'TOO_LONG';
  return lengths.indexOf(length, 1) >= 0 ? 'IS_POSSIBLE' : 'INVALID_LENGTH';
}

/** getNumberType(...) !== undefined */
function hasNumberType(plan: CompiledPlan, nsn: string): boolean {
  if (!plan.nationalNumber.test(nsn)) return false;
  for (const type of plan.types) {
    if (type.lengths && type.lengths.indexOf(nsn.length) < 0) continue;
    if (type.re.test(nsn)) return true;
  }
  return false;
}

/** PhoneNumber.isValid() for a national significant number in a plan. */
function isValidIn(plan: CompiledPlan, nsn: string): boolean {
  return plan.hasTypes ? hasNumberType(plan, nsn) : plan.nationalNumber.test(nsn);
}

export function compileFastPath(registry: PlanRegistry, defaultCountry: string): (text: string) => FastResult {
  const home = registry.plan(defaultCountry);
  const homeCode = home.callingCode;

  /** getCountryByCallingCode(): the exact country for a calling code and national number. */
  const countryFor = (callingCode: string, nsn: string): string | undefined => {
    const countries = registry.callingCode(callingCode)?.countries;
    if (!countries) return undefined;
    if (countries.length === 1) return countries[0];
    for (const country of countries) {
      const plan = registry.plan(country);
      if (plan.leadingDigits) {
        if (nsn && nsn.search(plan.leadingDigits) === 0) return country;
      } else if (hasNumberType(plan, nsn)) {
        return country;
      }
    }
    return undefined;
  };

  /** extractNationalNumber(): strip a national prefix when the result still makes sense. */
  const extractNational = (number: string, plan: CompiledPlan): string | undefined => {
    if (!number || !plan.nationalPrefixForParsing) return number;
    const match = plan.nationalPrefixForParsing.exec(number);
    if (!match) return number;
    const groups = match.length - 1;
    const captured = groups > 0 && match[groups];
    if (captured && plan.nationalPrefixTransformRule) return FALLBACK;
    const national = number.slice(match[0].length);
    if (national === number) return number;
    // shouldHaveExtractedNationalPrefix()
    if (plan.nationalNumber.test(number) && !plan.nationalNumber.test(national)) return number;
    if (plan.lengths) {
      const country = countryFor(plan.callingCode, national);
      const lengths = country ? registry.plan(country).lengths : plan.lengths;
      const check = checkLength(national.length, lengths);
      if (check === 'TOO_SHORT' || check === 'INVALID_LENGTH') return number;
    }
    return national;
  };

  /** The tail of parse(): national number, exact country, length limits, isValid(). */
  const finish = (callingCode: string, number: string, selected: CompiledPlan, country?: string): FastResult => {
    if (!number) return null; // TOO_SHORT
    const nsn = extractNational(number, selected);
    if (nsn === FALLBACK) return FALLBACK;
    const exact = countryFor(callingCode, nsn) ?? country;
    if (nsn.length < MIN_NSN || nsn.length > MAX_NSN) return null;
    const plan = exact ? registry.plan(exact) : registry.mainPlan(callingCode);
    return isValidIn(plan, nsn) ? `+${callingCode}${nsn}` : null;
  };

  /** Digits that followed a "+" (or an IDD prefix). */
  const international = (digits: string): FastResult => {
    if (digits[0] === '0') return null; // INVALID_COUNTRY
    for (let i = 1; i <= MAX_CALLING_CODE && i <= digits.length; i++) {
      const code = digits.slice(0, i);
      const info = registry.callingCode(code);
      if (!info) continue;
      if (!info.countries) return FALLBACK; // non-geographic (+800, +882, ...)
      return finish(code, digits.slice(i), registry.mainPlan(code));
    }
    return null; // no calling code → INVALID_COUNTRY
  };

  return (text: string): FastResult => {
    if (text.length > MAX_INPUT_LENGTH) return FALLBACK;
    let plus = false;
    let digits = '';
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) digits += text[i];
      else if (c === 32 || c === 45 || c === 40 || c === 41 || c === 46) continue; // space - ( ) .
      else if (c === 43 && i === 0) plus = true;
      else return FALLBACK;
    }
    if (digits.length < 3) return FALLBACK; // the library's "viable number" rules decide these
    if (plus) return international(digits);

    // stripIddPrefix(): "00 91 ..." dialled from the default country.
    const idd = digits.match(home.idd);
    if (idd && idd.index === 0) {
      const rest = digits.slice(idd[0].length);
      if (rest !== '' && rest !== digits && rest[0] !== '0') return international(rest);
    }

    // extractCountryCallingCodeFromInternationalNumberWithoutPlusSign(): "91 98765 43210".
    if (digits.startsWith(homeCode)) {
      const shorter = digits.slice(homeCode.length);
      const shorterNational = extractNational(shorter, home);
      const fullNational = extractNational(digits, home);
      if (shorterNational === FALLBACK || fullNational === FALLBACK) return FALLBACK;
      if (
        (!home.nationalNumber.test(fullNational) && home.nationalNumber.test(shorterNational)) ||
        checkLength(fullNational.length, home.lengths) === 'TOO_LONG'
      ) {
        return finish(homeCode, shorter, registry.mainPlan(homeCode));
      }
    }
    return finish(homeCode, digits, home, defaultCountry);
  };
}
