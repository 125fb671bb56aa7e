// Cuts the byte stream of a file into blocks of whole records so several workers can decode and
// parse in parallel. It works on bytes, not text: the stream is UTF-8 or Windows-1252 (UTF-16
// input is re-encoded as UTF-8 first), where quote, delimiter, CR and LF are single bytes that never
// occur inside a multi-byte character, so a record boundary is always a character boundary.
//
// A record boundary is a line break outside quotes. To know whether a line break is outside quotes
// the scan jumps from quote byte to quote byte (indexOf) and keeps the quote state; it only looks
// for a line break near the wanted cut. It also checks that quoting is RFC 4180-regular: a quote
// may only open a field (at the start of the block, right after the delimiter, or right after a
// record's line break), and a closing quote must be followed by a doubled quote, the delimiter, a
// line break or the end of the file. Anything else (a bare quote inside an unquoted field, text
// after a closing quote, a quote never closed) is where papaparse's recovery rules and a
// quote-parity scan could disagree, so the splitter stops and reports it: the host then streams the
// rest of the file through ONE worker (sequential mode), which is exactly papaparse's own reading.
// Workers also reject a block on which papaparse reports a quoting error (a second guard).
//
// Row numbers are not decided here: each worker counts the records of its block (blank lines
// included) and the merger adds the blocks up in file order, so every record gets its spreadsheet
// row (header = row 1; line breaks inside quoted fields do not start a row).
import type { ByteBlock, Delimiter, Newline } from './types.ts';

/** A quoted field this long is more likely a stray quote: stop splitting. */
const MAX_QUOTED_BYTES = 1 << 20;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

export type CutResult =
  /** The offset just after the first record break at or after `target`. */
  | { kind: 'cut'; at: number }
  /** The bytes end before such a break: wait for more (or, at the end of the file, no cut). */
  | { kind: 'more' }
  | { kind: 'irregular'; reason: string };

/**
 * Finds where to cut `bytes[from..end)`, which starts with a record at `from` (outside quotes): the
 * first record break at or after `target`.
 */
export function findCut(
  bytes: Uint8Array,
  from: number,
  end: number,
  target: number,
  final: boolean,
  delimiter: Delimiter,
  newline: Newline,
): CutResult {
  const delim = delimiter.charCodeAt(0);
  const breakByte = newline === '\r' ? CR : LF;
  const crlf = newline === '\r\n';
  const find = (byte: number, at: number): number => {
    const i = bytes.indexOf(byte, at);
    return i >= end ? -1 : i;
  };

  /** Is `at` (a quote outside quotes) the start of a field? */
  const opensField = (at: number): boolean => {
    if (at === from) return true;
    const prev = bytes[at - 1];
    if (prev === delim) return true;
    if (prev !== breakByte) return false;
    return !crlf || (at - 2 >= from && bytes[at - 2] === CR);
  };

  /** Skips a quoted field opening at `open`; returns the offset after its closing quote. */
  const skipQuoted = (open: number): number | CutResult => {
    let close = find(QUOTE, open + 1);
    while (close !== -1 && close + 1 < end && bytes[close + 1] === QUOTE) close = find(QUOTE, close + 2);
    if (close === -1) {
      if (final) return { kind: 'irregular', reason: 'a quoted field is never closed' };
      if (end - open > MAX_QUOTED_BYTES)
        return { kind: 'irregular', reason: 'a quoted field longer than 1 MB' };
      return { kind: 'more' };
    }
    const after = close + 1;
    if (after === end) return final ? after : { kind: 'more' };
    const next = bytes[after];
    if (next === delim || next === breakByte) return after;
    if (crlf && next === CR) {
      if (after + 1 === end) return final ? after : { kind: 'more' };
      if (bytes[after + 1] === LF) return after;
    }
    return { kind: 'irregular', reason: 'text after a closing quote' };
  };

  let pos = from;
  let quote = find(QUOTE, pos);
  // Pass every quoted field that starts before the target.
  while (quote !== -1 && quote < target) {
    if (!opensField(quote)) return { kind: 'irregular', reason: 'a quote inside an unquoted field' };
    const after = skipQuoted(quote);
    if (typeof after !== 'number') return after;
    pos = after;
    quote = find(QUOTE, pos);
  }
  // Then the first line break outside quotes from max(target, pos).
  pos = Math.max(pos, Math.min(target, end));
  for (;;) {
    const lineBreak = find(breakByte, pos);
    if (quote !== -1 && quote < pos) quote = find(QUOTE, pos);
    if (quote !== -1 && (lineBreak === -1 || quote < lineBreak)) {
      if (!opensField(quote)) return { kind: 'irregular', reason: 'a quote inside an unquoted field' };
      const after = skipQuoted(quote);
      if (typeof after !== 'number') return after;
      pos = after;
      quote = find(QUOTE, pos);
      continue;
    }
    if (lineBreak === -1) return { kind: 'more' };
    if (crlf && (lineBreak === from || bytes[lineBreak - 1] !== CR)) {
      pos = lineBreak + 1; // a bare LF in a CRLF file is data, not a record break
      continue;
    }
    return { kind: 'cut', at: lineBreak + 1 };
  }
}

export interface SplitterOptions {
  delimiter: Delimiter;
  newline: Newline;
  /** Aim for blocks of about this many bytes. */
  blockBytes: number;
}

export interface BlockSplitter {
  /** Adds bytes; returns the blocks now complete (each with its own copy of its bytes). */
  push(chunk: Uint8Array): ByteBlock[];
  /** End of input: the last block. */
  end(): ByteBlock[];
  /** Set once quoting made splitting unsafe; then takeRest() gives the bytes not yet cut. */
  readonly irregular: string | null;
  /** The unsplit remainder and the seq its first block should get (after `irregular`). */
  takeRest(): { bytes: Uint8Array; seq: number };
}

export function createBlockSplitter(options: SplitterOptions): BlockSplitter {
  const { delimiter, newline, blockBytes } = options;
  let buffer: Uint8Array = new Uint8Array(0);
  let start = 0; // buffer[start..) is not cut yet
  let seq = 0;
  let irregular: string | null = null;

  const append = (chunk: Uint8Array): void => {
    const rest = buffer.length - start;
    if (rest === 0) {
      buffer = chunk;
    } else {
      const joined = new Uint8Array(rest + chunk.length);
      joined.set(buffer.subarray(start));
      joined.set(chunk, rest);
      buffer = joined;
    }
    start = 0;
  };

  const emit = (final: boolean): ByteBlock[] => {
    const out: ByteBlock[] = [];
    while (!irregular) {
      const available = buffer.length - start;
      if (available === 0 || (available < blockBytes && !final)) break;
      const cut = findCut(buffer, start, buffer.length, start + blockBytes, final, delimiter, newline);
      if (cut.kind === 'irregular') {
        irregular = cut.reason;
        break;
      }
      if (cut.kind === 'more') {
        if (final) {
          out.push({ seq: seq++, bytes: buffer.slice(start) });
          start = buffer.length;
        }
        break;
      }
      out.push({ seq: seq++, bytes: buffer.slice(start, cut.at) });
      start = cut.at;
    }
    return out;
  };

  return {
    get irregular() {
      return irregular;
    },
    push(chunk) {
      append(chunk);
      return irregular ? [] : emit(false);
    },
    end() {
      return irregular ? [] : emit(true);
    },
    takeRest() {
      const rest = { bytes: buffer.slice(start), seq };
      buffer = new Uint8Array(0);
      start = 0;
      return rest;
    },
  };
}
