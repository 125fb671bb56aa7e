// Person names: the cleaned value we upload, and a preview of what the calling service's
// `extract_first_name` smart formatter will say ("Mr Rajesh Kumar" → "Rajesh").

const SPACES = /\s+/g;

/** Trimmed, inner runs of whitespace collapsed to one space. */
export function cleanName(raw: string): string {
  const trimmed = raw.trim();
  // Most names need nothing more; skip the regex when there is no double or odd whitespace.
  for (let i = 0; i < trimmed.length; i++) {
    const c = trimmed.charCodeAt(i);
    if (c === 32 ? trimmed.charCodeAt(i + 1) === 32 : c < 32 || c === 160 || c === 0x1680 || c > 0x1fff) {
      return trimmed.replace(SPACES, ' ');
    }
  }
  return trimmed;
}

// Honorifics seen in Indian and international contact lists, compared without dots, any case.
const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'sir',
  'madam',
  'shri',
  'shree',
  'sri',
  'shrimati',
  'smt',
  'kumari',
  'km',
  'sushri',
  'master',
  'adv',
  'er',
  'ca',
  'col',
  'capt',
]);

const isTitle = (word: string): boolean => TITLES.has(word.replace(/\.+$/, '').toLowerCase());

function capitalise(word: string): string {
  // Only words written all in upper or all in lower case are re-cased ("RAHUL", "rahul").
  const lower = word.toLowerCase();
  const upper = word.toUpperCase();
  if (lower === upper || (word !== lower && word !== upper)) return word;
  return upper.charAt(0) + lower.slice(1);
}

/**
 * First-name preview: titles stripped (Mr, Mrs, Dr, Shri, Smt, ... with or without a dot, also
 * several in a row, but never the last word: "Kumari" alone is a name), "Last, First" swapped,
 * first remaining word, re-cased when the whole word was upper or lower case.
 */
export function firstNamePreview(raw: string): string {
  let name = cleanName(raw);
  const comma = name.indexOf(',');
  if (comma >= 0) {
    const last = name.slice(0, comma).trim();
    const first = name.slice(comma + 1).trim();
    name = first === '' ? last : `${first} ${last}`;
  }
  const words = name.split(' ').filter((w) => w !== '' && w !== '.');
  while (words.length > 1 && isTitle(words[0] as string)) words.shift();
  const first = words[0];
  return first === undefined ? '' : capitalise(first);
}
