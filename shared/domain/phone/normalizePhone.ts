// Phone → E.164 for a default country: the compiled fast path first, libphonenumber-js `max`
// for anything the fast path is not sure of. Same answers as the library (see fastPath.ts).
import type { CountryCode } from 'libphonenumber-js/max';
import { compileFastPath, compileLandlineCheck, FALLBACK } from './fastPath.ts';
import { libraryE164 } from './libraryPhone.ts';
import { createPlanRegistry } from './metadataPlans.ts';

export interface PhoneNormalizer {
  /** E.164 ("+919876543210") when valid, else null. */
  toE164(text: string): string | null;
  /** True for a valid E.164 number that is valid only as a fixed line (a warning, not an error). */
  isLandline(e164: string): boolean;
  /** How many answers came from each path (for reports and the bench). */
  readonly stats: { fast: number; library: number };
}

export function createPhoneNormalizer(defaultCountry: CountryCode): PhoneNormalizer {
  const registry = createPlanRegistry();
  const fast = compileFastPath(registry, defaultCountry);
  const isLandline = compileLandlineCheck(registry, defaultCountry);
  const stats = { fast: 0, library: 0 };
  return {
    stats,
    isLandline,
    toE164(text) {
      const answer = fast(text);
      if (answer !== FALLBACK) {
        stats.fast++;
        return answer;
      }
      stats.library++;
      return libraryE164(text, defaultCountry);
    },
  };
}
