// Webhook delivery: every `call-event` the dialer emits goes to the agent's subscriptions that list
// its type and to the call's callback_url. Up to 4 attempts: immediately, then 10 s, 1 min and 2 min
// (virtual) after each failed attempt; only HTTP 200 is success; 30 s (real) timeout per attempt;
// then it gives up (no failure notice). The HTTP itself is real; waiting between attempts runs on
// the virtual clock, so tests advance it. Every attempt is one row of `webhook_deliveries`, which
// GET /_sandbox/stats reports. An individual call's callback_url gets the per-call payload on each
// status change instead (legacyCallback.ts); a campaign's callback_url gets the six events.
import type { EventType } from '../../shared/service/enums.ts';
import type { SandboxContext } from '../context.ts';
import { shapeTurns } from '../variants.ts';
import type { StoredTurn } from '../variants.ts';
import { buildLegacyCallback, legacyCallbackEvent } from './legacyCallback.ts';
import { deliveryTimeoutMs, outgoingHeaders, sendOnce } from './deliver.ts';
import type { DeliveryResult } from './deliver.ts';
import { callbackTarget, maskHeaders, parseSubscriptions, subscriptionTargets } from './targets.ts';
import type { Subscription, Target } from './targets.ts';

/** Delays before attempts 2, 3 and 4, in virtual seconds. */
export const retryDelaysSeconds = [10, 60, 120] as const;
export const maxAttempts = retryDelaysSeconds.length + 1;

export interface WebhooksOptions {
  /** Per-attempt time limit, real ms (default 30 s). */
  timeoutMs?: number;
  /** Attempts in flight at once (default 8); the rest wait in order. */
  concurrency?: number;
}

export interface WebhooksHandle {
  stop(): void | Promise<void>;
  /** Resolves when nothing is queued or in flight (tests wait on it after advancing the clock). */
  idle(): Promise<void>;
}

interface Job {
  eventType: EventType | typeof legacyCallbackEvent;
  callId: string;
  target: Target;
  body: string;
  attempt: number;
  /** Virtual time the attempt is due. */
  dueAt: number;
  rowId: number;
}

const running = new WeakMap<SandboxContext, WebhooksHandle>();

/** The running webhook engine of a sandbox (in-process tests wait on `idle()`). */
export function webhooksOf(ctx: SandboxContext): WebhooksHandle | undefined {
  return running.get(ctx);
}

