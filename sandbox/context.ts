// Everything a part of the sandbox needs, in one object passed around explicitly. The dialer and
// webhook engines (sandbox/dialer, sandbox/webhooks) receive it in startDialer/startWebhooks.
import type { VirtualClock } from './clock.ts';
import { createClock } from './clock.ts';
import { SandboxEvents } from './events.ts';
import type { Rng } from './rng.ts';
import { createRng } from './rng.ts';
import { createStore, openDatabase } from './store/index.ts';
import type { Db, Store } from './store/index.ts';
import { defaultVariants } from './variants.ts';
import type { Variants } from './variants.ts';

export interface SandboxOptions {
  apiKey: string;
  /** Bearer token the agent subscription update must carry; null: none is checked (X-API-KEY only). */
  bearerToken: string | null;
  /** Persist here (SQLite file + recordings); null: memory (and a temporary files folder). */
  dataDir: string | null;
  seed: number;
  quiet: boolean;
  /** Virtual seconds per real second (0 freezes the clock until advanced). */
  clockSpeed: number;
}

export interface SandboxContext {
  readonly options: Readonly<SandboxOptions>;
  readonly db: Db;
  readonly store: Store;
  readonly clock: VirtualClock;
  /** The main simulation stream (ids, seeded data). */
  readonly rng: Rng;
  /** An independent deterministic stream for one purpose (e.g. 'dialer', 'webhooks'). */
  forkRng(label: string): Rng;
  readonly events: SandboxEvents;
  /** Folder for files the sandbox serves (recordings, …). */
  readonly filesDir: string;
  /** The service root, e.g. `http://127.0.0.1:4010/v0` (known once listening). */
  baseUrl(): string;
  log(message: string): void;
  /** Which documented shape each multi-shape answer takes (`POST /_sandbox/variants`); mutable. */
  readonly variants: Variants;
  /**
   * Fields served in place of a call's own in `GET /calling/history` (call id → fields), set only
   * through `POST /_sandbox/history-overrides`: how a test makes the service send a malformed record
   * (a date that does not exist, a number out of range). In memory; empty unless a test asks.
   */
  readonly historyOverrides: Map<string, Record<string, unknown>>;
}

export interface ContextInit {
  options: SandboxOptions;
  filesDir: string;
  baseUrl: () => string;
}

const clockOffsetKey = 'clock_offset_ms';
const bootKey = 'boot_count';

export function createContext(init: ContextInit): SandboxContext {
  const { options } = init;
  const log = (message: string) => {
    if (!options.quiet) console.error(`[sandbox] ${message}`);
  };
  const report = (e: unknown) =>
    log(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  const db = openDatabase(options.dataDir ?? undefined);
  const store = createStore(db);

  // A persisted sandbox keeps its virtual time across restarts (never going backwards), and each
  // boot draws ids from a new deterministic stream so they cannot collide with earlier ones.
  const savedOffset = Number(store.meta.get(clockOffsetKey) ?? '0');
  const boot = Number(store.meta.get(bootKey) ?? '0') + 1;
  store.meta.set(bootKey, String(boot));
  const clock = createClock({
    startMs: Date.now() + savedOffset,
    speed: options.clockSpeed,
    onError: report,
  });
  const rngSeed = `${options.seed}:${boot}`;

  return {
    options,
    db,
    store,
    clock,
    rng: createRng(rngSeed),
    forkRng: (label: string) => createRng(`${rngSeed}:${label}`),
    events: new SandboxEvents(report),
    filesDir: init.filesDir,
    baseUrl: init.baseUrl,
    log,
    variants: { ...defaultVariants },
    historyOverrides: new Map(),
  };
}

/** Remember how far virtual time is ahead of real time (called on advance and at close). */
export function saveClockOffset(ctx: SandboxContext): void {
  if (!ctx.db.open) return;
  ctx.store.meta.set(clockOffsetKey, String(Math.round(ctx.clock.nowMs() - Date.now())));
}
