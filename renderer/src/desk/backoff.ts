/** Reconnect delays: exponential with a cap and a little jitter so retries do not pulse in step. */
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
  /** 0..1: the delay varies by ± this fraction. */
  jitter: number;
}

export const defaultBackoff: BackoffOptions = { initialMs: 250, maxMs: 5_000, factor: 2, jitter: 0.2 };

/** Delay before reconnect attempt `attempt` (1-based). `random` returns 0..1 like Math.random. */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = defaultBackoff,
  random: () => number = Math.random,
): number {
  const base = Math.min(options.maxMs, options.initialMs * options.factor ** Math.max(0, attempt - 1));
  const spread = base * options.jitter * (random() * 2 - 1);
  return Math.max(0, Math.round(base + spread));
}
