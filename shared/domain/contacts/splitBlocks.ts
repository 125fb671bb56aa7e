// Cuts decoded text into blocks of whole records so several workers can parse in parallel.
//
// A record boundary is a line break outside quotes. To know whether a line break is outside quotes
// the scan jumps from quote character to quote character (indexOf) and keeps the quote state; it
// only looks for a line break near the wanted cut. It also checks that quoting is RFC 4180-regular:
// a quote may only open a field (at the start of the block, right after the delimiter, or right
// after a record's line break), and a closing quote must be followed by a doubled quote, the
// delimiter, a line break or the end of the file. Anything else (a bare quote inside an unquoted
// field, text after a closing quote, a quote never closed) is where papaparse's recovery rules
// and a quote-parity scan could disagree, so the splitter stops and reports it: the host then
// streams the rest of the file through ONE worker (createRecordStream), which is exactly
// papaparse's own reading. Workers also reject a block on which papaparse reports a quoting error
// (a second guard).
//
// Row numbers are not decided here: each worker counts the records of its block (blank lines
// included) and the merger adds the blocks up in file order, so every record gets its spreadsheet
// row (header = row 1; line breaks inside quoted fields do not start a row).
import type { Delimiter, Newline, TextBlock } from './types.ts';

/** A quoted field this long is more likely a stray quote: stop splitting. */
const MAX_QUOTED_CHARS = 1 << 20;

export type CutResult =
  /** The offset just after the first record break at or after `target`. */
  | { kind: 'cut'; at: number }
  /** The text ends before such a break: wait for more (or, at the end of the file, no cut). */
  | { kind: 'more' }
  | { kind: 'irregular'; reason: string };

/**
 * Finds where to cut `text`, which starts with a record at `from` (outside quotes): the first
 * record break at or after `target`.
 */
export function findCut(
  text: string,
  from: number,
  target: number,
  final: boolean,
  delimiter: Delimiter,
  newline: Newline,
): CutResult {
  const len = text.length;
  const breakChar = newline === '\r' ? '\r' : '\n';
  const crlf = newline === '\r\n';

  /** Is `at` (a quote outside quotes) the start of a field? */
  const opensField = (at: number): boolean => {
    if (at === from) return true;
    const prev = text[at - 1];
    if (prev === delimiter) return true;
    if (prev !== breakChar) return false;
    return !crlf || (at - 2 >= from && text[at - 2] === '\r');
  };

  /** Skips a quoted field opening at `open`; returns the offset after its closing quote. */
  const skipQuoted = (open: number): number | CutResult => {
    let close = text.indexOf('"', open + 1);
    while (close !== -1 && text[close + 1] === '"') close = text.indexOf('"', close + 2);
    if (close === -1) {
      if (final) return { kind: 'irregular', reason: 'a quoted field is never closed' };
      if (len - open > MAX_QUOTED_CHARS) return { kind: 'irregular', reason: 'a quoted field longer than 1 MB' };
      return { kind: 'more' };
    }
    const after = close + 1;
    if (after === len) return final ? after : { kind: 'more' };
    const next = text[after];
    if (next === delimiter || next === breakChar) return after;
    if (crlf && next === '\r') {
      if (after + 1 === len) return final ? after : { kind: 'more' };
      if (text[after + 1] === '\n') return after;
    }
    return { kind: 'irregular', reason: 'text after a closing quote' };
  };

  let pos = from;
  let quote = text.indexOf('"', pos);
  // Pass every quoted field that starts before the target.
  while (quote !== -1 && quote < target) {
    if (!opensField(quote)) return { kind: 'irregular', reason: 'a quote inside an unquoted field' };
    const after = skipQuoted(quote);
    if (typeof after !== 'number') return after;
    pos = after;
    quote = text.indexOf('"', pos);
  }
  // Then the first line break outside quotes from max(target, pos).
  pos = Math.max(pos, Math.min(target, len));
  for (;;) {
    const lineBreak = text.indexOf(breakChar, pos);
    if (quote !== -1 && quote < pos) quote = text.indexOf('"', pos);
    if (quote !== -1 && (lineBreak === -1 || quote < lineBreak)) {
      if (!opensField(quote)) return { kind: 'irregular', reason: 'a quote inside an unquoted field' };
      const after = skipQuoted(quote);
      if (typeof after !== 'number') return after;
      pos = after;
      quote = text.indexOf('"', pos);
      continue;
    }
    if (lineBreak === -1) return { kind: 'more' };
    if (crlf && (lineBreak === from || text[lineBreak - 1] !== '\r')) {
      pos = lineBreak + 1; // a bare LF in a CRLF file is data, not a record break
      continue;
    }
    return { kind: 'cut', at: lineBreak + 1 };
  }
}

export interface SplitterOptions {
  delimiter: Delimiter;
  newline: Newline;
  /** Aim for blocks of about this many characters. */
  blockChars: number;
}

export interface BlockSplitter {
  /** Adds decoded text; returns the blocks now complete. */
  push(text: string): TextBlock[];
  /** End of input: the last block. */
  end(): TextBlock[];
  /** Set once quoting made splitting unsafe; then takeRest() gives the text not yet cut. */
  readonly irregular: string | null;
  /** The unsplit remainder and the seq its first block should get (after `irregular`). */
  takeRest(): { text: string; seq: number };
}

export function createBlockSplitter(options: SplitterOptions): BlockSplitter {
  const { delimiter, newline, blockChars } = options;
  let buffer = '';
  let seq = 0;
  let irregular: string | null = null;

  const emit = (final: boolean): TextBlock[] => {
    const out: TextBlock[] = [];
    while (!irregular) {
      if (buffer.length < blockChars && !final) break;
      const cut = findCut(buffer, 0, blockChars, final, delimiter, newline);
      if (cut.kind === 'irregular') {
        irregular = cut.reason;
        break;
      }
      if (cut.kind === 'more') {
        if (final && buffer.length > 0) {
          out.push({ seq: seq++, text: buffer });
          buffer = '';
        }
        break;
      }
      out.push({ seq: seq++, text: buffer.slice(0, cut.at) });
      buffer = buffer.slice(cut.at);
    }
    return out;
  };

  return {
    get irregular() {
      return irregular;
    },
    push(text) {
      buffer += text;
      return irregular ? [] : emit(false);
    },
    end() {
      return irregular ? [] : emit(true);
    },
    takeRest() {
      const rest = { text: buffer, seq };
      buffer = '';
      return rest;
    },
  };
}
