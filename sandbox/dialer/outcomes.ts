// What one dial attempt does: its outcome (seeded shares), how long it rings and talks, what it
// costs. Pure given the attempt's own random stream, so a call's story depends only on --seed, the
// call id and the attempt number (not on how many other calls were processed first).
import type { ResolvedCallConfig } from '../../shared/domain/callConfig.ts';
import type { CallSubStatus } from '../../shared/service/enums.ts';
import type { Rng } from '../rng.ts';
import { createRng } from '../rng.ts';

export type AttemptKind =
  'answered' | 'user_left' | 'idle' | 'long' | 'voicemail' | 'no_answer' | 'busy' | 'failed' | 'dnd';

/**
 * Shares of outcomes per attempt, in percent (documented in sandbox/README.md). `long` talkers run
 * into max_call_length; any answered call that does is MAX_CALL_DURATION. `dnd` only applies to a
 * call's first attempt (the number is on a do-not-disturb list, so it is never dialled).
 */
export const attemptShares: ReadonlyArray<readonly [AttemptKind, number]> = [
  ['answered', 40],
  ['user_left', 9],
  ['idle', 3],
  ['long', 2],
  ['voicemail', 8],
  ['no_answer', 23],
  ['busy', 9],
  ['failed', 3],
  ['dnd', 3],
];

const subStatusOf: Record<AttemptKind, CallSubStatus> = {
  answered: 'ACCEPTED',
  user_left: 'USER_LEFT',
  idle: 'USER_BECAME_IDLE',
  long: 'MAX_CALL_DURATION',
  voicemail: 'VOICEMAIL_DETECTED',
  no_answer: 'USER_DID_NOT_JOIN',
  busy: 'NOT_ABLE_TO_CALL',
  failed: 'FAILED',
  dnd: 'DND_SKIPPED',
};

export interface AttemptPlan {
  kind: AttemptKind;
  /** This attempt's own outcome (the row may show RETRY_SCHEDULED / RETRY_LIMIT_REACHED instead). */
  subStatus: CallSubStatus;
  /** A conversation (or a voicemail greeting) happened: transcript, recording, cost. */
  connected: boolean;
  voicemail: boolean;
  ringSeconds: number;
  /** `call_duration`: seconds connected (0 when not connected). */
  talkSeconds: number;
  /** How long the attempt holds a calling slot (ringing + talking). */
  holdMs: number;
  /** Minutes to wait before the next attempt when this outcome is retried; null: not retried. */
  retryDelayMinutes: number | null;
  latencySeconds: number | null;
  firstUtteranceSeconds: number | null;
}

/** The independent random stream of one attempt of one call. */
export function attemptRng(seed: number, callId: string, attempt: number): Rng {
  return createRng(`${seed}:dial:${callId}:${attempt}`);
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;
const between = (rng: Rng, lo: number, hi: number) => lo + rng.next() * (hi - lo);
/** A value that clusters in the middle of [lo, hi] (mean of two uniforms). */
const around = (rng: Rng, lo: number, hi: number) => (between(rng, lo, hi) + between(rng, lo, hi)) / 2;

/**
 * Plan one attempt. `allowDnd`: only a call's first attempt, and only when the call was not
 * already put through (an individual call the service answered as `ongoing`). `shares` overrides
 * the default table (the control API can, e.g. to make every call answer).
 */
export function planAttempt(
  rng: Rng,
  cfg: ResolvedCallConfig,
  opts: { allowDnd: boolean; shares?: ReadonlyArray<readonly [AttemptKind, number]> },
): AttemptPlan {
  // Always draw from the same table, so re-planning an attempt (after a restart) gives the same
  // story; a DND draw where DND cannot apply becomes an answered call.
  let kind = rng.weighted(opts.shares ?? attemptShares);
  if (kind === 'dnd' && !opts.allowDnd) kind = 'answered';
  const ring =
    kind === 'no_answer'
      ? between(rng, 30, 45)
      : kind === 'busy'
        ? between(rng, 2, 6)
        : kind === 'failed'
          ? between(rng, 1, 3)
          : kind === 'dnd'
            ? 0
            : between(rng, 3, 15);
  let talk: number;
  const max = cfg.maxCallLengthSeconds;
  switch (kind) {
    case 'answered':
      talk = around(rng, 25, 180);
      break;
    case 'user_left':
      talk = between(rng, 5, 40);
      break;
    case 'idle':
      talk = between(rng, 15, 60) + cfg.idleTimeoutWarningSeconds + cfg.idleTimeoutEndSeconds;
      break;
    case 'long':
      talk = max + between(rng, 10, 120);
      break;
    case 'voicemail':
      talk = between(rng, 8, 25);
      break;
    default:
      talk = 0;
  }
  if (talk > 0 && talk >= max) {
    talk = max;
    if (kind !== 'voicemail') kind = 'long';
  }
  const connected = talk > 0;
  const latency = connected ? round3(between(rng, 0.6, 1.8)) : null;
  const firstUtterance = connected ? round3(between(rng, 1.2, 3.5)) : null;
  const talkSeconds = round3(talk);
  return {
    kind,
    subStatus: subStatusOf[kind],
    connected,
    voicemail: kind === 'voicemail',
    ringSeconds: round3(ring),
    talkSeconds,
    holdMs: Math.round((ring + talkSeconds) * 1000),
    retryDelayMinutes:
      kind === 'no_answer'
        ? cfg.retryNotPickedMinutes
        : kind === 'busy'
          ? cfg.retryBusyMinutes
          : kind === 'failed'
            ? cfg.retryFailedMinutes
            : null,
    latencySeconds: latency,
    firstUtteranceSeconds: firstUtterance,
  };
}

/** Credits per connected minute, billed in 6-second pulses (documented in sandbox/README.md). */
export const creditsPerMinute = 1;

export function callCost(plan: Pick<AttemptPlan, 'connected' | 'talkSeconds'>): number {
  if (!plan.connected) return 0;
  return Math.round(Math.ceil(plan.talkSeconds / 6) * (creditsPerMinute / 10) * 100) / 100;
}
