// Rows merged before a later row claimed their number (merger.lateDuplicates): their Reasons cell
// in the rejects text gets "duplicate:row N" (or a new N). The text is ours (RFC 4180, "\n" record
// ends), so a quote-parity scan finds every record's first two fields exactly.
import { csvCell } from './csvWrite.ts';
import { duplicateReason, REASON_SEPARATOR } from './issues.ts';

const DUPLICATE_PREFIX = 'duplicate:row ';

/** Reasons with its leading "duplicate:row N" entry replaced by (or given) one for `duplicateOf`. */
export function withDuplicateReason(reasons: string, duplicateOf: number): string {
  let own = reasons;
  if (own.startsWith(DUPLICATE_PREFIX)) {
    const cut = own.indexOf(REASON_SEPARATOR);
    own = cut < 0 ? '' : own.slice(cut + REASON_SEPARATOR.length);
  }
  if (duplicateOf <= 0) return own;
  return duplicateReason(duplicateOf) + (own ? REASON_SEPARATOR + own : '');
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** The end (exclusive) of the field starting at `at`: after its closing quote, or at its comma/line break. */
function fieldEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== QUOTE) {
    let end = at;
    while (end < bytes.length && bytes[end] !== COMMA && bytes[end] !== LF) end++;
    return end;
  }
  let i = at + 1;
  for (;;) {
    const close = bytes.indexOf(QUOTE, i);
    if (close < 0) throw new Error('internal: an unclosed quote in the rejects text');
    if (bytes[close + 1] !== QUOTE) return close + 1;
    i = close + 2;
  }
}

/** A field's value (quotes removed, "" unescaped). */
function fieldValue(bytes: Uint8Array, start: number, end: number): string {
  if (bytes[start] !== QUOTE) return decoder.decode(bytes.subarray(start, end));
  return decoder.decode(bytes.subarray(start + 1, end - 1)).replaceAll('""', '"');
}

/**
 * The line break ending the record that `from` is in (`from` outside quotes), or bytes.length.
 * Jumps from quote to quote with indexOf: a byte-by-byte scan of a million-row rejects file was
 * most of the time this patch took.
 */
function recordEnd(bytes: Uint8Array, from: number): number {
  let at = from;
  for (;;) {
    const lineBreak = bytes.indexOf(LF, at);
    const quote = bytes.indexOf(QUOTE, at);
    if (quote < 0 || (lineBreak >= 0 && lineBreak < quote)) return lineBreak < 0 ? bytes.length : lineBreak;
    // A quoted field: on to its closing quote ("" inside it closes and reopens: the same end).
    const close = bytes.indexOf(QUOTE, quote + 1);
    if (close < 0) return bytes.length;
    at = close + 1;
  }
}

/** One Reasons cell to replace: bytes [start, end) of the rejects file become `cell` (UTF-8). */
export interface ReasonsEdit {
  start: number;
  end: number;
  cell: string;
}

/**
 * The Reasons cells of the given rows in the rejects file's bytes (header line first), pointed at
 * their new duplicate: edits in file order. Working on bytes lets a host patch a file without
 * holding it as text (twice its size, and a second copy for the result).
 */
export function lateDuplicateEdits(
  rejects: Uint8Array,
  late: ReadonlyArray<readonly [number, number]>,
): ReasonsEdit[] {
  const wanted = new Map(late);
  const edits: ReasonsEdit[] = [];
  let at = rejects.indexOf(LF) + 1; // after the header
  while (at > 0 && at < rejects.length && wanted.size > 0) {
    const rowEnd = fieldEnd(rejects, at);
    const row = Number(fieldValue(rejects, at, rowEnd));
    const start = rowEnd + 1;
    const end = fieldEnd(rejects, start);
    const duplicateOf = wanted.get(row);
    if (duplicateOf !== undefined) {
      wanted.delete(row);
      edits.push({
        start,
        end,
        cell: csvCell(withDuplicateReason(fieldValue(rejects, start, end), duplicateOf)),
      });
    }
    at = recordEnd(rejects, end) + 1;
  }
  if (wanted.size > 0)
    throw new Error(`internal: rows ${[...wanted.keys()].join(', ')} are not in the rejects text`);
  return edits;
}

/** The bytes with the edits applied (edits in order, not overlapping). */
export function applyEdits(bytes: Uint8Array, edits: readonly ReasonsEdit[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let copied = 0;
  for (const edit of edits) {
    parts.push(bytes.subarray(copied, edit.start), encoder.encode(edit.cell));
    copied = edit.end;
  }
  parts.push(bytes.subarray(copied));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const part of parts) {
    out.set(part, pos);
    pos += part.length;
  }
  return out;
}

/**
 * The rejects text (header line first) with the Reasons of the given rows pointed at their new
 * duplicate. Rows not in `late` are copied as they are.
 */
export function applyLateDuplicates(rejects: string, late: ReadonlyArray<readonly [number, number]>): string {
  if (late.length === 0) return rejects;
  const bytes = encoder.encode(rejects);
  return decoder.decode(applyEdits(bytes, lateDuplicateEdits(bytes, late)));
}
