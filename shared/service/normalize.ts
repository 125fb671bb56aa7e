// One shape for the app from every documented variant of an answer (notes: "Where the service's own
// docs are stricter…"): transcript turns keyed by speaker or as {role, content}; timestamps with or
// without microseconds and offsets; `total` as a number or a string; the balance check's two shapes;
// the upload statuses of both samples and of beta workspaces.
import type { CallRecord, HistoryResponse } from './history.ts';
import type { BalanceResponse, UploadCsvResponse, UploadStatusResponse } from './upload.ts';

// ---------------------------------------------------------------- transcript turns

export type Speaker = 'agent' | 'user' | 'other';

/** One turn of a conversation, whichever way the service wrote it. */
export interface TranscriptTurnView {
  speaker: Speaker;
  text: string;
}

const agentNames = new Set(['bot', 'agent', 'assistant', 'ai']);
const userNames = new Set(['user', 'customer', 'callee', 'human']);

function speakerOf(name: string): Speaker {
  const n = name.toLowerCase();
  if (agentNames.has(n)) return 'agent';
  if (userNames.has(n)) return 'user';
  return 'other';
}

function turnOf(raw: unknown): TranscriptTurnView | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const t = raw as Record<string, unknown>;
  if (typeof t.role === 'string' && 'content' in t) {
    return {
      speaker: speakerOf(t.role),
      text: typeof t.content === 'string' ? t.content : String(t.content ?? ''),
    };
  }
  // Keyed by speaker ({bot: "…"}), possibly with metadata (message_id, timestamp) beside it.
  for (const [key, value] of Object.entries(t)) {
    if (typeof value === 'string' && speakerOf(key) !== 'other')
      return { speaker: speakerOf(key), text: value };
  }
  return null;
}

/**
 * Turns from a list or a JSON-encoded list, in either documented form. Something that is not a list
 * of turns gives no turns (a transcript is shown, never trusted to be well formed).
 */
export function normalizeTranscript(value: unknown): TranscriptTurnView[] {
  let list: unknown = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return [];
    try {
      list = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list.map(turnOf).filter((t): t is TranscriptTurnView => t !== null);
}

// ---------------------------------------------------------------- timestamps

const canonicalTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const timestampPattern =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:[.,](\d+))?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** The years a service timestamp may fall in (a call record outside them is refused, not stored). */
export const TIMESTAMP_MIN_YEAR = 1970;
export const TIMESTAMP_MAX_YEAR = 2100;
const MIN_MS = Date.UTC(TIMESTAMP_MIN_YEAR, 0, 1);
const MAX_MS = Date.UTC(TIMESTAMP_MAX_YEAR + 1, 0, 1);

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Days in a month (1–12) of the Gregorian calendar (as Date counts them; no Date made per call). */
const daysIn = (year: number, month: number) =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : MONTH_DAYS[month - 1]!;

/**
 * Why the fields of a timestamp are not a real time, or null. Date.parse rolls fields over
 * (Feb 30 → Mar 2, 24:00 → the next day) and takes years 0000 and 9999: each field is checked
 * here instead.
 */
function fieldProblem(y: number, mo: number, d: number, h: number, mi: number, s: number): string | null {
  if (y < TIMESTAMP_MIN_YEAR || y > TIMESTAMP_MAX_YEAR)
    return `year ${y} is outside ${TIMESTAMP_MIN_YEAR}–${TIMESTAMP_MAX_YEAR}`;
  if (mo < 1 || mo > 12) return `month ${mo} does not exist`;
  if (d < 1 || d > daysIn(y, mo)) return `day ${d} does not exist in ${y}-${String(mo).padStart(2, '0')}`;
  if (h > 23) return `hour ${h} is out of range`;
  if (mi > 59) return `minute ${mi} is out of range`;
  if (s > 59) return `second ${s} is out of range`;
  return null;
}

