// The generated file's bytes: text in UTF-8, UTF-16LE, Windows-1252 or a legacy encoding (Big5,
// GBK, Shift_JIS, …), written through tables built by decoding every one- and two-byte sequence.

/** Legacy encodings of files from other tools (names are then written in the encoding's script). */
export const LEGACY_ENCODINGS = [
  'big5',
  'gb18030',
  'shift_jis',
  'euc-kr',
  'windows-1251',
  'iso-8859-2',
] as const;
export type LegacyEncoding = (typeof LEGACY_ENCODINGS)[number];
export type GeneratedEncoding = 'utf-8' | 'utf-16le' | 'windows-1252' | LegacyEncoding;
export const isLegacy = (encoding: GeneratedEncoding | undefined): encoding is LegacyEncoding =>
  (LEGACY_ENCODINGS as readonly string[]).includes(encoding ?? '');

/** Character → bytes of a legacy encoding, built by decoding every one- and two-byte sequence. */
const legacyTables = new Map<LegacyEncoding, Map<number, number[]>>();
function legacyTable(encoding: LegacyEncoding): Map<number, number[]> {
  let table = legacyTables.get(encoding);
  if (table) return table;
  table = new Map();
  const decoder = new TextDecoder(encoding);
  const add = (text: string, bytes: number[]): boolean => {
    const c = text.codePointAt(0) as number;
    if (text.length !== 1 || c === 0xfffd) return false;
    if (!table?.has(c)) table?.set(c, bytes);
    return true;
  };
  for (let lead = 0x80; lead <= 0xff; lead++) {
    if (add(decoder.decode(Uint8Array.of(lead)), [lead])) continue;
    for (let trail = 0x40; trail <= 0xfe; trail++)
      add(decoder.decode(Uint8Array.of(lead, trail)), [lead, trail]);
  }
  legacyTables.set(encoding, table);
  return table;
}

/** Text → bytes in the file's encoding (Windows-1252 and legacy encodings write "?" for what they cannot hold). */
export function encodeText(text: string, encoding: GeneratedEncoding): Uint8Array {
  if (encoding === 'utf-8') return new TextEncoder().encode(text);
  if (isLegacy(encoding)) {
    const table = legacyTable(encoding);
    const out: number[] = [];
    for (const ch of text) {
      const c = ch.codePointAt(0) as number;
      if (c < 0x80) out.push(c);
      else out.push(...(table.get(c) ?? [0x3f]));
    }
    return Uint8Array.from(out);
  }
  if (encoding === 'utf-16le') {
    const out = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      out[i * 2] = c & 0xff;
      out[i * 2 + 1] = c >>> 8;
    }
    return out;
  }
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = c < 0x80 || (c >= 0xa0 && c <= 0xff) ? c : (CP1252[c] ?? 0x3f);
  }
  return out;
}

/** Windows-1252's 0x80-0x9F characters. */
const CP1252: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x2c6: 0x88,
  0x2030: 0x89,
  0x160: 0x8a,
  0x2039: 0x8b,
  0x152: 0x8c,
  0x17d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x2dc: 0x98,
  0x2122: 0x99,
  0x161: 0x9a,
  0x203a: 0x9b,
  0x153: 0x9c,
  0x17e: 0x9e,
  0x178: 0x9f,
};
