// Delimiter and line-break detection on a sample. Raw character frequency is fooled by decimal
// commas ("1.234,50"), Indian digit grouping ("1,25,000") and commas in quoted text; instead each
// candidate parses the sample (quote-aware) and scores how many records have the header's field
// count. A delimiter absent from the header cannot be the file's delimiter.
import { eachRecord } from './parseRecords.ts';
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
  const { delimiter, source } = detectLayout(sample, newline, complete);
  return { delimiter, source: source === 'default' ? 'default' : 'detected' };
}

/** Lines above the header: a report title, notes ("Exported by …"), blank lines. */
export interface SkippedLines {
  /** Records before the header (blank ones included): they are spreadsheet rows too. */
  records: number;
  /** Characters of the sample before the header. */
  chars: number;
  /** The non-blank ones, as written (for the note that says what was skipped). */
  lines: string[];
}

export interface Layout {
  delimiter: Delimiter;
  source: 'detected' | 'default' | 'override';
  /** The header is the first record unless title or notes lines come before it. */
  skipped: SkippedLines | null;
}

/** Records above the header looked at (a title, a few lines of notes). */
const MAX_TITLE_RECORDS = 20;

const filled = (record: readonly string[]): number => {
  let n = 0;
  for (const cell of record) if (cell.trim() !== '') n++;
  return n;
};

interface Candidate {
  delimiter: Delimiter;
  score: number;
  fields: number;
  /** Index of the header among the sample's records. */
  at: number;
}

/**
 * The delimiter and where the header is. Each candidate delimiter parses the sample; a record is
 * a possible header when it has at least two named cells and every non-blank record before it
 * looks like a title or a note (at most half as many filled cells, at least one: "Report, March"
 * split at its comma, or "Title;;;" padded by Excel). Its score is the share of the records after
 * it with its field count. The best score wins; ties go to the earlier header, then more fields,
 * then the order of DELIMITERS (comma first). `only` restricts the delimiter (an override).
 */
export function detectLayout(sample: string, newline: Newline, complete: boolean, only?: Delimiter): Layout {
  const text = wholeLines(sample.slice(0, 256 * 1024), newline, complete);
  let best: Candidate | null = null;
  let bestSpans: Array<[number, number]> = [];
  for (const delimiter of only ? [only] : DELIMITERS) {
    const records: string[][] = [];
    const spans: Array<[number, number]> = [];
    eachRecord(text, delimiter, newline, false, (cells, start, end) => {
      if (records.length < SAMPLE_RECORDS + MAX_TITLE_RECORDS) {
        records.push(cells);
        spans.push([start, end]);
      }
    });
    const blank = records.map((r) => r.length === 1 && r[0]?.trim() === '');
    let widest = 0; // filled cells of the widest non-blank record before the candidate
    for (let at = 0; at < Math.min(records.length, MAX_TITLE_RECORDS + 1); at++) {
      const record = records[at] as string[];
      if (blank[at]) continue;
      const named = filled(record);
      const fields = record.length;
      // The first record keeps its old rule (any record with two fields); later ones must be headers.
      const eligible =
        at === 0 ? fields >= 2 : fields >= 2 && named >= 2 && widest <= Math.max(1, named >> 1);
      if (eligible) {
        const data = records.slice(at + 1, at + 1 + SAMPLE_RECORDS).filter((_r, i) => !blank[at + 1 + i]);
        const consistent = data.filter((r) => r.length === fields).length;
        const score = data.length === 0 ? 1 : consistent / data.length;
        // A first record with fewer than two filled cells is a title when a real header follows.
        const titleLike = at === 0 && named < 2;
        const c: Candidate = { delimiter, score: titleLike ? score - 1 : score, fields, at };
        if (
          !best ||
          c.score > best.score ||
          (c.score === best.score && (c.at < best.at || (c.at === best.at && c.fields > best.fields)))
        ) {
          best = c;
          bestSpans = spans;
        }
      }
      widest = Math.max(widest, named);
    }
  }
  if (!best) return { delimiter: only ?? ',', source: only ? 'override' : 'default', skipped: null };
  const source = only ? 'override' : 'detected';
  if (best.at === 0) return { delimiter: best.delimiter, source, skipped: null };
  const chars = (bestSpans[best.at] as [number, number])[0];
  const lines: string[] = [];
  for (let i = 0; i < best.at; i++) {
    const [start, end] = bestSpans[i] as [number, number];
    const line = text.slice(start, end);
    if (line.trim() !== '') lines.push(line);
  }
  return { delimiter: best.delimiter, source, skipped: { records: best.at, chars, lines } };
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
