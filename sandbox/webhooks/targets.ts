// Where an event goes: every subscription of the call's agent that lists the event type (its URL,
// headers and method), and the call's own callback_url (POST, with callback_args headers and the
// params as query parameters). Only URLs the subscriber gave.
import { z } from 'zod';
import { eventSubscriptionReadSchema } from '../../shared/service/agent.ts';
import { callbackArgsSchema } from '../../shared/service/smartFormatter.ts';
import type { EventType } from '../../shared/service/enums.ts';

export interface Target {
  source: 'subscription' | 'callback';
  url: string;
  method: string;
  headers: Record<string, string>;
  /** Send our JSON content type unless the headers give one (false: the per-call callback). */
  json: boolean;
}

export type Subscription = z.infer<typeof eventSubscriptionReadSchema>;

const subscriptionsSchema = z.array(eventSubscriptionReadSchema);

/** An agent's stored subscriptions (unreadable JSON counts as none). */
export function parseSubscriptions(json: string | null | undefined): Subscription[] {
  if (!json) return [];
  try {
    const r = subscriptionsSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : [];
  } catch {
    return [];
  }
}

export function subscriptionTargets(subs: readonly Subscription[], eventType: EventType): Target[] {
  return subs
    .filter((s) => s.event_type.includes(eventType))
    .map((s) => ({
      source: 'subscription' as const,
      url: s.callback_url,
      method: (s.method_type ?? 'POST').toUpperCase(),
      headers: { ...s.headers },
      json: true,
    }));
}

/** A callback_url target (callback_args applied), or null when the URL is unusable. */
export function callbackTarget(url: string, argsJson: string | null, json = true): Target | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  let headers: Record<string, string> = {};
  if (argsJson) {
    try {
      const args = callbackArgsSchema.safeParse(JSON.parse(argsJson));
      if (args.success) {
        headers = { ...args.data.headers };
        for (const [k, v] of Object.entries(args.data.params ?? {})) u.searchParams.append(k, String(v));
      }
    } catch {
      // stored by the route after validation; unreadable means no extras
    }
  }
  return { source: 'callback', url: u.toString(), method: 'POST', headers, json };
}

const sensitive = /authorization|api[-_]?key|token|secret|cookie|password|signature/i;

/** Header values as the delivery log shows them: secrets masked like the real service does. */
export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, sensitive.test(k) ? `${v.slice(0, 4)}***` : v]),
  );
}
