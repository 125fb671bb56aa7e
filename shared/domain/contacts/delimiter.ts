// Delimiter and line-break detection on a sample. Raw character frequency is fooled by decimal
// commas ("1.234,50"), Indian digit grouping ("1,25,000") and commas in quoted text; instead each
// candidate parses the sample (quote-aware) and scores how many records have the header's field
// count. A delimiter absent from the header cannot be the file's delimiter.
import { parseRecords } from './parseRecords.ts';
import type { Delimiter, Newline } from './types.ts';
import { DELIMITERS } from './types.ts';

/** The line break that ends the first record (quotes respected): the file's record separator. */
export function detectNewline(sample: string): Newline {
  let inQuotes = false;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 34) inQuotes = !inQuotes;
    else if (!inQuotes && c === 13) return sample.charCodeAt(i + 1) === 10 ? '\r\n' : '\r';
    else if (!inQuotes && c === 10) return '\n';
  }
  return '\n';
}

export interface DelimiterGuess {
  delimiter: Delimiter;
  /** 'default' when no candidate splits the header (a one-column file). */
  source: 'detected' | 'default';
}

const SAMPLE_RECORDS = 200;

/** Cuts the sample after its last complete line so a half record does not count. */
function wholeLines(sample: string, newline: Newline, complete: boolean): string {
  if (complete) return sample;
  const cut = sample.lastIndexOf(newline);
  return cut < 0 ? sample : sample.slice(0, cut + newline.length);
}

export function detectDelimiter(sample: string, newline: Newline, complete: boolean): DelimiterGuess {
  const text = wholeLines(sample.slice(0, 256 * 1024), newline, complete);
  let best: { delimiter: Delimiter; score: number; fields: number } | null = null;
  for (const delimiter of DELIMITERS) {
    const records = parseRecords(text, delimiter, newline)
      .filter((r) => !(r.length === 1 && r[0]?.trim() === ''))
      .slice(0, SAMPLE_RECORDS);
    const fields = records[0]?.length ?? 0;
    if (fields < 2) continue;
    const data = records.slice(1);
    const consistent = data.filter((r) => r.length === fields).length;
    const score = data.length === 0 ? 1 : consistent / data.length;
    // Ties: more fields, then the order of DELIMITERS (comma first).
    if (!best || score > best.score || (score === best.score && fields > best.fields)) {
      best = { delimiter, score, fields };
    }
  }
  return best ? { delimiter: best.delimiter, source: 'detected' } : { delimiter: ',', source: 'default' };
}

/** Labels accepted for --delimiter. */
export function parseDelimiter(text: string): Delimiter | null {
  const t = text.toLowerCase();
  if (t === ',' || t === 'comma') return ',';
  if (t === ';' || t === 'semicolon') return ';';
  if (t === '\t' || t === '\\t' || t === 'tab') return '\t';
  if (t === '|' || t === 'pipe') return '|';
  return null;
}
