// The event subscriptions editor as plain data: the working list (from the cached agent or its
// saved draft), checks before sending that name the field, and the request for the contract.
import type { SubscriptionInput, SubscriptionView } from '../../../../shared/ipc/channels/agents.ts';
import { EVENT_TYPES, SUBSCRIPTION_METHODS } from '../../../../shared/ipc/channels/agents.ts';
import { hasUrlCredentials, WEBHOOK_URL_CREDENTIALS_MESSAGE } from '../../../../shared/service/common.ts';

export interface EditHeader {
  name: string;
  /** A value typed in this session ('' = keep the stored one, when there is one). */
  value: string;
  /** The stored value as the back end shows it (masked), null for a header added here. */
  masked: string | null;
}

export interface EditSubscription {
  /** The stored subscription this one comes from (its key), to keep masked header values. */
  from: string | null;
  eventTypes: string[];
  callbackUrl: string;
  method: string;
  headers: EditHeader[];
}

export const EVENT_LABELS: Record<(typeof EVENT_TYPES)[number], string> = {
  call_started: 'Call started',
  call_completed: 'Call completed',
  recording_completed: 'Recording ready',
  platform_analysis_completed: 'Platform analysis done',
  client_analysis_completed: 'Client analysis done',
  all_processing_completed: 'All processing done',
};

export const eventLabel = (type: string): string =>
  (EVENT_LABELS as Record<string, string>)[type] ?? type.replace(/_/g, ' ');

export function fromView(view: SubscriptionView): EditSubscription {
  return {
    from: view.key,
    eventTypes: [...view.eventTypes],
    callbackUrl: view.callbackUrl,
    method: view.method || 'POST',
    headers: view.headers.map((h) => ({ name: h.name, value: '', masked: h.masked })),
  };
}

export const emptySubscription = (): EditSubscription => ({
  from: null,
  eventTypes: ['all_processing_completed'],
  callbackUrl: '',
  method: 'POST',
  headers: [],
});

/** How a header value reads on screen: never the value typed, only bullets and its last 2 characters. */
export function maskValue(header: EditHeader): string {
  if (header.value === '') return header.masked ?? '';
  const tail = header.value.length > 6 ? header.value.slice(-2) : '';
  return `${'•'.repeat(Math.min(8, Math.max(4, header.value.length - tail.length)))}${tail}`;
}

export type SubscriptionField =
  'eventTypes' | 'callbackUrl' | 'method' | `headers.${number}.${'name' | 'value'}`;
export type SubscriptionErrors = Partial<Record<SubscriptionField, string>>;

// An HTTP header name (RFC 9110 token).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Checks one subscription; each message starts with the field it is about. */
export function validateSubscription(sub: EditSubscription): SubscriptionErrors {
  const errors: SubscriptionErrors = {};
  const known = new Set<string>(EVENT_TYPES);
  if (sub.eventTypes.length === 0) errors.eventTypes = 'Event types: choose at least one event.';
  else if (sub.eventTypes.some((t) => !known.has(t)))
    errors.eventTypes = `Event types: ${sub.eventTypes.filter((t) => !known.has(t)).join(', ')} is not an event the service sends.`;
  const url = sub.callbackUrl.trim();
  if (url === '') errors.callbackUrl = 'Callback URL is required.';
  else {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname)
      errors.callbackUrl = 'Callback URL must be a full http:// or https:// address.';
    else if (hasUrlCredentials(url)) errors.callbackUrl = WEBHOOK_URL_CREDENTIALS_MESSAGE;
  }
  if (!(SUBSCRIPTION_METHODS as readonly string[]).includes(sub.method))
    errors.method = 'Method must be POST, PUT or PATCH.';
  const seen = new Set<string>();
  sub.headers.forEach((h, i) => {
    const name = h.name.trim();
    if (name === '') errors[`headers.${i}.name`] = `Header ${i + 1} name is required.`;
    else if (!HEADER_NAME.test(name))
      errors[`headers.${i}.name`] =
        `Header ${i + 1} name “${name}” may only hold letters, digits and - _ . ! # $ % & ' * + ^ \` | ~.`;
    else if (seen.has(name.toLowerCase()))
      errors[`headers.${i}.name`] = `Header ${i + 1} name “${name}” is given twice.`;
    seen.add(name.toLowerCase());
    if (h.value === '' && h.masked === null)
      errors[`headers.${i}.value`] = `Header ${i + 1} value is required.`;
    else if (/[\r\n]/.test(h.value)) errors[`headers.${i}.value`] = `Header ${i + 1} value must be one line.`;
  });
  return errors;
}

/** The save request's subscriptions; a header left blank keeps its stored value (`from`). */
export function toInputs(list: readonly EditSubscription[]): SubscriptionInput[] {
  return list.map((s) => ({
    ...(s.from ? { from: s.from } : {}),
    eventTypes: [...s.eventTypes],
    callbackUrl: s.callbackUrl.trim(),
    method: s.method,
    headers: s.headers.map((h) =>
      h.value === '' ? { name: h.name.trim() } : { name: h.name.trim(), value: h.value },
    ),
  }));
}

/** A back-end field (`subscriptions.1.callbackUrl`) → which subscription and which of its fields. */
export function locateField(field: string | undefined): { index: number; field: string } | null {
  const m = /^subscriptions\.(\d+)(?:\.(.+))?$/.exec(field ?? '');
  if (!m) return null;
  return { index: Number(m[1]), field: m[2] ?? '' };
}
