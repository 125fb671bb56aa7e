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
// line break or the end of the file. A quoted field that breaks that rule (text after its closing
// quote), never closes, or spans more than MAX_QUOTED_LINES lines (or MAX_QUOTED_BYTES) was opened
// by a stray quote: papaparse would swallow the following lines into one cell, so the splitter cuts
// that line out as a block of its own (`strayQuote`), which the worker reads with the quote as a
// plain character and flags quote_unbalanced. A bare quote inside an unquoted field is where
// papaparse's reading and a quote-parity scan could disagree, so the splitter stops and reports it:
// the host then streams the rest of the file through ONE worker (sequential mode), papaparse's own
// reading. Workers also reject a block on which papaparse reports a quoting error (a second guard).
//
// Row numbers are not decided here: each worker counts the records of its block (blank lines
// included) and the merger adds the blocks up in file order, so every record gets its spreadsheet
// row (header = row 1; line breaks inside quoted fields do not start a row).
import type { ByteBlock, Delimiter, Newline } from './types.ts';

/** A quoted field longer than this, or spanning more line breaks, is a stray quote (see below). */
export const MAX_QUOTED_BYTES = 1 << 20;
export const MAX_QUOTED_LINES = 64;
const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

export type CutResult =
  /** The offset just after the first record break at or after `target`. */
  | { kind: 'cut'; at: number }
  /** The bytes end before such a break: wait for more (or, at the end of the file, no cut). */
  | { kind: 'more' }
  | { kind: 'irregular'; reason: string }
  /**
   * A quote opened a field at `quote` that never closes (the file ends first) or would span an
   * implausible number of lines (MAX_QUOTED_LINES, MAX_QUOTED_BYTES): a stray quote. Its line,
   * [recordStart, lineEnd) with its line break, is to be read with the quote as a plain character.
   */
  | { kind: 'stray'; recordStart: number; quote: number; lineEnd: number };

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
  /** How to take a quote inside an unquoted field: stop ('irregular'), or as papaparse does ('literal'). */
  bareQuotes: 'irregular' | 'literal' = 'irregular',
): CutResult {
  const delim = delimiter.charCodeAt(0);
  const breakByte = newline === '\r' ? CR : LF;
  const crlf = newline === '\r\n';
  const find = (byte: number, at: number): number => {
    const i = bytes.indexOf(byte, at);
    return i >= end ? -1 : i;
  };

  /** Is `at` (a quote outside quotes) the start of a field? (After a lone LF too: it ends a line, see eachRecord.) */
  const opensField = (at: number): boolean => {
    if (at === from) return true;
    const prev = bytes[at - 1];
    return prev === delim || prev === breakByte;
  };

  /** Start of the record being scanned: after the last line break seen outside quotes. */
  let recordStart = from;
  /** Before a quote outside quotes at `at`: a line break between the last field and it starts a record. */
  const noteRecordStart = (at: number, after: number): void => {
    const lineBreak = at > after ? bytes.lastIndexOf(breakByte, at - 1) : -1;
    if (lineBreak >= after) recordStart = lineBreak + 1;
  };

  /** Line breaks in bytes[from..to), counting no further than MAX_QUOTED_LINES + 1. */
  const tooManyLines = (start: number, to: number): boolean => {
    let lines = 0;
    for (let i = find(breakByte, start); i !== -1 && i < to; i = find(breakByte, i + 1))
      if (++lines > MAX_QUOTED_LINES) return true;
    return false;
  };

  /** The quote at `open` is stray: its line, to be read with the quote as a character. */
  const stray = (open: number): CutResult => {
    const lineBreak = find(breakByte, open);
    if (lineBreak === -1 && !final) return { kind: 'more' };
    return { kind: 'stray', recordStart, quote: open, lineEnd: lineBreak === -1 ? end : lineBreak + 1 };
  };

  /** Skips a quoted field opening at `open`; returns the offset after its closing quote. */
  const skipQuoted = (open: number): number | CutResult => {
    let close = find(QUOTE, open + 1);
    while (close !== -1 && close + 1 < end && bytes[close + 1] === QUOTE) close = find(QUOTE, close + 2);
    if (tooManyLines(open + 1, close === -1 ? end : close)) return stray(open);
    if (close === -1) {
      if (final || end - open > MAX_QUOTED_BYTES) return stray(open);
      return { kind: 'more' };
    }
    if (close - open > MAX_QUOTED_BYTES) return stray(open);
    const after = close + 1;
    if (after === end) return final ? after : { kind: 'more' };
    const next = bytes[after];
    if (next === delim || next === breakByte) return after;
    if (crlf && next === CR) {
      if (after + 1 === end) return final ? after : { kind: 'more' };
      if (bytes[after + 1] === LF) return after;
    }
    // Text after the "closing" quote: the quote that opened the field was stray (often the close is
    // the next quoted field's opening quote). papaparse would read on to a later quote, swallowing
    // the lines between into one cell; the line is read with the quote as a character instead.
    return stray(open);
  };

  let pos = from;
  /** Where the last quoted field ended (no quote between it and the scan position). */
  let fieldEnd = from;
  let quote = find(QUOTE, pos);
  // Pass every quoted field that starts before the target.
  /** Passes the quote at `at` (outside quotes): the next quote to look at, or the result. */
  const passQuote = (at: number): number | CutResult => {
    if (!opensField(at)) {
      if (bareQuotes === 'irregular')
        return { kind: 'irregular', reason: 'a quote inside an unquoted field' };
      return find(QUOTE, at + 1); // a plain character, as papaparse reads it
    }
    noteRecordStart(at, fieldEnd);
    const after = skipQuoted(at);
    if (typeof after !== 'number') return after;
    pos = fieldEnd = after;
    return find(QUOTE, pos);
  };
  while (quote !== -1 && quote < target) {
    const next = passQuote(quote);
    if (typeof next !== 'number') return next;
    quote = next;
  }
  // Then the first line break outside quotes from max(target, pos).
  pos = Math.max(pos, Math.min(target, end));
  for (;;) {
    const lineBreak = find(breakByte, pos);
    if (quote !== -1 && quote < pos) quote = find(QUOTE, pos);
    if (quote !== -1 && (lineBreak === -1 || quote < lineBreak)) {
      const next = passQuote(quote);
      if (typeof next !== 'number') return next;
      quote = next;
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
  /** See findCut (default 'irregular': the host then streams the rest through one lane). */
  bareQuotes?: 'irregular' | 'literal';
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
  // The uncut rest and the next chunk are joined in one reused buffer: a fresh one per chunk (two
  // allocations of the file's size in all, each zeroed) was most of the splitter's time. Blocks
  // are copies (slice), so nothing keeps a view of it.
  let staging = new Uint8Array(0);

  const append = (chunk: Uint8Array): void => {
    const rest = buffer.length - start;
    if (rest === 0) {
      buffer = chunk;
    } else {
      const size = rest + chunk.length;
      const uncut = buffer.subarray(start);
      if (staging.length < size) {
        const grown = new Uint8Array(Math.max(size, staging.length * 2));
        grown.set(uncut);
        staging = grown;
      } else if (uncut.buffer === staging.buffer) {
        staging.copyWithin(
          0,
          uncut.byteOffset - staging.byteOffset,
          uncut.byteOffset - staging.byteOffset + rest,
        );
      } else {
        staging.set(uncut);
      }
      staging.set(chunk, rest);
      buffer = staging.subarray(0, size);
    }
    start = 0;
  };

  const emit = (final: boolean): ByteBlock[] => {
    const out: ByteBlock[] = [];
    while (!irregular) {
      const available = buffer.length - start;
      if (available === 0 || (available < blockBytes && !final)) break;
      const cut = findCut(
        buffer,
        start,
        buffer.length,
        start + blockBytes,
        final,
        delimiter,
        newline,
        options.bareQuotes,
      );
      if (cut.kind === 'irregular') {
        irregular = cut.reason;
        break;
      }
      if (cut.kind === 'stray') {
        // The records before the stray quote's line, then that line alone (read literally).
        if (cut.recordStart > start) out.push({ seq: seq++, bytes: buffer.slice(start, cut.recordStart) });
        const line = buffer.slice(cut.recordStart, cut.lineEnd);
        out.push({ seq: seq++, bytes: line, strayQuote: cut.quote - cut.recordStart });
        start = cut.lineEnd;
        continue;
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
