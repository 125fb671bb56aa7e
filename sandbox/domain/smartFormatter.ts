// smart_formatter (individual call) and transliterate_callee_name (uploads). First-name extraction
// drops titles and keeps the given name; transliteration is a documented simple mapping: Latin →
// Devanagari (target `hi`, `mr`) letter by letter, enough for a sandbox; other targets are left as is.
import { firstNamePreview } from '../../shared/domain/contacts/names.ts';
import type { SmartFormatter } from '../../shared/service/smartFormatter.ts';

/**
 * "Mr. Rajesh Kumar" → "Rajesh"; "Kumar, Rajesh" → "Rajesh"; "Dr Asha" → "Asha". The same rule the
 * contacts screen previews, so what the operator sees before upload is what the sandbox calls people.
 */
export const extractFirstName = (name: string): string => firstNamePreview(name);

// Longest-match Latin → Devanagari table (short vowels stay short: Rajesh → रजेश). Consonants carry the inherent vowel; a following vowel
// replaces it with its sign (matra).
const consonants: Array<[string, string]> = [
  ['ksh', 'क्ष'],
  ['chh', 'छ'],
  ['shr', 'श्र'],
  ['gy', 'ज्ञ'],
  ['kh', 'ख'],
  ['gh', 'घ'],
  ['ch', 'च'],
  ['jh', 'झ'],
  ['th', 'थ'],
  ['dh', 'ध'],
  ['ph', 'फ'],
  ['bh', 'भ'],
  ['sh', 'श'],
  ['k', 'क'],
  ['g', 'ग'],
  ['c', 'क'],
  ['j', 'ज'],
  ['t', 'त'],
  ['d', 'द'],
  ['n', 'न'],
  ['p', 'प'],
  ['f', 'फ'],
  ['b', 'ब'],
  ['m', 'म'],
  ['y', 'य'],
  ['r', 'र'],
  ['l', 'ल'],
  ['v', 'व'],
  ['w', 'व'],
  ['s', 'स'],
  ['h', 'ह'],
  ['z', 'ज़'],
  ['q', 'क'],
  ['x', 'क्स'],
];
const vowels: Array<[string, string, string]> = [
  // latin, independent form, sign after a consonant
  ['aa', 'आ', 'ा'],
  ['ai', 'ऐ', 'ै'],
  ['au', 'औ', 'ौ'],
  ['ee', 'ई', 'ी'],
  ['oo', 'ऊ', 'ू'],
  ['a', 'अ', ''],
  ['i', 'इ', 'ि'],
  ['u', 'उ', 'ु'],
  ['e', 'ए', 'े'],
  ['o', 'ओ', 'ो'],
];
const virama = '्';

function transliterateWord(word: string): string {
  const w = word.toLowerCase();
  let out = '';
  let i = 0;
  let afterConsonant = false;
  while (i < w.length) {
    const v = vowels.find(([l]) => w.startsWith(l, i));
    if (v) {
      out += afterConsonant ? v[2] : v[1];
      i += v[0].length;
      afterConsonant = false;
      continue;
    }
    const c = consonants.find(([l]) => w.startsWith(l, i));
    if (c) {
      if (afterConsonant) out += virama;
      out += c[1];
      i += c[0].length;
      afterConsonant = true;
      continue;
    }
    out += word[i] ?? '';
    i += 1;
    afterConsonant = false;
  }
  // A final "a" after a consonant is long in names (Priya → प्रिया, Sneha → स्नेहा).
  if (/[bcdfghjklmnpqrstvwxyz]a$/.test(w)) out += 'ा';
  return out;
}

export const transliterationTargets = ['hi', 'mr'] as const;

/** Latin → Devanagari when the target is `hi`/`mr` (any `hi-IN` style suffix allowed); else unchanged. */
export function transliterate(name: string, target: string): string {
  const lang = target.toLowerCase().split(/[-_]/)[0] ?? '';
  if (!(transliterationTargets as readonly string[]).includes(lang)) return name;
  if (!/[A-Za-z]/.test(name)) return name;
  return name
    .split(/(\s+)/)
    .map((part) => (/^\s+$/.test(part) ? part : transliterateWord(part)))
    .join('');
}

/** Apply a smart_formatter to a callee name. */
export function formatCalleeName(name: string, f: SmartFormatter | undefined): string {
  if (!f) return name;
  let out = name;
  if (f.extract_first_name) out = extractFirstName(out);
  if (f.transliteration) out = transliterate(out, f.transliteration_language?.target ?? 'hi');
  return out;
}
