// Bytes → text. BOMs are recognised (and never reach a header), UTF-16 without a BOM is spotted
// by its zero bytes, UTF-8 is validated (fatal decoding, streamed so a character split across
// chunks is reassembled). Bytes that are not UTF-8 go to a detector (chardet, ICU's statistical
// recognisers: Big5, GB18030/GBK, Shift_JIS, EUC-JP/KR, ISO-8859-x, Windows-125x, KOI8-R) run on
// the head of the file only, so a big file costs nothing more; its answer is decoded by
// TextDecoder. A guess the detector is not sure of is marked `uncertain`, and the hosts say so
// before anything is uploaded. Indian legacy encodings (ISCII, font-encoded Hindi such as Kruti
// Dev) cannot be told from other bytes nor decoded by TextDecoder: such files need re-saving as UTF-8.
import { analyse } from 'chardet';
import { ENCODING_NAMES } from './encodingNames.ts';
import { ContactsError } from './errors.ts';
import { ENCODINGS } from './types.ts';
import type { Encoding, Source } from './types.ts';

export { ENCODING_NAMES };

export interface EncodingGuess {
  encoding: Encoding;
  source: Source;
  /** Bytes of byte-order mark to skip (0 when none). */
  bomLength: number;
  /** The detector's confidence (0-100) for files that are not UTF-8/16; null otherwise. */
  confidence: number | null;
  /** A guess from little evidence, or a close second: the operator should check the text. */
  uncertain: boolean;
  /** What was detected and how sure the detector is (for people), or null for UTF-8/16. */
  note: string | null;
}

/** chardet's names → ours (ISO-8859-1 is read as its superset Windows-1252, ISO-8859-9 as Windows-1254, as browsers do). */
const DETECTED: Record<string, Encoding> = {
  'ISO-8859-1': 'windows-1252',
  'ISO-8859-9': 'windows-1254',
  GB18030: 'gb18030',
  Shift_JIS: 'shift_jis',
  Big5: 'big5',
  'EUC-JP': 'euc-jp',
  'EUC-KR': 'euc-kr',
  'ISO-2022-JP': 'iso-2022-jp',
  'KOI8-R': 'koi8-r',
};
const known = new Set<string>(ENCODINGS);
const ourName = (name: string): Encoding | null =>
  DETECTED[name] ?? (known.has(name.toLowerCase()) ? (name.toLowerCase() as Encoding) : null);

/** Bytes of the head the detector reads: enough for its statistics, cheap whatever the file's size. */
export const DETECT_SAMPLE_BYTES = 64 * 1024;
/** Below this confidence (0-100), or with a different encoding within MARGIN of it, a guess is uncertain. */
export const CONFIDENT = 50;
const MARGIN = 10;

/** The encoding of bytes that are not UTF-8 or UTF-16 (chardet on the head). */
export function detectLegacy(
  sample: Uint8Array,
): Pick<EncodingGuess, 'encoding' | 'confidence' | 'uncertain' | 'note'> {
  const ranked: Array<{ encoding: Encoding; confidence: number }> = [];
  for (const m of analyse(sample.subarray(0, DETECT_SAMPLE_BYTES))) {
    const encoding = ourName(m.name);
    if (encoding && encoding !== 'utf-8' && !ranked.some((r) => r.encoding === encoding))
      ranked.push({ encoding, confidence: m.confidence });
  }
  const best = ranked[0];
  if (!best) {
    return {
      encoding: 'windows-1252',
      confidence: 0,
      uncertain: true,
      note: 'not UTF-8, and no other encoding could be recognised: read as Windows-1252 (Western); check the names, or save the file as CSV UTF-8 and import it again',
    };
  }
  const second = ranked[1];
  const uncertain =
    best.confidence < CONFIDENT || (second !== undefined && second.confidence >= best.confidence - MARGIN);
  const name = ENCODING_NAMES[best.encoding];
  const note = uncertain
    ? `not UTF-8: detected as ${name} with low confidence (${best.confidence}%${second ? `; next ${ENCODING_NAMES[second.encoding]}, ${second.confidence}%` : ''}): check the names before uploading, choose the encoding, or save the file as CSV UTF-8`
    : `not UTF-8: detected as ${name} (confidence ${best.confidence}%)`;
  return { encoding: best.encoding, confidence: best.confidence, uncertain, note };
}

