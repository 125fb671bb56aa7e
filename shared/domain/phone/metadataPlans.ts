// Typed, precompiled view of libphonenumber-js `max` metadata. The library rebuilds a RegExp from
// pattern text on every check (`matchesEntirely`); compiling each pattern once is what makes the
// fast path cheap. We read the metadata only through the library's own accessors, so the fast path
// follows whatever metadata version is installed.
import { Metadata } from 'libphonenumber-js/max';

/** The subset of the library's runtime metadata API we read (its .d.ts does not declare it). */
interface RuntimeType {
  pattern(): string;
  possibleLengths(): number[] | undefined;
}
interface RuntimePlan {
  callingCode(): string;
  IDDPrefix(): string;
  nationalNumberPattern(): string;
  possibleLengths(): number[] | undefined;
  nationalPrefixForParsing(): string | undefined;
  nationalPrefixTransformRule(): string | 0 | undefined;
  leadingDigits(): string | 0 | undefined;
  hasTypes(): boolean;
  type(name: string): RuntimeType | undefined;
}
interface RuntimeMetadata {
  numberingPlan?: RuntimePlan;
  selectNumberingPlan(countryOrCallingCode: string): RuntimeMetadata;
  hasCountry(country: string): boolean;
  hasCallingCode(callingCode: string): boolean | undefined;
  getCountryCodesForCallingCode(callingCode: string): string[] | undefined;
}

// The order libphonenumber-js's getNumberType() tries them in (validity only needs "any matches").
const TYPE_NAMES = [
  'FIXED_LINE',
  'MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
] as const;

export interface TypeTest {
  name: (typeof TYPE_NAMES)[number];
  re: RegExp;
  lengths: number[] | undefined;
}

/** One numbering plan (a country), compiled. */
export interface CompiledPlan {
  country: string;
  callingCode: string;
  nationalNumber: RegExp;
  lengths: number[] | undefined;
  hasTypes: boolean;
  /** Types with a non-empty pattern, mobile first (the common case), then the library's order. */
  types: TypeTest[];
  /** The two types the landline check needs (compileLandlineCheck). */
  mobile: TypeTest | undefined;
  fixedLine: TypeTest | undefined;
  nationalPrefixForParsing: RegExp | undefined;
  nationalPrefixTransformRule: string | undefined;
  leadingDigits: RegExp | undefined;
  idd: RegExp;
}

/** What a calling code resolves to: its countries (main first) or a non-geographic plan. */
export interface CallingCodeInfo {
  countries: string[] | undefined;
}

const whole = (pattern: string): RegExp => new RegExp(`^(?:${pattern})$`);

export interface PlanRegistry {
  plan(country: string): CompiledPlan;
  /** Plan used when only a calling code is known: the main country of that code. */
  mainPlan(callingCode: string): CompiledPlan;
  callingCode(callingCode: string): CallingCodeInfo | undefined;
  hasCountry(country: string): boolean;
}

export function createPlanRegistry(): PlanRegistry {
  const metadata = new Metadata() as unknown as RuntimeMetadata;
  const plans = new Map<string, CompiledPlan>();
  const codes = new Map<string, CallingCodeInfo | null>();

  const compile = (country: string): CompiledPlan => {
    const selected = metadata.selectNumberingPlan(country).numberingPlan;
    if (!selected) throw new Error(`no numbering plan for ${country}`);
    const types: TypeTest[] = [];
    const ordered = ['MOBILE' as const, ...TYPE_NAMES.filter((t) => t !== 'MOBILE')];
    for (const name of ordered) {
      const type = selected.type(name);
      const pattern = type?.pattern();
      if (!type || !pattern) continue;
      types.push({ name, re: whole(pattern), lengths: type.possibleLengths() });
    }
    const npfp = selected.nationalPrefixForParsing();
    const rule = selected.nationalPrefixTransformRule();
    const leading = selected.leadingDigits();
    return {
      country,
      callingCode: selected.callingCode(),
      nationalNumber: whole(selected.nationalNumberPattern()),
      lengths: selected.possibleLengths(),
      hasTypes: selected.hasTypes(),
      types,
      mobile: types.find((t) => t.name === 'MOBILE'),
      fixedLine: types.find((t) => t.name === 'FIXED_LINE'),
      nationalPrefixForParsing: npfp ? new RegExp(`^(?:${npfp})`) : undefined,
      nationalPrefixTransformRule: rule ? rule : undefined,
      leadingDigits: leading ? new RegExp(leading) : undefined,
      idd: new RegExp(selected.IDDPrefix()),
    };
  };

  const plan = (country: string): CompiledPlan => {
    let compiled = plans.get(country);
    if (!compiled) {
      compiled = compile(country);
      plans.set(country, compiled);
    }
    return compiled;
  };

  const callingCode = (code: string): CallingCodeInfo | undefined => {
    let info = codes.get(code);
    if (info === undefined) {
      info = metadata.hasCallingCode(code)
        ? { countries: metadata.getCountryCodesForCallingCode(code) }
        : null;
      codes.set(code, info);
    }
    return info ?? undefined;
  };

  return {
    plan,
    mainPlan(code) {
      const main = callingCode(code)?.countries?.[0];
      if (!main) throw new Error(`no geographic plan for calling code ${code}`);
      return plan(main);
    },
    callingCode,
    hasCountry: (country) => metadata.hasCountry(country),
  };
}
