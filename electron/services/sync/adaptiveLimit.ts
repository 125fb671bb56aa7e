// How many history requests a pass keeps in flight (per workspace: one pass runs per workspace).
// Additive increase, multiplicative decrease: the limit is halved on a 429 (and every request waits
// out its Retry-After) or when full pages start taking twice as long as the fastest seen (median of
// 4 in a row: the service or the link is saturating); it grows by one after a run of pages answered normally, up to
// the maximum. Waiting requests are served first come, first served, so pages leave in the order
// they were asked for (the order they are stored in), except that an `ahead` request (a window's
// first page: its total is what asks for the next pages) goes before the others waiting, so the
// slots never run dry while the next window is being found (measured: with it behind the window
// before, the network bench kept 4 in flight only half the time).

export interface AdaptiveLimitOptions {
  max: number;
  /** A limit change grows the limit by one after this many pages in a row answered normally. */
  growAfterPages: number;
  /** Median of the last 4 full-page latencies above this × the lowest such median seen: halve. */
  latencyRiseFactor: number;
  now?: () => number;
  onChange?: (limit: number, reason: 'rate_limited' | 'latency' | 'grow') => void;
}

export interface LimitFigures {
  /** The limit at the end. */
  limit: number;
  /** The lowest it went. */
  lowest: number;
  /** Most requests in flight at once. */
  peakInFlight: number;
  halvings: number;
}

const SAMPLES = 4;

export class AdaptiveLimit {
  private limit: number;
  private inFlight = 0;
  private pausedUntil = 0;
  private pauseTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly queue: Array<{ grant: () => void; ahead: boolean }> = [];
  private fastest = Infinity;
  private recent: number[] = [];
  private goodInARow = 0;
  private readonly figures: LimitFigures;
  private readonly o: AdaptiveLimitOptions;
  private readonly now: () => number;

  constructor(o: AdaptiveLimitOptions) {
    this.o = o;
    this.now = o.now ?? Date.now;
    this.limit = Math.max(1, Math.floor(o.max));
    this.figures = { limit: this.limit, lowest: this.limit, peakInFlight: 0, halvings: 0 };
  }

  stats(): LimitFigures {
    return { ...this.figures, limit: this.limit };
  }

  /**
   * Resolves when this request may go; rejects with the signal's reason when aborted first.
   * `ahead`: served before the requests waiting that are not (first come, first served among them).
   */
  acquire(signal: AbortSignal, ahead = false): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.queue.indexOf(entry);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal.reason as Error);
      };
      const entry = {
        ahead,
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const behind = ahead ? this.queue.findIndex((e) => !e.ahead) : -1;
      if (behind >= 0) this.queue.splice(behind, 0, entry);
      else this.queue.push(entry);
      this.pump();
    });
  }

  release(): void {
    this.inFlight--;
    this.pump();
  }

  /**
   * A page answered; `fullPage`: a page of the full size (their latencies are comparable). The
   * baseline is the lowest median of 4 full pages in a row, not the lowest single page: on a busy
   * machine one lucky page would make every later one look slow (measured: a 100,000-call sync at
   * load 18 halved 7 times down to 1 and lost all its overlap).
   */
  answered(latencyMs: number, fullPage: boolean): void {
    if (fullPage) {
      this.recent.push(latencyMs);
      if (this.recent.length > SAMPLES) this.recent.shift();
      if (this.recent.length === SAMPLES) {
        const sorted = [...this.recent].sort((a, b) => a - b);
        const median = (sorted[1]! + sorted[2]!) / 2;
        this.fastest = Math.min(this.fastest, median);
        if (median > this.o.latencyRiseFactor * this.fastest) {
          this.halve('latency');
          return;
        }
      }
    }
    if (++this.goodInARow >= this.o.growAfterPages && this.limit < this.o.max) {
      this.limit++;
      this.goodInARow = 0;
      this.o.onChange?.(this.limit, 'grow');
      this.pump();
    }
  }

  /** A 429: halve, and nothing leaves before Retry-After has passed. */
  rateLimited(retryAfterMs: number | null): void {
    if (retryAfterMs !== null && retryAfterMs > 0) {
      this.pausedUntil = Math.max(this.pausedUntil, this.now() + retryAfterMs);
    }
    this.halve('rate_limited');
  }

  private halve(reason: 'rate_limited' | 'latency'): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.figures.lowest = Math.min(this.figures.lowest, this.limit);
    this.figures.halvings++;
    this.goodInARow = 0;
    // Judge the new limit on its own samples (the fastest stays: it is the link's best).
    this.recent = [];
    this.o.onChange?.(this.limit, reason);
    this.pump();
  }

  private pump(): void {
    const wait = this.pausedUntil - this.now();
    if (wait > 0) {
      if (this.pauseTimer === null && this.queue.length > 0) {
        this.pauseTimer = setTimeout(() => {
          this.pauseTimer = null;
          this.pump();
        }, wait);
      }
      return;
    }
    while (this.queue.length > 0 && this.inFlight < this.limit) {
      this.inFlight++;
      this.figures.peakInFlight = Math.max(this.figures.peakInFlight, this.inFlight);
      this.queue.shift()!.grant();
    }
  }
}
