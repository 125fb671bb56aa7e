// Does the phone normaliser the engine uses (compiled fast path + library fallback) give exactly
// the answers of libphonenumber-js `max` (parsePhoneNumberFromString → isValid() → .number)?
import type { CountryCode } from 'libphonenumber-js/max';
import { createPhoneNormalizer, libraryE164, phoneText } from '../../shared/domain/phone/index.ts';

export interface Disagreement {
  raw: string;
  engine: string | null;
  library: string | null;
}

export interface AgreementResult {
  checked: number;
  /** Answers given by the compiled fast path / by the library fallback. */
  fastPath: number;
  library: number;
  /** Numbers libphonenumber-js judged valid. */
  valid: number;
  disagreementCount: number;
  /** The first few disagreements, for the report. */
  disagreements: Disagreement[];
}

/** Checks every raw cell the way the engine sees it (phoneText: trimmed, Excel apostrophe off). */
export function checkPhoneAgreement(
  raws: readonly string[],
  country: CountryCode,
  keep = 20,
): AgreementResult {
  const engine = createPhoneNormalizer(country);
  const disagreements: Disagreement[] = [];
  let valid = 0;
  let disagreementCount = 0;
  for (const raw of raws) {
    const text = phoneText(raw);
    const mine = engine.toE164(text);
    const reference = libraryE164(text, country);
    if (reference !== null) valid++;
    if (mine !== reference) {
      disagreementCount++;
      if (disagreements.length < keep) disagreements.push({ raw, engine: mine, library: reference });
    }
  }
  return {
    checked: raws.length,
    fastPath: engine.stats.fast,
    library: engine.stats.library,
    valid,
    disagreementCount,
    disagreements,
  };
}

/** Adds up results checked in parts (e.g. by several threads). */
export function combineAgreement(parts: readonly AgreementResult[], keep = 20): AgreementResult {
  return {
    checked: parts.reduce((s, p) => s + p.checked, 0),
    fastPath: parts.reduce((s, p) => s + p.fastPath, 0),
    library: parts.reduce((s, p) => s + p.library, 0),
    valid: parts.reduce((s, p) => s + p.valid, 0),
    disagreementCount: parts.reduce((s, p) => s + p.disagreementCount, 0),
    disagreements: parts.flatMap((p) => p.disagreements).slice(0, keep),
  };
}
