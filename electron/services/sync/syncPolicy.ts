// The knobs of a history sync pass (page size, retries, window sizing, requests in flight) and
// their defaults; a caller overrides some of them (tests, the bench, the in-flight setting).

export interface SyncPolicy {
  pageSize: number;
  /** Attempts per page before the pass fails. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After honoured as given (longer ones are capped to this). */
  maxRetryAfterMs: number;
  /** A window reporting more calls than this is split in two (down to minWindowMs). */
  maxWindowCalls: number;
  /** Windows are sized for about this many calls (a few pages: small offsets, cheap rechecks). */
  targetWindowCalls: number;
  initialWindowMs: number;
  maxWindowMs: number;
  minWindowMs: number;
  /** Adjacent windows overlap by this much; an incremental pass starts this long before the watermark. */
  windowOverlapMs: number;
  incrementalOverlapMs: number;
  /** First pass of a workspace: this far back. */
  firstLookbackMs: number;
  /** History requests in flight at most (the limit halves on a 429 or rising latency). */
  maxInFlight: number;
  /** After this many pages in a row answered normally, one more request may be in flight. */
  growAfterPages: number;
  /** Full pages taking this many times the fastest one (median of the last 4): halve the limit. */
  latencyRiseFactor: number;
}

export const defaultSyncPolicy: SyncPolicy = {
  pageSize: 1000,
  maxAttempts: 8,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
  maxWindowCalls: 20_000,
  targetWindowCalls: 5000,
  initialWindowMs: 24 * 3600_000,
  maxWindowMs: 14 * 24 * 3600_000,
  minWindowMs: 60_000,
  windowOverlapMs: 1000,
  incrementalOverlapMs: 15 * 60_000,
  firstLookbackMs: 90 * 24 * 3600_000,
  maxInFlight: 4,
  growAfterPages: 8,
  latencyRiseFactor: 2,
};
