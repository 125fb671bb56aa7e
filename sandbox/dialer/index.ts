// The call dialer: moves calls through registered → ongoing → terminal states on the virtual clock.
// Owned by the dialer engineer; this placeholder is started by the server so the seam exists.
// Inputs: ctx.events ('calls-created', 'campaign-started', 'calls-terminated'), ctx.clock
// (schedule/onTick), ctx.store.calls (update), saveRecording() from ../recordings.ts.
import type { SandboxContext } from '../context.ts';

export interface DialerHandle {
  stop(): void | Promise<void>;
}

export function startDialer(_ctx: SandboxContext): DialerHandle {
  return { stop() {} };
}
