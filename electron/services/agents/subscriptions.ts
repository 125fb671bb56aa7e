// The event subscriptions editor's save: checked here first (each problem names its field), then
// PATCH /agent/v1 edit_event_subscriptions. Offline, the edit is kept as a draft in SQLite that
// survives a restart; a refusal (401, either error shape) is told in plain words and keeps it too.
import { hasUrlCredentials, WEBHOOK_URL_CREDENTIALS_MESSAGE } from '../../../shared/service/common.ts';
import { eventTypes } from '../../../shared/service/enums.ts';
import { editEventSubscriptionsRequestSchema, subscriptionMethods } from '../../../shared/service/agent.ts';
import type { AgentDetail, SubscriptionInput } from '../../../shared/ipc/channels/agents.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { isApiError } from '../api/index.ts';
import type { ApiError } from '../api/index.ts';
import type { StoredAgent } from './agents.queries.ts';
import type { WorkspaceRecord } from '../workspaces/workspaces.queries.ts';
import type { DeskContext } from '../desk/context.ts';
import { originOf } from '../workspaces/testConnection.ts';
import { cachedSubscriptions, draftSubscriptions, storedView, toAgentDetail } from './agentView.ts';
import type { StoredSubscription } from './agentView.ts';
import {
  hasBearerToken,
  isOffline,
  requireActiveWorkspace,
  workspaceClient,
} from '../workspaces/workspaceAccess.ts';
import { z } from 'zod';
import { storedJson } from '../db/storedJson.ts';

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SAVE_TIMEOUT_MS = 15_000;

const invalid = (field: string, message: string): never => {
  throw new DeskFailure('invalid_request', message, field);
};

/**
 * The editor's subscriptions in the wire form, or a failure naming the first bad field
 * (`subscriptions.1.callbackUrl`). A header sent without a value keeps the stored value of the
 * same header in the subscription it was edited from (`from`).
 */
export function checkSubscriptions(
  inputs: readonly SubscriptionInput[],
  sources: { cached: readonly StoredSubscription[]; draft: readonly StoredSubscription[] | null },
): StoredSubscription[] {
  return inputs.map((s, i) => {
    const at = `subscriptions.${i}`;
    const n = i + 1;
    if (s.eventTypes.length === 0)
      invalid(`${at}.eventTypes`, `Subscription ${n}: choose at least one event type.`);
    for (const t of s.eventTypes) {
      if (!(eventTypes as readonly string[]).includes(t))
        invalid(
          `${at}.eventTypes`,
          `Subscription ${n}: "${t}" is not an event type. Use ${eventTypes.join(', ')}.`,
        );
    }
    const url = s.callbackUrl.trim();
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (url === '') invalid(`${at}.callbackUrl`, `Subscription ${n}: enter the callback URL.`);
    if (parsed === null || !/^https?:$/.test(parsed.protocol) || parsed.host === '')
      invalid(
        `${at}.callbackUrl`,
        `Subscription ${n}: the callback URL must be a full http:// or https:// address.`,
      );
    if (hasUrlCredentials(url))
      invalid(`${at}.callbackUrl`, `Subscription ${n}: ${WEBHOOK_URL_CREDENTIALS_MESSAGE}`);
    const method = s.method.trim().toUpperCase();
    if (!(subscriptionMethods as readonly string[]).includes(method))
      invalid(`${at}.method`, `Subscription ${n}: the method must be POST, PUT or PATCH.`);

    const source = sourceOf(s.from, sources);
    const headers: Record<string, string> = {};
    const seen = new Set<string>();
    s.headers.forEach((h, j) => {
      const name = h.name.trim();
      if (name === '')
        invalid(`${at}.headers.${j}.name`, `Subscription ${n}, header ${j + 1}: enter the header name.`);
      if (!HEADER_NAME.test(name))
        invalid(
          `${at}.headers.${j}.name`,
          `Subscription ${n}: "${name}" is not a valid header name (letters, digits and - only, no spaces).`,
        );
      if (seen.has(name.toLowerCase()))
        invalid(`${at}.headers.${j}.name`, `Subscription ${n}: the header "${name}" is there twice.`);
      seen.add(name.toLowerCase());
      const kept = source
        ? Object.entries(source.headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1]
        : undefined;
      const value = h.value ?? kept;
      if (value === undefined || value.trim() === '')
        invalid(`${at}.headers.${j}.value`, `Subscription ${n}: enter a value for the header "${name}".`);
      if (/[\r\n]/.test(value as string))
        invalid(`${at}.headers.${j}.value`, `Subscription ${n}: the value of "${name}" must be on one line.`);
      headers[name] = value as string;
    });
    return { event_type: [...new Set(s.eventTypes)], callback_url: url, headers, method_type: method };
  });
}

function sourceOf(
  from: string | undefined,
  sources: { cached: readonly StoredSubscription[]; draft: readonly StoredSubscription[] | null },
): StoredSubscription | null {
  const m = from === undefined ? null : /^([cd]):(\d+)$/.exec(from);
  if (!m) return null;
  const list = m[1] === 'c' ? sources.cached : (sources.draft ?? []);
  return list[Number(m[2])] ?? null;
}

