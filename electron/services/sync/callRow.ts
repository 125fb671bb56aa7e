// One call record of the history → the columns stored in `calls` (made on the main thread; the
// turns are not stored apart: readers parse them from `raw`, as calls:get does).
import type { CallRecord } from '../../../shared/service/history.ts';
import {
  normalizeTranscript,
  parseServiceTimestamp,
  timestampParts,
} from '../../../shared/service/normalize.ts';
import type { TranscriptTurnView } from '../../../shared/service/normalize.ts';
import { terminalCallStatuses } from '../../../shared/service/enums.ts';

/** Recordings answer 410 this long after the call ended (the service's docs: 24 hours). */
export const RECORDING_LIFETIME_MS = 24 * 60 * 60 * 1000;

const terminal = new Set<string>(terminalCallStatuses);

export interface CallColumns {
  id: string;
  to_number: string | null;
  name: string | null;
  status: string;
  sub_status: string | null;
  terminal: number;
  created_at: string;
  created_ms: number;
  /** When the call was dialled (epoch ms), null when it never was. */
  attempt_ms: number | null;
  call_duration: number | null;
  call_cost: number | null;
  voicemail: number | null;
  agent_id: string | null;
  agent_name: string | null;
  transcript_raw: string | null;
  transcript_text: string;
  number_text: string;
  raw: string;
  /** The recording URL and when it stops working (null: no recording yet). */
  recordingUrl: string | null;
  recordingExpiresMs: number | null;
}

/** Transcript turns, or the text as received when it is not a list of turns. */
export function parseTranscript(value: CallRecord['transcript']): {
  turns: TranscriptTurnView[];
  raw: string | null;
} {
  if (value === null || value === undefined) return { turns: [], raw: null };
  const turns = normalizeTranscript(value);
  if (turns.length > 0) return { turns, raw: null };
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // An empty list is a conversation with no turns, not an unreadable one.
  return { turns, raw: /^\s*(\[\s*\])?\s*$/.test(text) ? null : text };
}

/** Digits of a number, and its last ten (a local number is found without its country code). */
export function numberText(toNumber: string | null | undefined): string {
  const digits = (toNumber ?? '').replace(/\D/g, '');
  if (digits === '') return '';
  return digits.length > 10 ? `${digits} ${digits.slice(-10)}` : digits;
}

export function callColumns(r: CallRecord): CallColumns {
  const created = timestampParts(r.created_at);
  const createdAt = created?.iso ?? r.created_at;
  const createdMs = created?.ms ?? NaN;
  const { turns, raw } = parseTranscript(r.transcript);
  const attemptMs = r.call_attempt_time ? (parseServiceTimestamp(r.call_attempt_time) ?? NaN) : NaN;
  const endedMs = (Number.isNaN(attemptMs) ? createdMs : attemptMs) + (r.call_duration ?? 0) * 1000;
  return {
    id: r.id,
    to_number: r.to_number ?? null,
    name: r.name ?? null,
    status: r.status,
    sub_status: r.sub_status ?? null,
    terminal: terminal.has(r.status) ? 1 : 0,
    created_at: createdAt,
    created_ms: createdMs,
    attempt_ms: Number.isNaN(attemptMs) ? null : attemptMs,
    call_duration: r.call_duration ?? null,
    call_cost: r.call_cost ?? null,
    voicemail:
      r.voicemail_detected === null || r.voicemail_detected === undefined
        ? null
        : r.voicemail_detected
          ? 1
          : 0,
    agent_id: r.agent?.id ?? null,
    agent_name: r.agent?.agent_name ?? null,
    transcript_raw: raw,
    transcript_text: raw ?? turns.map((t) => t.text).join('\n'),
    number_text: numberText(r.to_number),
    raw: JSON.stringify(r),
    recordingUrl: r.audio_recording ?? null,
    recordingExpiresMs:
      r.audio_recording && Number.isFinite(endedMs) ? endedMs + RECORDING_LIFETIME_MS : null,
  };
}

/**
 * Rows as columns (one array per field, index i of each is row i): what the sync sends to the DB
 * worker. Structured clone copies an array of row objects with every field name of every row, and
 * the worker rebuilds each object; measured on 16,000-row batches, columns cost the worker about a
 * third and the sender a little less.
 */
export type CallColumnsBatch = { [K in keyof CallColumns]: Array<CallColumns[K]> };

const COLUMN_KEYS = [
  'id',
  'to_number',
  'name',
  'status',
  'sub_status',
  'terminal',
  'created_at',
  'created_ms',
  'attempt_ms',
  'call_duration',
  'call_cost',
  'voicemail',
  'agent_id',
  'agent_name',
  'transcript_raw',
  'transcript_text',
  'number_text',
  'raw',
  'recordingUrl',
  'recordingExpiresMs',
] as const satisfies ReadonlyArray<keyof CallColumns>;

/** Rows → columns (rows appended to `into` when given). */
export function columnsBatch(rows: readonly CallColumns[], into?: CallColumnsBatch): CallColumnsBatch {
  const b = into ?? (Object.fromEntries(COLUMN_KEYS.map((k) => [k, []])) as unknown as CallColumnsBatch);
  for (const k of COLUMN_KEYS) {
    const column = b[k] as unknown[];
    for (const r of rows) column.push(r[k]);
  }
  return b;
}

/** Row `i` of a batch. */
export function rowAt(b: CallColumnsBatch, i: number): CallColumns {
  const row = {} as Record<string, unknown>;
  for (const k of COLUMN_KEYS) row[k] = b[k][i];
  return row as unknown as CallColumns;
}
