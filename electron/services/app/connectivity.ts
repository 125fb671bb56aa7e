import type { Logger } from '../logging/logger.ts';

export type ServiceStatus = 'online' | 'offline' | 'key-rejected' | 'service-error';

export interface ConnectivityState {
  online: boolean;
  checkedAt: string;
  status: ServiceStatus;
  message?: string;
}

/**
 * Is the active workspace's service reachable? Any HTTP answer counts (even 401/404: the host is
 * there); a refused connection, DNS failure or timeout does not. The check sends no credentials.
 */
export async function isReachable(url: string, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'HEAD',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks reachability of `target()` every `intervalMs` (and on demand), and calls `onChange`
 * when the answer flips. Overlapping requests share one check.
 */
export function createConnectivityMonitor(options: {
  target: () => Promise<string | null>;
  intervalMs: number;
  timeoutMs: number;
  onChange: (state: ConnectivityState) => void;
  logger: Logger;
  /**
   * Once the host answers: does the active workspace's service take its key? (An authenticated
   * request; without it the indicator said "Online" while every page was refused.)
   */
  authCheck?: () => Promise<{ status: Exclude<ServiceStatus, 'offline'>; message?: string }>;
}) {
  let state: ConnectivityState | null = null;
  let inflight: Promise<ConnectivityState> | null = null;
  let stopped = false;

  const check = (): Promise<ConnectivityState> => {
    inflight ??= (async () => {
      let online = false;
      let service: { status: ServiceStatus; message?: string } = { status: 'offline' };
      try {
        const url = await options.target();
        online = url !== null && (await isReachable(url, options.timeoutMs));
        if (online) service = options.authCheck ? await options.authCheck() : { status: 'online' };
      } catch (error) {
        options.logger.error('connectivity check failed', error);
      }
      const next: ConnectivityState = { online, checkedAt: new Date().toISOString(), ...service };
      const changed = state?.online !== online || state?.status !== next.status;
      state = next;
      if (changed && !stopped) {
        options.logger.info('connectivity changed', { online, status: next.status });
        options.onChange(next);
      }
      return next;
    })().finally(() => {
      inflight = null;
    });
    return inflight;
  };

  const timer = setInterval(() => void check(), options.intervalMs);
  timer.unref();

  return {
    /** The last known state, checking first if there is none yet. */
    current: (): Promise<ConnectivityState> => (state ? Promise.resolve(state) : check()),
    refresh: check,
    stop(): void {
      stopped = true;
      clearInterval(timer);
    },
  };
}
