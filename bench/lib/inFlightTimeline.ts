// Where a sync's network time goes: each history request's start and end (as the client saw them),
// folded into the seconds spent with 0, 1, 2, … requests in flight. With a per-response bandwidth
// cap the pass is only as fast as the slots kept busy, so the seconds below the limit are the
// time lost to scheduling (a window's first page alone, the tail).
import type { FetchHistory } from '../../electron/services/sync/historySync.ts';

export interface InFlightTimeline {
  /** The fetcher to hand to the sync: records each request. */
  fetchHistory: FetchHistory;
  /** Seconds with k requests in flight (index k), from the first request to `endMs`. */
  secondsAt(endMs?: number): number[];
  /** Requests made, and how many of them were a window's first page (offset 0). */
  requests(): { all: number; firstPages: number };
}

export function inFlightTimeline(inner: FetchHistory): InFlightTimeline {
  const spans: Array<{ start: number; end: number; first: boolean }> = [];
  let t0: number | null = null;
  return {
    async fetchHistory(query, opts) {
      const start = performance.now();
      t0 ??= start;
      try {
        return await inner(query, opts);
      } finally {
        spans.push({ start, end: performance.now(), first: (query.offset ?? 0) === 0 });
      }
    },
    secondsAt(endMs = performance.now()) {
      const edges = spans.flatMap((s) => [
        [s.start, 1],
        [s.end, -1],
      ]) as Array<[number, number]>;
      edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const at: number[] = [0];
      let inFlight = 0;
      let last = t0 ?? endMs;
      for (const [t, d] of [...edges, [endMs, 0] as [number, number]]) {
        at[inFlight] = (at[inFlight] ?? 0) + (t - last) / 1000;
        last = t;
        inFlight += d;
      }
      return Array.from(at, (s) => +(s ?? 0).toFixed(2));
    },
    requests: () => ({ all: spans.length, firstPages: spans.filter((s) => s.first).length }),
  };
}