export function startWebhooks(ctx: SandboxContext, opts: WebhooksOptions = {}): WebhooksHandle {
  const timeoutMs = opts.timeoutMs ?? deliveryTimeoutMs;
  const concurrency = opts.concurrency ?? 8;
  const { store, clock } = ctx;
  const stopping = new AbortController();
  const queue: Job[] = [];
  const inFlight = new Set<Promise<void>>();
  const timers = new Set<() => void>();
  const idleWaiters: Array<() => void> = [];
  const subscriptions = new Map<string, Subscription[]>();
  let stopped = false;

  const alive = () => !stopped && ctx.db.open;

  function subscriptionsOf(agentId: string): Subscription[] {
    let subs = subscriptions.get(agentId);
    if (!subs) {
      subs = parseSubscriptions(store.agents.get(agentId)?.event_subscriptions);
      subscriptions.set(agentId, subs);
    }
    return subs;
  }

  function submit(job: Omit<Job, 'rowId'>): void {
    if (!alive()) return;
    const rowId = store.deliveries.insert({
      call_id: job.callId,
      event_type: job.eventType,
      source: job.target.source,
      target_url: job.target.url,
      method: job.target.method,
      request_headers: JSON.stringify(maskHeaders(outgoingHeaders(job.target.headers, job.target.json))),
      payload: job.body,
      attempt: job.attempt,
      status: 'pending',
      response_status: null,
      error: null,
      scheduled_at: job.dueAt,
      attempted_at: null,
      created_at: clock.nowMs(),
    });
    queue.push({ ...job, rowId });
    pump();
  }

  function pump(): void {
    while (alive() && inFlight.size < concurrency && queue.length > 0) {
      const job = queue.shift() as Job;
      const p = attempt(job)
        .catch((e: unknown) => ctx.log(`webhook attempt failed internally: ${String(e)}`))
        .finally(() => {
          inFlight.delete(p);
          pump();
          settleIdle();
        });
      inFlight.add(p);
    }
    settleIdle();
  }

  async function attempt(job: Job): Promise<void> {
    const attemptedAt = clock.nowMs();
    store.deliveries.update(job.rowId, { attempted_at: attemptedAt });
    const result = await sendOnce(
      {
        url: job.target.url,
        method: job.target.method,
        headers: job.target.headers,
        body: job.body,
        json: job.target.json,
      },
      { timeoutMs, signal: stopping.signal },
    );
    if (!alive()) return;
    record(job, result);
    if (result.ok || job.attempt >= maxAttempts) return;
    const delay = retryDelaysSeconds[job.attempt - 1] ?? 0;
    const dueAt = attemptedAt + delay * 1000;
    const cancel = clock.schedule(dueAt, () => {
      timers.delete(cancel);
      submit({ ...job, attempt: job.attempt + 1, dueAt });
    });
    timers.add(cancel);
  }

  function record(job: Job, r: DeliveryResult): void {
    store.deliveries.update(job.rowId, {
      status: r.ok ? 'delivered' : job.attempt >= maxAttempts ? 'gave_up' : 'failed',
      response_status: r.status,
      error: r.error,
    });
  }

  function settleIdle(): void {
    if (queue.length > 0 || inFlight.size > 0) return;
    for (const w of idleWaiters.splice(0)) w();
  }

  /** The webhook body with its transcript turns in the selected shape. */
  function shaped(payload: Record<string, unknown>): Record<string, unknown> {
    const t = payload.transcript;
    return Array.isArray(t)
      ? { ...payload, transcript: shapeTurns(t as StoredTurn[], ctx.variants) }
      : payload;
  }

  /** The per-call callback of an individual call, for its new status. */
  function statusChanged(callId: string, status: string): void {
    if (!alive()) return;
    const row = store.calls.get(callId);
    if (!row || row.source !== 'individual' || !row.callback_url) return;
    const target = callbackTarget(row.callback_url, row.callback_args, false);
    if (!target) return;
    const body = JSON.stringify(buildLegacyCallback(row, status, ctx.baseUrl(), ctx.variants));
    submit({ eventType: legacyCallbackEvent, callId, target, body, attempt: 1, dueAt: clock.nowMs() });
  }

  const unsubscribe = [
    ctx.events.on('subscriptions-changed', ({ agentId }) => subscriptions.delete(agentId)),
    ctx.events.on('call-event', (e) => {
      if (!alive()) return;
      const targets = subscriptionTargets(subscriptionsOf(e.agentId), e.eventType);
      // A campaign's callback_url hears the six events _(chosen: its payload is not documented)_.
      if (e.callbackUrl && store.calls.get(e.callId)?.source === 'campaign') {
        const cb = callbackTarget(e.callbackUrl, e.callbackArgs);
        if (cb) targets.push(cb);
      }
      if (targets.length === 0) return;
      const body = JSON.stringify(shaped(e.payload()));
      for (const target of targets) {
        submit({ eventType: e.eventType, callId: e.callId, target, body, attempt: 1, dueAt: e.at });
      }
    }),
    ctx.events.on('calls-created', ({ callIds, bulkListId }) => {
      if (bulkListId !== null) return;
      for (const id of callIds) {
        const row = store.calls.get(id);
        if (row) statusChanged(id, row.status);
      }
    }),
    ctx.events.on('call-updated', ({ callId, status }) => statusChanged(callId, status)),
    ctx.events.on('calls-terminated', ({ callIds }) => {
      for (const id of callIds) statusChanged(id, 'cancelled');
    }),
  ];

  const handle: WebhooksHandle = {
    async stop() {
      stopped = true;
      for (const u of unsubscribe) u();
      for (const cancel of timers) cancel();
      timers.clear();
      queue.length = 0;
      stopping.abort();
      await Promise.allSettled([...inFlight]);
      running.delete(ctx);
      settleIdle();
    },
    idle() {
      if (queue.length === 0 && inFlight.size === 0) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
  running.set(ctx, handle);
  return handle;
}
