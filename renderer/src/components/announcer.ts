import { useState } from 'react';
import { create } from 'zustand';

// One place that speaks to screen readers: the <LiveAnnouncer/> regions (rendered once by the
// shell) read what `announce()` puts here. Long work (imports, syncs, launches) reports progress
// through a ProgressThrottle so a screen reader hears it at a calm rate, not on every update.

export type Politeness = 'polite' | 'assertive';

interface AnnouncerState {
  polite: { text: string; id: number };
  assertive: { text: string; id: number };
}

let nextId = 1;

export const useAnnouncer = create<AnnouncerState>(() => ({
  polite: { text: '', id: 0 },
  assertive: { text: '', id: 0 },
}));

/** Says `text` through the live region (polite waits for a pause; assertive interrupts). */
export function announce(text: string, politeness: Politeness = 'polite'): void {
  useAnnouncer.setState({ [politeness]: { text, id: nextId++ } });
}

export interface ThrottleOptions {
  /** At most one progress message per this many ms… */
  intervalMs?: number;
  /** …unless the work has moved on by at least this fraction since the last one. */
  step?: number;
  now?: () => number;
}

/**
 * Decides when a progress update is worth saying: the first one, then once `intervalMs` has passed
 * or the fraction done has grown by `step` (default: every 10 s or every 10%), whichever comes first.
 * Never more often than every `step` when updates come fast, never silent for longer than
 * `intervalMs` while updates keep coming.
 */
export class ProgressThrottle {
  private readonly intervalMs: number;
  private readonly step: number;
  private readonly now: () => number;
  private lastAt = -Infinity;
  private lastFraction = -Infinity;

  constructor({ intervalMs = 10_000, step = 0.1, now = () => Date.now() }: ThrottleOptions = {}) {
    this.intervalMs = intervalMs;
    this.step = step;
    this.now = now;
  }

  /** True when an update at `fraction` (0..1, or null when unknown) should be announced. */
  shouldAnnounce(fraction: number | null): boolean {
    const at = this.now();
    const moved = fraction !== null && fraction - this.lastFraction >= this.step - 1e-9;
    if (at - this.lastAt < this.intervalMs && !moved) return false;
    this.lastAt = at;
    if (fraction !== null) this.lastFraction = fraction;
    return true;
  }

  reset(): void {
    this.lastAt = -Infinity;
    this.lastFraction = -Infinity;
  }
}

export interface ProgressAnnouncer {
  /** A progress update: announced only when the throttle lets it through. */
  progress(fraction: number | null, text: string): void;
  /** The end of the work (done, failed, cancelled): always announced, and the throttle restarts. */
  finish(text: string, politeness?: Politeness): void;
}

/** A throttled announcer for one piece of long work, kept across renders. */
export function createProgressAnnouncer(options?: ThrottleOptions): ProgressAnnouncer {
  const throttle = new ProgressThrottle(options);
  return {
    progress(fraction, text) {
      if (throttle.shouldAnnounce(fraction)) announce(text);
    },
    finish(text, politeness = 'polite') {
      throttle.reset();
      announce(text, politeness);
    },
  };
}

/** createProgressAnnouncer() for a component (one per mounted component). */
export function useProgressAnnouncer(options?: ThrottleOptions): ProgressAnnouncer {
  const [announcer] = useState(() => createProgressAnnouncer(options));
  return announcer;
}
