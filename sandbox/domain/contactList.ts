// A campaign CSV as the service receives it: parse the file, check the mapping against the agent
// and the header, then validate every row (phone, required values, duplicates). No row is dropped
// silently: each invalid row carries its reason and is served back in the invalid-rows CSV.
import Papa from 'papaparse';
import type { CountryCode } from 'libphonenumber-js/max';
import type { VariablesMap } from '../../shared/service/upload.ts';
import { normalizeCampaignPhone } from './phone.ts';
import { transliterate } from './smartFormatter.ts';

export interface CsvRow {
  cells: string[];
  /** Physical line where the record starts (the header is line 1). */
  line: number;
}
export interface ParsedCsv {
  header: string[];
  rows: CsvRow[];
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export const defaultPhoneColumn = 'Mobile Number';

export function parseCsvFile(bytes: Uint8Array, fileName: string): Checked<ParsedCsv> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: `File "${fileName}" is not UTF-8 text; save it as CSV UTF-8` };
  }
  if (text.includes('\u0000')) return { ok: false, message: `File "${fileName}" is not a CSV file` };
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return { ok: false, message: `File "${fileName}" is empty` };

  const records: CsvRow[] = [];
  let line = 1;
  let lastCursor = 0;
  let quoteError: string | null = null;
  Papa.parse<string[]>(text, {
    skipEmptyLines: 'greedy',
    step: (res) => {
      const start = line + countNewlines(text, lastCursor, firstNonNewline(text, lastCursor));
      if (res.errors.length > 0 && !quoteError) {
        const e = res.errors[0];
        if (e?.type === 'Quotes') quoteError = `File "${fileName}", line ${start}: ${e.message}`;
      }
      records.push({ cells: res.data, line: start });
      line += countNewlines(text, lastCursor, res.meta.cursor);
      lastCursor = res.meta.cursor;
    },
  });
  if (quoteError) return { ok: false, message: quoteError };
  const [head, ...rows] = records;
  if (!head) return { ok: false, message: `File "${fileName}" has no header row` };
  const header = head.cells;
  const seen = new Set<string>();
  for (const [i, h] of header.entries()) {
    if (h.trim() === '')
      return { ok: false, message: `File "${fileName}": column ${i + 1} of the header has no name` };
    if (h !== h.trim())
      return { ok: false, message: `File "${fileName}": column "${h}" has leading or trailing spaces` };
    if (seen.has(h))
      return { ok: false, message: `File "${fileName}": column "${h}" appears twice in the header` };
    seen.add(h);
  }
  return { ok: true, value: { header, rows } };
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}
function firstNonNewline(text: string, from: number): number {
  let i = from;
  while (i < text.length && (text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

/**
 * Check `variables_map` against the agent's variables and the CSV header. Returns the column of
 * each mapped variable (mobile_number included).
 */
export function checkMapping(
  map: VariablesMap,
  agentVariables: readonly string[],
  agentName: string,
  header: readonly string[],
): Checked<{ phoneColumn: string; columns: Array<[variable: string, column: string]> }> {
  const known = new Set([...agentVariables, 'mobile_number']);
  for (const variable of Object.keys(map)) {
    if (!known.has(variable)) {
      return {
        ok: false,
        message: `variables_map: "${variable}" is not a variable of agent "${agentName}" (its variables: ${[...known].join(', ')})`,
      };
    }
  }
  for (const [variable, column] of Object.entries(map)) {
    if (!header.includes(column)) {
      return {
        ok: false,
        message: `variables_map: column "${column}" (for ${variable}) is not in the CSV header (columns: ${header.join(', ')})`,
      };
    }
  }
  for (const variable of agentVariables) {
    if (variable !== 'mobile_number' && !(variable in map)) {
      return { ok: false, message: `variables_map: agent variable "${variable}" has no CSV column` };
    }
  }
  const phoneColumn = map.mobile_number ?? defaultPhoneColumn;
  if (!header.includes(phoneColumn)) {
    return {
      ok: false,
      message: `The CSV has no "${phoneColumn}" column (the phone numbers, with country code)`,
    };
  }
  return {
    ok: true,
    value: { phoneColumn, columns: Object.entries(map).filter(([v]) => v !== 'mobile_number') },
  };
}

export interface ContactEntry {
  rowNumber: number;
  line: number;
  valid: boolean;
  reason: string | null;
  mobileNumber: string | null;
  calleeName: string | null;
  customArgsValues: Record<string, string>;
  cells: string[];
}

export interface ValidateOptions {
  country: CountryCode;
  phoneColumn: string;
  columns: ReadonlyArray<readonly [string, string]>;
  /** Transliterate callee names to this language (e.g. `hi`), or null. */
  transliterateTo: string | null;
}

export function validateContacts(csv: ParsedCsv, o: ValidateOptions): ContactEntry[] {
  const index = new Map(csv.header.map((h, i) => [h, i]));
  const phoneIdx = index.get(o.phoneColumn) ?? -1;
  const firstRowOf = new Map<string, number>();
  return csv.rows.map((row, i): ContactEntry => {
    const rowNumber = i + 1;
    const base = { rowNumber, line: row.line, cells: row.cells };
    const fail = (reason: string): ContactEntry => ({
      ...base,
      valid: false,
      reason,
      mobileNumber: null,
      calleeName: null,
      customArgsValues: {},
    });
    if (row.cells.length !== csv.header.length) {
      return fail(`has ${row.cells.length} fields, the header has ${csv.header.length}`);
    }
    const phone = normalizeCampaignPhone(row.cells[phoneIdx] ?? '', o.country);
    if (!phone.ok) return fail(phone.reason);
    const values: Record<string, string> = {};
    for (const [variable, column] of o.columns) {
      const v = (row.cells[index.get(column) ?? -1] ?? '').trim();
      if (v === '') return fail(`${column} is empty (needed for ${variable})`);
      values[variable] = v;
    }
    const dup = firstRowOf.get(phone.e164);
    if (dup !== undefined) return fail(`${o.phoneColumn} ${phone.e164} repeats row ${dup}`);
    firstRowOf.set(phone.e164, rowNumber);
    if (values.callee_name !== undefined && o.transliterateTo) {
      values.callee_name = transliterate(values.callee_name, o.transliterateTo);
    }
    values.mobile_number = phone.e164;
    return {
      ...base,
      valid: true,
      reason: null,
      mobileNumber: phone.e164,
      calleeName: values.callee_name ?? null,
      customArgsValues: values,
    };
  });
}

/** The rejected rows as CSV: the original columns plus the row number and the reason. */
export function invalidRowsCsv(
  header: readonly string[],
  rows: ReadonlyArray<{ row_number: number; reason: string | null; cells: string }>,
): string {
  const data = rows.map((r) => {
    const cells = JSON.parse(r.cells) as string[];
    const padded = header.map((_, i) => cells[i] ?? '');
    return [...padded, String(r.row_number), r.reason ?? ''];
  });
  return `${Papa.unparse({ fields: [...header, 'Row Number', 'Reason'], data }, { newline: '\r\n' })}\r\n`;
}
