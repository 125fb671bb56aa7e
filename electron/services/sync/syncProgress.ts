// What a history sync pass reports while it runs (counters, phase, a message such as a retry) and
// how it fails (SyncFailure: the CLI prints its message, the UI shows it).

export interface SyncCounters {
  received: number;
  inserted: number;
  updated: number;
  pages: number;
  retries: number;
  /** Distinct records of this pass refused by their schema (quarantined with the reason). */
  skipped: number;
  windowsDone: number;
  windowsTotal: number;
}

export interface SyncProgress extends SyncCounters {
  phase: 'history' | 'revisit' | 'campaigns';
  message: string | null;
}

/** Why a pass stopped without storing everything (the CLI prints `message`, the UI shows it). */
export class SyncFailure extends Error {
  readonly code: 'key_rejected' | 'unreachable' | 'rejected' | 'cancelled';
  constructor(code: SyncFailure['code'], message: string) {
    super(message);
    this.name = 'SyncFailure';
    this.code = code;
  }
}

export const syncCancelled = (): SyncFailure => new SyncFailure('cancelled', 'Sync cancelled');

/** The pass's counters, phase and message, shared by its parts; `report` hands a copy to the listener. */
export interface PassProgress {
  readonly counters: SyncCounters;
  phase: SyncProgress['phase'];
  message: string | null;
  report(): void;
}

export function passProgress(onProgress?: (p: SyncProgress) => void): PassProgress {
  const p: PassProgress = {
    counters: {
      received: 0,
      inserted: 0,
      updated: 0,
      pages: 0,
      retries: 0,
      skipped: 0,
      windowsDone: 0,
      windowsTotal: 0,
    },
    phase: 'history',
    message: null,
    report: () => onProgress?.({ ...p.counters, phase: p.phase, message: p.message }),
  };
  return p;
}
