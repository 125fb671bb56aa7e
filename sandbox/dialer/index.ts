// The call dialer: moves calls through registered → ongoing → terminal states on the virtual clock
// (engine.ts), writes transcripts, costs, analysis and recordings, and emits the `call-event`s that
// sandbox/webhooks delivers. Started by the server once it listens (URLs are absolute).
import type { SandboxContext } from '../context.ts';
import { createDialerEngine } from './engine.ts';
import type { DialerEngine } from './engine.ts';

export interface DialerHandle {
  stop(): void | Promise<void>;
}

const running = new WeakMap<SandboxContext, DialerEngine>();

export function startDialer(ctx: SandboxContext): DialerHandle {
  const engine = createDialerEngine(ctx);
  running.set(ctx, engine);
  return {
    stop() {
      engine.stop();
      running.delete(ctx);
    },
  };
}

/** The running dialer of a sandbox (the control API and in-process tests use it). */
export function dialerOf(ctx: SandboxContext): DialerEngine | undefined {
  return running.get(ctx);
}
