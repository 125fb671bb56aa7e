// Fast path for phone validation: the same decisions libphonenumber-js `max` makes for
// parsePhoneNumberFromString(text, defaultCountry) → isValid() → .number, replayed step by step
// (parse.js, extractCountryCallingCode, stripIddPrefix, extractNationalNumber,
// getCountryByCallingCode, getNumberType) with regular expressions compiled once from the same
// metadata. It only answers for inputs made of ASCII digits, an optional leading "+", and the
// separators space - ( ) . — for those the library's extraction steps (RFC 3966, extensions,
// non-ASCII digits, letters) cannot apply. Anything else, or a rule it does not replay (national
// prefix transform rules, non-geographic calling codes), returns FALLBACK so the caller asks the
// library. Agreement is proven on every number of the 1M-row file by bench/lib/verifyPhones.ts.
import type { CallingCodeInfo, CompiledPlan, PlanRegistry } from './metadataPlans.ts';

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

export function compileFastPath(
  registry: PlanRegistry,
  defaultCountry: string,
): (text: string) => FastResult {
  const home = registry.plan(defaultCountry);
  const homeCode = home.callingCode;
  // Calling codes are 1-3 digits without a leading zero: an array is the fastest lookup.
  const codes: Array<CallingCodeInfo | null | undefined> = [];
  const codeInfo = (code: string): CallingCodeInfo | null => {
    const n = Number(code);
    let info = codes[n];
    if (info === undefined) {
      info = registry.callingCode(code) ?? null;
      codes[n] = info;
    }
    return info;
  };

  /** getCountryByCallingCode(): the exact country for a calling code and national number. */
  const countryFor = (callingCode: string, nsn: string): string | undefined => {
    const countries = codeInfo(callingCode)?.countries;
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
  const finish = (
    callingCode: string,
    number: string,
    selected: CompiledPlan,
    country?: string,
  ): FastResult => {
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
      const info = codeInfo(code);
      if (!info) continue;
      if (!info.countries) return FALLBACK; // non-geographic (+800, +882, ...)
      return finish(code, digits.slice(i), registry.mainPlan(code));
    }
    return null; // no calling code → INVALID_COUNTRY
  };

  // Inputs made only of these are parsed here: ASCII digits, separators, a leading "+".
  const GRAMMAR = /^\+?[0-9 ().-]*$/;
  const NOT_DIGIT = /[^0-9]/g;
  const NO_NUMBER_START = /^[^+0-9]*$/;
  const OUTSIDE_ASCII_OR_SPECIAL = /[^\x20-\x7e]|[#;]/;
  const TRAILING_NON_DIGITS = /[^0-9#]+$/;
  const LETTER = /[A-Za-z]/;

  const parseGrammar = (text: string): FastResult => {
    const plus = text.charCodeAt(0) === 43;
    const digits = text.replace(NOT_DIGIT, '');
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

  return (text: string): FastResult => {
    if (text.length > MAX_INPUT_LENGTH) return FALLBACK;
    if (GRAMMAR.test(text)) return parseGrammar(text);
    // Other printable ASCII: the library first cuts the text from its first "+" or digit up to its
    // last digit (extractFormattedPhoneNumber). No such character: not a number at all.
    if (OUTSIDE_ASCII_OR_SPECIAL.test(text)) return FALLBACK; // other digits, RFC 3966, extensions
    if (NO_NUMBER_START.test(text)) return null;
    const start = text.search(/[+0-9]/);
    const formatted = text.slice(start).replace(TRAILING_NON_DIGITS, '');
    // Letters left inside may be an extension ("x 12", "ext 5"): the library decides those.
    if (LETTER.test(formatted) || !GRAMMAR.test(formatted)) return FALLBACK;
    return parseGrammar(formatted);
  };
}

/** Does a type's pattern (and its lengths) take this national number? */
const takes = (type: CompiledPlan['types'][number] | undefined, nsn: string): boolean =>
  type !== undefined && (!type.lengths || type.lengths.indexOf(nsn.length) >= 0) && type.re.test(nsn);

/**
 * For a valid E.164 number: is it valid only as a fixed line (libphonenumber-js getNumberType()
 * === 'FIXED_LINE': the fixed-line pattern takes it, the mobile one does not)? E.g. "+912065550123"
 * (a US number typed without +1 and read under IN).
 */
export function compileLandlineCheck(
  registry: PlanRegistry,
  /** The default country: its numbers (most of a file) skip the calling-code lookups. */
  home?: string,
): (e164: string) => boolean {
  const countryOf = (code: string, nsn: string): CompiledPlan | undefined => {
    const countries = registry.callingCode(code)?.countries;
    if (!countries) return undefined;
    if (countries.length === 1) return registry.plan(countries[0] as string);
    for (const country of countries) {
      const plan = registry.plan(country);
      if (plan.leadingDigits ? nsn.search(plan.leadingDigits) === 0 : hasNumberType(plan, nsn)) return plan;
    }
    return undefined;
  };
  const fixedOnly = (plan: CompiledPlan, nsn: string): boolean =>
    // The fixed-line test first: it rejects most mobile numbers at their first digits, cheaply.
    // No mobile pattern at all means "fixed line or mobile" to the library (e.g. +1).
    takes(plan.fixedLine, nsn) && plan.mobile !== undefined && !takes(plan.mobile, nsn);
  const homePlan = home ? registry.plan(home) : undefined;
  const homeOnly = homePlan && registry.callingCode(homePlan.callingCode)?.countries?.length === 1;
  const homePrefix = homePlan ? `+${homePlan.callingCode}` : '';
  return (e164) => {
    if (homeOnly && e164.startsWith(homePrefix)) return fixedOnly(homePlan, e164.slice(homePrefix.length));
    for (let i = 1; i <= MAX_CALLING_CODE && i < e164.length - 1; i++) {
      const code = e164.slice(1, 1 + i);
      if (!registry.callingCode(code)) continue;
      const nsn = e164.slice(1 + i);
      const plan = countryOf(code, nsn);
      if (!plan) return false;
      return fixedOnly(plan, nsn);
    }
    return false;
  };
}
