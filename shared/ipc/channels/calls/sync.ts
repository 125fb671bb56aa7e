import { z } from 'zod';
import { count, workspaceId } from './fields.ts';
import { recordingCountsSchema } from './recordings.ts';

// A workspace's history sync as the UI sees it: its status and progress, and the records it refused.

export const SYNC_STATES = ['idle', 'running', 'done', 'failed', 'cancelled'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

/** A history record a sync refused. */
export const quarantinedRecordSchema = z.object({
  /** The record's call id, when it had a readable one. */
  callId: z.string().nullable(),
  /** The first failing field (`created_at`, `call_cost`, `record`). */
  field: z.string(),
  reason: z.string(),
  /** The record as received (JSON, at most 64 KiB). */
  raw: z.string(),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
});
export type QuarantinedRecord = z.infer<typeof quarantinedRecordSchema>;

/** One workspace's sync: what the current (or last) pass did, and what is stored. */
export const syncStatusSchema = z.object({
  workspaceId,
  state: z.enum(SYNC_STATES),
  /** What a running pass is doing now. */
  phase: z.enum(['history', 'revisit', 'campaigns', 'recordings']).nullable(),
  /** This pass: call records received, new ones, changed ones, pages read, retried requests. */
  received: count,
  inserted: count,
  updated: count,
  pages: count,
  retries: count,
  /** This pass: records refused by their schema (bad date, number out of range), quarantined. */
  skipped: count,
  /** Refused records kept for the workspace (listed by `calls:quarantine`). */
  quarantined: count,
  /** Time windows of this pass done / planned (a progress bar). */
  windowsDone: count,
  windowsTotal: count,
  /** Calls stored for the workspace. */
  calls: count,
  recordings: recordingCountsSchema,
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** When a pass last stored every page (the history is complete up to `watermark`). */
  lastSyncedAt: z.string().nullable(),
  watermark: z.string().nullable(),
  /** Why a pass failed or what it waits for ("Key rejected", "Retrying in 4 s (server error)"). */
  message: z.string().nullable(),
});
export type SyncStatus = z.infer<typeof syncStatusSchema>;
