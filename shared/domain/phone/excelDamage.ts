// Spreadsheet damage to phone cells that must be reported, never "repaired": Excel shows long
// digit strings as 9.19877E+11 (digits are lost for good) and numeric cells sometimes come back
// with a float suffix ("919876543210.0").

const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?[eE][+-]?\d+$/;
const FLOAT_SUFFIX = /^\+?\d{6,}\.0+$/;

export const isScientificNotation = (text: string): boolean => SCIENTIFIC.test(text);
export const hasFloatSuffix = (text: string): boolean => FLOAT_SUFFIX.test(text);

/** An RFC 3966 `tel:` URI's scheme ("tel:+919002855525", how the calls CSV writes a number). */
const TEL_SCHEME = /^tel:/i;

/**
 * The text handed to the validator: trimmed, without the apostrophe Excel users type to force
 * text ('+91…), and without a `tel:` scheme (the calls CSV writes numbers as `tel:+91…` so a
 * spreadsheet shows them as text and never runs them: a follow-up list made from it imports as it
 * is). None of these changes what libphonenumber-js decides; all keep the fast path usable.
 */
export function phoneText(raw: string): string {
  let text = raw.trim();
  if (text.charCodeAt(0) === 39 /* ' */) text = text.slice(1).trim();
  if (TEL_SCHEME.test(text)) text = text.slice(4).trim();
  return text;
}
