import { z } from 'zod';
import { count } from './fields.ts';

// Recordings saved in the data folder: a call's recording state and file, the counts per state, and
// the disk usage with its retention and size cap.

/** Where a call's recording stands on this machine. */
export const RECORDING_STATES = ['pending', 'saved', 'expired', 'failed', 'none'] as const;
export type RecordingState = (typeof RECORDING_STATES)[number];
export const recordingStateSchema = z.enum(RECORDING_STATES);

export const recordingCountsSchema = z.object({
  pending: count,
  saved: count,
  expired: count,
  failed: count,
  none: count,
});
export type RecordingCounts = z.infer<typeof recordingCountsSchema>;

export const recordingInfoSchema = z.object({
  state: recordingStateSchema,
  /** Absolute path of the saved file (shown to the operator), or null. */
  path: z.string().nullable(),
  bytes: count.nullable(),
  sha256: z.string().nullable(),
  /** When the service's URL stops working (UTC ISO), when known. */
  expiresAt: z.string().nullable(),
  attempts: count,
  error: z.string().nullable(),
  /**
   * Same-origin address that plays the saved file offline (browser host: a tokened
   * `/recordings/<token>`; Electron: `app://desk/recordings/<token>`), or null when not saved.
   * Never the service's URL and never a secret.
   */
  playUrl: z.string().nullable(),
});
export type RecordingInfo = z.infer<typeof recordingInfoSchema>;

export const diskUsageSchema = z.object({
  /** Bytes of recordings in the data folder (saved and partial downloads); files: saved ones. */
  bytes: count,
  files: count,
  /** Of `bytes`, the downloads under way or waiting to be resumed (`.part` files). */
  partialBytes: count,
  folder: z.string(),
  /** Saved recordings older than this many days are deleted (state back to `expired`); null = keep. */
  retentionDays: z.number().int().positive().nullable(),
  /** A recording larger than this many MB (1,000,000 bytes) is not downloaded (default 200). */
  maxMegabytes: z.number().int().positive(),
  byState: recordingCountsSchema,
});
export type DiskUsage = z.infer<typeof diskUsageSchema>;
