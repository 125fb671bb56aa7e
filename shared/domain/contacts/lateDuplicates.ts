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

/** Reads one RFC 4180 field starting at `at`; returns its value and the offset after it. */
function readField(text: string, at: number): { value: string; end: number } {
  if (text.charCodeAt(at) !== 34) {
    let end = at;
    while (end < text.length && text[end] !== ',' && text[end] !== '\n') end++;
    return { value: text.slice(at, end), end };
  }
  let value = '';
  let i = at + 1;
  for (;;) {
    const close = text.indexOf('"', i);
    if (close < 0) throw new Error('internal: an unclosed quote in the rejects text');
    value += text.slice(i, close);
    if (text[close + 1] === '"') {
      value += '"';
      i = close + 2;
    } else return { value, end: close + 1 };
  }
}

/**
 * The rejects text (header line first) with the Reasons of the given rows pointed at their new
 * duplicate. Rows not in `late` are copied as they are.
 */
export function applyLateDuplicates(rejects: string, late: ReadonlyArray<readonly [number, number]>): string {
  if (late.length === 0) return rejects;
  const wanted = new Map(late);
  const parts: string[] = [];
  let copied = 0;
  let at = rejects.indexOf('\n') + 1; // after the header
  while (at < rejects.length && wanted.size > 0) {
    const row = readField(rejects, at);
    const reasons = readField(rejects, row.end + 1);
    const duplicateOf = wanted.get(Number(row.value));
    if (duplicateOf !== undefined) {
      wanted.delete(Number(row.value));
      parts.push(
        rejects.slice(copied, row.end + 1),
        csvCell(withDuplicateReason(reasons.value, duplicateOf)),
      );
      copied = reasons.end;
    }
    // To the end of the record: a line break outside quotes.
    let i = reasons.end;
    let quoted = false;
    for (; i < rejects.length; i++) {
      const c = rejects.charCodeAt(i);
      if (c === 34) quoted = !quoted;
      else if (c === 10 && !quoted) break;
    }
    at = i + 1;
  }
  if (wanted.size > 0)
    throw new Error(`internal: rows ${[...wanted.keys()].join(', ')} are not in the rejects text`);
  parts.push(rejects.slice(copied));
  return parts.join('');
}
