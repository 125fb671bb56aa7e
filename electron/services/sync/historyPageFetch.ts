// One history page with the pass's retry policy: capped exponential backoff with jitter, the
// service's Retry-After honoured, each attempt holding one of the pass's request slots
// (adaptiveLimit.ts) while it is in flight. Errors become SyncFailures the CLI and UI can show.
import type { HistoryPageText, HistoryQuery } from '../../../shared/service/history.ts';
import { isApiError } from '../api/apiError.ts';
import type { AdaptiveLimit } from './adaptiveLimit.ts';
import type { SyncPolicy } from './syncPolicy.ts';
import { SyncFailure, syncCancelled } from './syncProgress.ts';
import type { PassProgress } from './syncProgress.ts';

/** The one call the engine makes (the API client's listCallHistoryPage, with no retries of its own). */
export type FetchHistory = (query: HistoryQuery, opts: { signal: AbortSignal }) => Promise<HistoryPageText>;

export const abortableSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

const RETRYABLE = new Set(['rate_limited', 'server', 'unreachable', 'timeout', 'invalid_response']);

export interface PageFetchDeps {
  policy: SyncPolicy;
  progress: PassProgress;
  limiter: AdaptiveLimit;
  fetchHistory: FetchHistory;
  /** The requests' signal: Cancel, or the pass failing. */
  signal: AbortSignal;
  /** Throws the cancel failure when the caller cancelled. */
  checkAbort: () => void;
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
}

export function pageFetcher(d: PageFetchDeps): (q: HistoryQuery) => Promise<HistoryPageText> {
  const { policy, progress, limiter, signal, now } = d;
  const counters = progress.counters;
  return async function fetchPage(q: HistoryQuery): Promise<HistoryPageText> {
    for (let attempt = 1; ; attempt++) {
      d.checkAbort();
      try {
        // A window's first page goes ahead of the pages waiting: its total asks for the next ones.
        await limiter.acquire(signal, (q.offset ?? 0) === 0);
      } catch {
        throw syncCancelled();
      }
      const started = now();
      let page: HistoryPageText;
      try {
        page = await d.fetchHistory(q, { signal });
      } catch (error) {
        limiter.release();
        if (signal.aborted) throw syncCancelled();
        if (isApiError(error) && error.kind === 'unauthorized')
          throw new SyncFailure('key_rejected', 'The calling service rejected the API key (key rejected).');
        const retryable = isApiError(error) && RETRYABLE.has(error.kind);
        const reason = error instanceof Error ? error.message : String(error);
        if (!retryable) throw new SyncFailure('rejected', `History request refused: ${reason}`);
        const retryAfterMs =
          isApiError(error) && error.retryAfterSeconds !== undefined
            ? Math.min(policy.maxRetryAfterMs, error.retryAfterSeconds * 1000)
            : null;
        if (isApiError(error) && error.kind === 'rate_limited') limiter.rateLimited(retryAfterMs);
        if (attempt >= policy.maxAttempts)
          throw new SyncFailure('unreachable', `History page failed after ${attempt} attempts: ${reason}`);
        const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
        const delay = retryAfterMs ?? Math.round(exp / 2 + d.random() * (exp / 2));
        counters.retries++;
        progress.message = `Retrying in ${Math.max(1, Math.round(delay / 1000))} s (${isApiError(error) ? error.kind : 'error'})`;
        progress.report();
        await d.sleep(delay, signal).catch(() => {
          throw syncCancelled();
        });
        continue;
      }
      limiter.release();
      limiter.answered(now() - started, page.items >= (q.limit ?? 0));
      counters.pages++;
      if (progress.message !== null) {
        progress.message = null;
        progress.report();
      }
      return page;
    }
  };
}