/** A synced agent's stored service answer, every key kept (it is written back whole). */
const detailJson = storedJson(z.record(z.string(), z.unknown()), 'agent detail');

/** The stored service answer with the subscriptions the service just accepted. */
function withSubscriptions(detailRaw: string, subs: StoredSubscription[]): string {
  const detail = detailJson(detailRaw);
  const activeId = typeof detail.active_agent_version_id === 'string' ? detail.active_agent_version_id : null;
  const versions = detail.version_details as Record<string, Record<string, unknown>> | null | undefined;
  if (activeId && versions && typeof versions[activeId] === 'object')
    versions[activeId].event_subscriptions = subs;
  else detail.event_subscriptions = subs;
  return JSON.stringify(detail);
}

/** A sentence ends with a stop (service messages often do not). */
const sentence = (text: string): string => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

function refusal(error: ApiError, record: WorkspaceRecord, bearer: boolean): string {
  const host = originOf(record.baseUrl);
  if (error.kind === 'unauthorized' && error.status === 403)
    return `${host} does not allow this change (403): ${sentence(error.message)} Check the bearer token and the API key in Settings → Workspaces.`;
  if (error.kind === 'unauthorized')
    return bearer
      ? `${host} refused this workspace's credentials (401). Check the bearer token and the API key in Settings → Workspaces, then save again.`
      : `This workspace needs a bearer token to change event subscriptions (${host} answered 401). Add it in Settings → Workspaces, then save again.`;
  if (error.kind === 'not_found')
    return `${host} does not know this agent any more (it may have been deleted). Refresh the agents.`;
  if (error.kind === 'rate_limited')
    return `${host} is busy and asked us to slow down. Try again in a moment.`;
  if (error.kind === 'server')
    return `${host} had a problem saving the subscriptions: ${sentence(error.message)}`;
  return `${host} refused the subscriptions: ${sentence(error.message)}`;
}

export async function saveSubscriptions(
  ctx: DeskContext,
  agentId: string,
  inputs: readonly SubscriptionInput[],
): Promise<{ outcome: 'saved' | 'draft'; message: string; agent: AgentDetail }> {
  const record = await requireActiveWorkspace(ctx);
  const agent = await storedAgent(ctx, record.id, agentId);
  if (agent.is_local_draft === 1)
    throw new DeskFailure(
      'invalid_request',
      'This agent is a local draft: it is not on the service, so it has no event subscriptions to save.',
      'agentId',
    );
  const subs = checkSubscriptions(inputs, {
    cached: cachedSubscriptions(storedView(agent)),
    draft: draftSubscriptions(agent),
  });
  // Header values are often webhook secrets: never in a log line (short ones would blank out
  // common text, and are no secret worth the name).
  for (const sub of subs) for (const v of Object.values(sub.headers)) if (v.length >= 8) ctx.redactor.add(v);
  const request = editEventSubscriptionsRequestSchema.safeParse({
    operation: 'edit_event_subscriptions',
    agent_id: agentId,
    event_subscriptions: subs,
  });
  if (!request.success)
    throw new DeskFailure('invalid_request', request.error.issues[0]?.message ?? 'invalid subscriptions');

  const keepDraft = async (reason: string) => {
    await ctx.db.call('agents.saveSubscriptionsDraft', {
      workspaceId: record.id,
      agentId,
      subscriptions: JSON.stringify(subs),
      reason,
      now: new Date().toISOString(),
    });
  };
  const bearer = await hasBearerToken(ctx, record);
  try {
    const client = await workspaceClient(ctx, record, { timeoutMs: SAVE_TIMEOUT_MS, maxRetries: 0 });
    await client.editEventSubscriptions({
      agent_id: agentId,
      event_subscriptions: request.data.event_subscriptions,
    });
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (isOffline(error)) {
      const message = `Not saved: ${originOf(record.baseUrl)} cannot be reached (you may be offline). Your changes are kept as a draft on this computer; save again when you are back online.`;
      await keepDraft(message);
      return { outcome: 'draft', message, agent: toAgentDetail(await storedAgent(ctx, record.id, agentId)) };
    }
    const message = refusal(error, record, bearer);
    await keepDraft(message);
    throw new DeskFailure(
      error.kind === 'unauthorized' ? 'unauthorized' : 'service_error',
      `${message} Your changes are kept as a draft.`,
    );
  }
  await ctx.db.call('agents.upsertSubscriptions', {
    workspaceId: record.id,
    agentId,
    detailRaw: withSubscriptions(agent.detail_raw ?? '{}', subs),
    now: new Date().toISOString(),
  });
  return {
    outcome: 'saved',
    message:
      subs.length === 0
        ? 'Saved: the agent has no event subscriptions now.'
        : `Saved ${subs.length} event subscription${subs.length === 1 ? '' : 's'}.`,
    agent: toAgentDetail(await storedAgent(ctx, record.id, agentId)),
  };
}

export async function storedAgent(
  ctx: DeskContext,
  workspaceId: string,
  agentId: string,
): Promise<StoredAgent> {
  const agent = await ctx.db.call('agents.get', { workspaceId, agentId });
  if (!agent)
    throw new DeskFailure(
      'not_found',
      'This agent is not in the library of the active workspace.',
      'agentId',
    );
  return agent;
}
