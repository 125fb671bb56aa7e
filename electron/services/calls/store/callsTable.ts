// The calls table's columns, written once: the sync's insert and update are made from this list,
// and the reads' summary columns and row shape (the Calls table, a call's detail) live beside it.
import { z } from 'zod';
import type { CallSummary } from '../../../../shared/ipc/channels/calls.ts';
import type { CallOutcome } from '../../../../shared/domain/callOutcome.ts';
import { outcomeSql } from '../../../../shared/domain/callOutcome.ts';
import { callRecordSchema } from '../../../../shared/service/history.ts';
import type { CallColumns, CallColumnsBatch } from '../../sync/callRow.ts';
import { storedJson } from '../../db/storedJson.ts';

/** The stored columns of a call, in the order the insert binds them. */
export const CALL_COLUMNS = [
  'id',
  'workspace_id',
  'bulk_list_id',
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
  'first_seen_at',
  'updated_at',
] as const;
export type CallColumn = (typeof CALL_COLUMNS)[number];

/** A call row as written: every stored column by name (bound as `@column`). */
export type StoredCallRow = Record<CallColumn, string | number | null>;

export const storedCallRow = (
  c: CallColumns,
  workspaceId: string,
  bulkListId: string | null,
  now: string,
): StoredCallRow => ({
  id: c.id,
  workspace_id: workspaceId,
  bulk_list_id: bulkListId,
  to_number: c.to_number,
  name: c.name,
  status: c.status,
  sub_status: c.sub_status,
  terminal: c.terminal,
  created_at: c.created_at,
  created_ms: c.created_ms,
  attempt_ms: c.attempt_ms,
  call_duration: c.call_duration,
  call_cost: c.call_cost,
  voicemail: c.voicemail,
  agent_id: c.agent_id,
  agent_name: c.agent_name,
  transcript_raw: c.transcript_raw,
  transcript_text: c.transcript_text,
  number_text: c.number_text,
  raw: c.raw,
  first_seen_at: now,
  updated_at: now,
});

/**
 * Row `i`'s values in CALL_COLUMNS order, for the insert's positional parameters: the sync inserts
 * 100,000 rows, and binding 22 named parameters from an object looks each name up on every row.
 */
export const callValues = (
  b: CallColumnsBatch,
  i: number,
  workspaceId: string,
  bulkListId: string | null,
  now: string,
): Array<string | number | null> => [
  b.id[i]!,
  workspaceId,
  bulkListId,
  b.to_number[i]!,
  b.name[i]!,
  b.status[i]!,
  b.sub_status[i]!,
  b.terminal[i]!,
  b.created_at[i]!,
  b.created_ms[i]!,
  b.attempt_ms[i]!,
  b.call_duration[i]!,
  b.call_cost[i]!,
  b.voicemail[i]!,
  b.agent_id[i]!,
  b.agent_name[i]!,
  b.transcript_raw[i]!,
  b.transcript_text[i]!,
  b.number_text[i]!,
  b.raw[i]!,
  now,
  now,
];

/** A new call (bound from `callValues`); a known id is left to the caller. */
export const INSERT_CALL_SQL = `INSERT INTO calls (${CALL_COLUMNS.join(', ')})
  VALUES (${CALL_COLUMNS.map(() => '?').join(', ')}) ON CONFLICT (id) DO NOTHING`;

/**
 * A changed call rewritten: every column but its id and when it was first seen; a page read
 * without a campaign keeps the campaign a per-campaign page gave it.
 */
export const UPDATE_CALL_SQL = `UPDATE calls SET ${CALL_COLUMNS.filter(
  (c) => c !== 'id' && c !== 'first_seen_at',
)
  .map((c) => (c === 'bulk_list_id' ? `${c} = coalesce(@${c}, ${c})` : `${c} = @${c}`))
  .join(', ')}
  WHERE id = @id`;

/** A call's outcome (the outcome table of shared/domain/callOutcome.ts, as SQL over `calls c`). */
export const CALL_OUTCOME = outcomeSql('c.status', 'c.sub_status', 'c.voicemail');

/** The columns of a call's summary (the Calls table's row), over `calls c`. */
export const SUMMARY_COLUMNS = `c.id, c.workspace_id, c.bulk_list_id, c.to_number, c.name, c.status, c.sub_status, c.created_at,
  c.attempt_ms, ${CALL_OUTCOME} AS outcome, c.call_duration, c.call_cost, c.voicemail, c.agent_id, c.agent_name,
  coalesce((SELECT state FROM recordings r WHERE r.seq = c.seq), 'none') AS recording`;

export interface SummaryRow {
  id: string;
  workspace_id: string;
  bulk_list_id: string | null;
  to_number: string | null;
  name: string | null;
  status: string;
  sub_status: string | null;
  created_at: string;
  attempt_ms: number | null;
  outcome: CallOutcome;
  call_duration: number | null;
  call_cost: number | null;
  voicemail: number | null;
  agent_id: string | null;
  agent_name: string | null;
  recording: CallSummary['recording'];
}

/** What a call's summary and its detail share, from its summary row. */
export const summaryFields = (r: SummaryRow) => ({
  id: r.id,
  workspaceId: r.workspace_id,
  bulkListId: r.bulk_list_id,
  toNumber: r.to_number,
  name: r.name,
  status: r.status,
  subStatus: r.sub_status,
  createdAt: r.created_at,
  attemptedAt: r.attempt_ms === null ? null : new Date(r.attempt_ms).toISOString(),
  outcome: r.outcome,
  callDuration: r.call_duration,
  callCost: r.call_cost,
  voicemail: r.voicemail === null ? null : r.voicemail === 1,
  agentId: r.agent_id,
  agentName: r.agent_name,
});

export const toSummary = (r: SummaryRow): CallSummary => ({
  ...summaryFields(r),
  recording: r.recording,
  snippet: null,
});

/**
 * The fields of a stored record (`calls.raw`, the record as received) that the reads use. Loose
 * on purpose: the record passed the service's schema when it was stored.
 */
export const storedCallRecord = storedJson(
  z.object({
    call_type: z.string().nullish(),
    call_attempt_time: z.string().nullish(),
    from_numbers: z.array(z.string()).nullish(),
    inbound_from: z.string().nullish(),
    credits_processed: z.boolean().nullish(),
    transcript: callRecordSchema.shape.transcript,
  }),
  'call record',
);
