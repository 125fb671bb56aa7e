export { createPhoneNormalizer } from './normalizePhone.ts';
export type { PhoneNormalizer } from './normalizePhone.ts';
export { resolveDefaultCountry } from './country.ts';
export type { DefaultCountry } from './country.ts';
export { libraryE164 } from './libraryPhone.ts';
export { compileFastPath, FALLBACK } from './fastPath.ts';
export { createPlanRegistry } from './metadataPlans.ts';
export { isScientificNotation, hasFloatSuffix, phoneText } from './excelDamage.ts';
