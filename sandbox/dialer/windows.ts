// When a call may be dialled: not before the campaign window opens (and scheduled_at), only inside
// the daily call window (call_start_time–call_end_time in its IANA zone), and never at or after the
// campaign window end. Zone arithmetic is Intl-based (shared/domain), so results are cached per
// window: a campaign asks thousands of times within the same open stretch.
import {
  isWithinCallWindow,
  nextCallWindowClose,
  nextCallWindowOpening,
} from '../../shared/domain/callConfig.ts';
import type { CallWindow } from '../../shared/domain/callConfig.ts';
import { parseIsoDateTime } from '../../shared/domain/dates.ts';

export interface DialGateSpec {
  /** Campaign window start (epoch ms), or null. */
  notBefore: number | null;
  /** Campaign window end (epoch ms): nothing is dialled at or after it; null: open-ended. */
  endsAt: number | null;
  /** Daily window; null: any time of day. */
  daily: CallWindow | null;
}

export interface DialGate {
  readonly spec: DialGateSpec;
  /** The first instant ≥ `t` at which a call may be dialled, or null when none remains. */
  nextDialTime(t: number): number | null;
}

export function createDialGate(spec: DialGateSpec): DialGate {
  // One cached open stretch of the daily window: [openFrom, openUntil).
  let openFrom = Number.POSITIVE_INFINITY;
  let openUntil = Number.NEGATIVE_INFINITY;

  function openAt(t: number, daily: CallWindow): number {
    if (t >= openFrom && t < openUntil) return t;
    const opening = isWithinCallWindow(t, daily) ? t : nextCallWindowOpening(t, daily);
    openFrom = opening;
    openUntil = nextCallWindowClose(opening, daily) ?? Number.POSITIVE_INFINITY;
    return opening;
  }

  return {
    spec,
    nextDialTime(t: number): number | null {
      let x = Math.max(t, spec.notBefore ?? t);
      if (spec.daily) x = openAt(x, spec.daily);
      if (spec.endsAt !== null && x >= spec.endsAt) return null;
      return x;
    },
  };
}

/**
 * `scheduled_at` of call_time, read as the individual-call route reads it: an ISO date-time, UTC
 * when it carries no offset. Null when absent or unreadable.
 */
export const scheduledAtMs = (text: string | null): number | null => (text ? parseIsoDateTime(text) : null);
