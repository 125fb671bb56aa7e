// Webhook delivery: agent event subscriptions and per-call callback_url, with the documented retry
// schedule. Owned by the webhooks engineer; this placeholder is started by the server so the seam
// exists. Write one row per attempt with ctx.store.deliveries (GET /_sandbox/stats reports them).
import type { SandboxContext } from '../context.ts';

export interface WebhooksHandle {
  stop(): void | Promise<void>;
}

export function startWebhooks(_ctx: SandboxContext): WebhooksHandle {
  return { stop() {} };
}
