// Bytes → text. BOMs are recognised (and never reach a header), UTF-16 without a BOM is spotted
// by its zero bytes, UTF-8 is validated (fatal decoding, streamed so a character split across
// chunks is reassembled), and bytes that are not UTF-8 are read as Windows-1252.
import { ContactsError } from './errors.ts';
import type { Encoding, Source } from './types.ts';

export interface EncodingGuess {
  encoding: Encoding;
  source: Source;
  /** Bytes of byte-order mark to skip (0 when none). */
  bomLength: number;
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
  if (override) return { encoding: override, source: 'override', bomLength };
  if (bom) return { encoding: bom.encoding, source: 'bom', bomLength };
  const utf16 = utf16WithoutBom(sample);
  if (utf16) return { encoding: utf16, source: 'detected', bomLength: 0 };
  return { encoding: isUtf8(sample, complete) ? 'utf-8' : 'windows-1252', source: 'detected', bomLength: 0 };
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
  return null;
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