/**
 * An ISO-like timestamp of the service → epoch ms, or why it is not one. Fractions beyond
 * milliseconds are cut (never rounded up); a missing offset means UTC (the individual call's
 * `initiated_at` sample has none). Strict: no rollover, years 1970–2100 (also as an instant).
 */
export function checkServiceTimestamp(text: string): { ms: number } | { problem: string } {
  if (canonicalTimestamp.test(text)) {
    // The sync reads two per call: ASCII digits at fixed places, read without slicing, the instant
    // made from them (what Date.parse answers for this form once the fields are checked).
    const num = (from: number, to: number) => {
      let v = 0;
      for (let i = from; i < to; i++) v = v * 10 + text.charCodeAt(i) - 48;
      return v;
    };
    const y = num(0, 4);
    const mo = num(5, 7);
    const d = num(8, 10);
    const problem = fieldProblem(y, mo, d, num(11, 13), num(14, 16), num(17, 19));
    if (problem) return { problem };
    return inRange(Date.UTC(y, mo - 1, d, num(11, 13), num(14, 16), num(17, 19), num(20, 23)));
  }
  const m = timestampPattern.exec(text.trim());
  if (!m) return { problem: 'is not an ISO 8601 date-time' };
  const problem = fieldProblem(
    Number(m[1]),
    Number(m[2]),
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6] ?? '0'),
  );
  if (problem) return { problem };
  const [, y, mo, d, h, mi, sec, frac, zone] = m;
  const ms = (frac ?? '').slice(0, 3).padEnd(3, '0');
  let offset = zone === undefined || zone === 'Z' || zone === 'z' ? 'Z' : zone;
  if (/^[+-]\d{2}$/.test(offset)) offset = `${offset}:00`;
  else if (/^[+-]\d{4}$/.test(offset)) offset = `${offset.slice(0, 3)}:${offset.slice(3)}`;
  if (offset !== 'Z' && (Number(offset.slice(1, 3)) > 14 || Number(offset.slice(4, 6)) > 59))
    return { problem: `offset ${zone} is out of range` };
  return inRange(Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec ?? '00'}.${ms}${offset}`));
}

function inRange(parsed: number): { ms: number } | { problem: string } {
  if (Number.isNaN(parsed)) return { problem: 'is not an ISO 8601 date-time' };
  if (parsed < MIN_MS || parsed >= MAX_MS)
    return { problem: `is outside ${TIMESTAMP_MIN_YEAR}–${TIMESTAMP_MAX_YEAR} in UTC` };
  return { ms: parsed };
}

/** checkServiceTimestamp's instant, or null when the text is not a real time of 1970–2100. */
export function parseServiceTimestamp(text: string): number | null {
  const r = checkServiceTimestamp(text);
  return 'ms' in r ? r.ms : null;
}

/**
 * A timestamp as `YYYY-MM-DDTHH:MM:SS.mmmZ` and as epoch ms, or null when it is not one. Canonical
 * text that passed the strict check is its own normal form (a history sync, two per call, skips
 * re-formatting it).
 */
export function timestampParts(text: string): { iso: string; ms: number } | null {
  const ms = parseServiceTimestamp(text);
  if (ms === null) return null;
  return { iso: canonicalTimestamp.test(text) ? text : new Date(ms).toISOString(), ms };
}

/** The same instant as `YYYY-MM-DDTHH:MM:SS.mmmZ`, or null when it is not a timestamp. */
export function normalizeTimestamp(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  return timestampParts(text)?.iso ?? null;
}

// ---------------------------------------------------------------- history

/** `total` as a number, or null when the service did not say ("many"). */
export function normalizeTotal(total: number | string): number | null {
  if (typeof total === 'number') return total;
  return /^\s*\d+\s*$/.test(total) ? Number(total) : null;
}

/** A call record with its transcript as turns and its times as UTC ISO strings. */
export interface CallRecordView extends Omit<CallRecord, 'transcript' | 'created_at' | 'call_attempt_time'> {
  transcript: TranscriptTurnView[];
  created_at: string;
  call_attempt_time: string | null;
}

export interface HistoryPage {
  calls: CallRecordView[];
  limit: number;
  offset: number;
  count: number;
  /** Calls matching the query; null when the service gave no number (e.g. "many"). */
  total: number | null;
  /** Records of the page left out because they failed their schema (a date that does not exist, …). */
  skipped: number;
}

export function normalizeCallRecord(c: CallRecord): CallRecordView {
  return {
    ...c,
    transcript: normalizeTranscript(c.transcript),
    // The wire schema refuses an unreadable created_at, so this is never null here.
    created_at: normalizeTimestamp(c.created_at) ?? c.created_at,
    call_attempt_time: normalizeTimestamp(c.call_attempt_time),
  };
}

export function normalizeHistoryPage(r: HistoryResponse): HistoryPage {
  return {
    calls: r.calls.map(normalizeCallRecord),
    limit: r.limit,
    offset: r.offset,
    count: r.count,
    total: normalizeTotal(r.total),
    skipped: 0,
  };
}

// ---------------------------------------------------------------- uploads and balance

/** What a client does next with an upload: keep polling, go on, or fix the file. */
export type UploadPhase = 'in_progress' | 'done' | 'failed';

const uploadPhases: Record<string, UploadPhase> = {
  uploaded: 'in_progress',
  verifying: 'in_progress',
  processing: 'in_progress',
  completed: 'done',
  ready: 'done',
  // Started lists were processed first.
  scheduled: 'done',
  failed: 'failed',
};

/** The phase of a status name, or null for a name the docs do not use. */
export function uploadPhaseOf(status: string): UploadPhase | null {
  return uploadPhases[status.trim().toLowerCase()] ?? null;
}

export interface UploadStatusView {
  bulkListId: string;
  /** As the service wrote it (`verifying`, `uploaded`, `ready`, …). */
  status: string;
  phase: UploadPhase;
  campaignName: string | null;
  /** Rows in the file (guidance counters), when given. */
  totalRows: number | null;
  processedRows: number | null;
  /** Valid rows: `total_callees` (schema) or `successful_rows` (guidance). */
  validRows: number | null;
  /** Invalid rows: `invalidated_rows_count` (schema) or `failed_rows` (guidance). */
  invalidRows: number | null;
  invalidRowsCsvUrl: string | null;
  message: string | null;
}

/** Either counter set (or both) in one view; null when the status is not one the docs name. */
export function normalizeUploadStatus(r: UploadStatusResponse | UploadCsvResponse): UploadStatusView | null {
  const phase = uploadPhaseOf(r.status);
  if (phase === null) return null;
  const g = r as Partial<UploadStatusResponse>;
  return {
    bulkListId: r.bulk_list_id,
    status: r.status,
    phase,
    campaignName: r.campaign_name ?? null,
    totalRows: g.total_rows ?? null,
    processedRows: g.processed_rows ?? null,
    validRows: r.total_callees ?? g.successful_rows ?? null,
    invalidRows: r.invalidated_rows_count ?? g.failed_rows ?? null,
    invalidRowsCsvUrl: r.invalidated_rows_csv_url ?? null,
    message: r.message ?? null,
  };
}

export interface BalanceView {
  bulkListId: string | null;
  /** The list's state (`draft`) in the schema shape; null in the guidance shape. */
  status: string | null;
  message: string | null;
  requiredCredits: number | null;
  availableCredits: number | null;
  /** True/false when the service says (guidance shape); null when it does not (schema shape). */
  sufficientBalance: boolean | null;
}

export function normalizeBalance(r: BalanceResponse): BalanceView {
  const required = r.required_credits ?? null;
  const available = r.available_credits ?? null;
  return {
    bulkListId: r.bulk_list_id ?? null,
    status: r.status ?? null,
    message: r.message ?? null,
    requiredCredits: required,
    availableCredits: available,
    sufficientBalance:
      r.sufficient_balance ?? (required !== null && available !== null ? available >= required : null),
  };
}
