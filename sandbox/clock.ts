// The sandbox's virtual clock. Virtual time flows at `speed` × real time (0 freezes it, for tests;
// large values for demos) and jumps forward with `advance`. Timers and tick listeners always run in
// virtual-time order, at most `tickSeconds` apart, so a simulation driven by them sees every step
// of a big jump at the right virtual instant.
import { MinHeap } from './heap.ts';
import type { HeapItem } from './heap.ts';

export type TickListener = (nowMs: number) => void;

export interface VirtualClock {
  now(): Date;
  nowMs(): number;
  /** Jump forward; runs every timer and tick that falls inside the jump, in order, synchronously. */
  advance(seconds: number): void;
  speed(): number;
  setSpeed(factor: number): void;
  /** Called after each step with the step's virtual time. Returns an unsubscribe function. */
  onTick(listener: TickListener): () => void;
  /** Run `fn` when virtual time reaches `atMs` (at once on the next step if already past). */
  schedule(atMs: number, fn: () => void): () => void;
  /** Longest virtual gap between two ticks during a jump (default 1 s). */
  setTickSeconds(seconds: number): void;
  /** Start/stop following real time (a 100 ms real-time driver). */
  start(): void;
  stop(): void;
}

interface Timer extends HeapItem {
  fn: () => void;
  cancelled: boolean;
}

export interface ClockOptions {
  startMs: number;
  speed: number;
  /** Reports listener/timer failures (they must not stop the clock). */
  onError?: (e: unknown) => void;
  realNow?: () => number;
}

export function createClock(opts: ClockOptions): VirtualClock {
  const realNow = opts.realNow ?? (() => performance.timeOrigin + performance.now());
  let anchorVirtual = opts.startMs;
  let anchorReal = realNow();
  let factor = opts.speed;
  /** Virtual time up to which timers and ticks have run. */
  let cursor = opts.startMs;
  let tickMs = 1000;
  let seq = 0;
  let running = false;
  let driver: ReturnType<typeof setInterval> | null = null;
  const timers = new MinHeap<Timer>();
  const listeners = new Set<TickListener>();

  const flowing = () => anchorVirtual + (realNow() - anchorReal) * factor;
  const nowMs = () => (running ? cursor : Math.max(cursor, flowing()));

  const guard = (fn: () => void) => {
    try {
      fn();
    } catch (e) {
      opts.onError?.(e);
    }
  };

  /** Step virtual time to `target`, firing timers and ticks in order. */
  function runUntil(target: number) {
    if (running) return; // a timer that advances the clock would re-enter: ignore
    running = true;
    try {
      fireDue();
      while (cursor < target) {
        const nextTimer = timers.peek();
        let step = Math.min(target, cursor + tickMs);
        if (nextTimer && nextTimer.at > cursor && nextTimer.at < step) step = nextTimer.at;
        cursor = step;
        fireDue();
        for (const l of [...listeners]) guard(() => l(cursor));
      }
      fireDue();
    } finally {
      running = false;
    }
  }

  function fireDue() {
    for (let t = timers.peek(); t && t.at <= cursor; t = timers.peek()) {
      timers.pop();
      if (!t.cancelled) guard(t.fn);
    }
  }

  function reanchor(virtualMs: number) {
    anchorVirtual = virtualMs;
    anchorReal = realNow();
  }

  return {
    now: () => new Date(nowMs()),
    nowMs,
    advance(seconds: number) {
      if (!(seconds >= 0) || !Number.isFinite(seconds))
        throw new RangeError('advance needs a non-negative number of seconds');
      const target = Math.max(cursor, flowing()) + seconds * 1000;
      reanchor(target);
      runUntil(target);
    },
    speed: () => factor,
    setSpeed(f: number) {
      if (!(f >= 0) || !Number.isFinite(f)) throw new RangeError('speed must be a non-negative number');
      reanchor(Math.max(cursor, flowing()));
      factor = f;
    },
    onTick(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    schedule(atMs, fn) {
      const t: Timer = { at: atMs, seq: seq++, fn, cancelled: false };
      timers.push(t);
      return () => {
        t.cancelled = true;
      };
    },
    setTickSeconds(seconds: number) {
      if (!(seconds > 0)) throw new RangeError('tick must be positive');
      tickMs = seconds * 1000;
    },
    start() {
      if (driver) return;
      driver = setInterval(() => {
        if (factor > 0) runUntil(flowing());
      }, 100);
      driver.unref();
    },
    stop() {
      if (driver) clearInterval(driver);
      driver = null;
    },
  };
}