function bomOf(bytes: Uint8Array): { encoding: Encoding; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/** UTF-16 text of mostly Latin characters has a zero in every other byte. */
function utf16WithoutBom(bytes: Uint8Array): Encoding | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return null;
}

function isUtf8(bytes: Uint8Array, complete: boolean): boolean {
  try {
    // stream: true lets a sample end in the middle of a multi-byte character.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}

/**
 * Guesses the encoding from the first bytes of a file. `complete` says the sample is the whole
 * file. An invalid UTF-8 sequence later in the file is caught while decoding (see createDecoder).
 */
export function detectEncoding(sample: Uint8Array, complete: boolean, override?: Encoding): EncodingGuess {
  const bom = bomOf(sample);
  const bomLength = bom ? bom.length : 0;
  const plain = { confidence: null, uncertain: false, note: null };
  if (override) return { encoding: override, source: 'override', bomLength, ...plain };
  if (bom) return { encoding: bom.encoding, source: 'bom', bomLength, ...plain };
  const utf16 = utf16WithoutBom(sample);
  if (utf16) return { encoding: utf16, source: 'detected', bomLength: 0, ...plain };
  if (isUtf8(sample, complete)) return { encoding: 'utf-8', source: 'detected', bomLength: 0, ...plain };
  return { ...detectLegacy(sample), source: 'detected', bomLength: 0 };
}

export interface StreamDecoder {
  /** Decodes the next chunk; bytes of a character cut at the chunk's end wait for the next one. */
  push(chunk: Uint8Array): string;
  /** Flushes the decoder at the end of the input. */
  end(): string;
}

/**
 * A streaming decoder that skips `bomLength` bytes at the start. For UTF-8 it is fatal: the
 * first invalid sequence throws ContactsError('invalid_utf8') with the byte offset, so the host
 * can start again as Windows-1252 and say so.
 */
export function createDecoder(encoding: Encoding, bomLength: number): StreamDecoder {
  const fatal = encoding === 'utf-8';
  const decoder = new TextDecoder(encoding, { fatal, ignoreBOM: true });
  let toSkip = bomLength;
  let offset = 0;
  const run = (chunk: Uint8Array | undefined, stream: boolean): string => {
    const start = offset;
    let bytes = chunk;
    if (bytes && toSkip > 0) {
      const skip = Math.min(toSkip, bytes.length);
      toSkip -= skip;
      bytes = bytes.subarray(skip);
    }
    if (chunk) offset += chunk.length;
    try {
      return bytes ? decoder.decode(bytes, { stream }) : decoder.decode();
    } catch {
      throw new ContactsError('invalid_utf8', `the file is not valid UTF-8 (near byte ${start})`);
    }
  };
  return { push: (chunk) => run(chunk, true), end: () => run(undefined, false) };
}

/** Labels accepted for --encoding. */
export function parseEncoding(text: string): Encoding | null {
  const t = text.trim().toLowerCase().replace(/_/g, '-');
  if (t === 'utf-8' || t === 'utf8') return 'utf-8';
  if (t === 'utf-16le' || t === 'utf16le') return 'utf-16le';
  if (t === 'utf-16be' || t === 'utf16be') return 'utf-16be';
  if (['windows-1252', 'cp1252', 'win-1252', 'latin1', 'latin-1', 'iso-8859-1'].includes(t))
    return 'windows-1252';
  const aliases: Record<string, Encoding> = {
    gbk: 'gb18030',
    gb2312: 'gb18030',
    'shift-jis': 'shift_jis',
    sjis: 'shift_jis',
    cp932: 'shift_jis',
    cp949: 'euc-kr',
    cp1251: 'windows-1251',
    cp1250: 'windows-1250',
    latin2: 'iso-8859-2',
  };
  if (aliases[t]) return aliases[t];
  if (known.has(t)) return t as Encoding;
  const underscored = t.replace(/-/g, '_');
  return known.has(underscored) ? (underscored as Encoding) : null;
}

/** UTF-8 bytes of text[from..to) (text decoded from valid UTF-8: no lone surrogates). */
export function utf8Length(text: string, from: number, to: number): number {
  let bytes = to - from;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}
