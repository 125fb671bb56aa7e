// Stored agents as the contract shows them: the library row, and the detail (versions with their
// prompt cut into text and placeholders, variables with where they occur, event subscriptions
// with header values masked). A synced agent is read from its stored service answer with the
// shared (tolerant) wire schema; a local draft from its pasted prompt.
import {
  agentVariables,
  BUILT_IN_VARIABLES,
  mappableVariables,
} from '../../../shared/domain/agentVariables.ts';
import { extractPlaceholders, placeholderOccurrences, splitPrompt } from '../../../shared/domain/template.ts';
import type {
  AgentDetail,
  AgentSummary,
  AgentVersion,
  SubscriptionView,
} from '../../../shared/ipc/channels/agents.ts';
import { agentDetailSchema, normalizeAgent } from '../../../shared/service/agent.ts';
import { maskUrlCredentials } from '../../../shared/service/common.ts';
import type { AgentListItem, AgentView } from '../../../shared/service/agent.ts';
import type { StoredAgent, StoredAgentSummary, SyncedAgentInput } from './agents.queries.ts';
import { z } from 'zod';
import { storedJson } from '../db/storedJson.ts';

/** A subscription as stored (the wire form, header values included). Never sent to the renderer. */
export interface StoredSubscription {
  event_type: string[];
  callback_url: string;
  headers: Record<string, string>;
  method_type: string;
}

const variablesJson = storedJson(z.array(z.string()), 'agent variables');
/** Unsaved subscription edits as written (keys the app does not read are kept). */
const subscriptionsDraftJson = storedJson(
  z.array(
    z.looseObject({
      event_type: z.array(z.string()),
      callback_url: z.string(),
      headers: z.record(z.string(), z.string()),
      method_type: z.string(),
    }),
  ),
  'subscriptions draft',
);

/** The version id a local draft's single prompt is shown as; also the id of a version-less agent's. */
export const ROOT_VERSION = 'root';

export function toAgentSummary(row: StoredAgentSummary): AgentSummary {
  return {
    id: row.id,
    name: row.name,
    archived: row.archived === 1,
    isLocalDraft: row.is_local_draft === 1,
    language: row.language,
    versions: row.version_count,
    activeVersionId: row.active_version_id,
    variables: variablesJson(row.variables),
    updatedAt: row.updated_at,
    hasSubscriptionsDraft: row.has_subscriptions_draft === 1,
  };
}

/** The service's answer for a synced agent, parsed again with the tolerant schema. */
export function storedView(row: Pick<StoredAgent, 'detail_raw'>): AgentView | null {
  if (row.detail_raw === null) return null;
  const parsed = agentDetailSchema.safeParse(JSON.parse(row.detail_raw));
  return parsed.success ? normalizeAgent(parsed.data) : null;
}

/** One version of an agent: prompt pieces, and each variable with where it occurs. */
function versionOf(
  id: string,
  label: string,
  description: string | null,
  isActive: boolean,
  promptText: string | null,
  declared: readonly string[],
): AgentVersion {
  const text = promptText ?? '';
  const occurrences = placeholderOccurrences(text);
  return {
    id,
    label,
    description,
    isActive,
    promptText,
    pieces: splitPrompt(text),
    variables: agentVariables(declared, extractPlaceholders(text)).map((name) => ({
      name,
      declared: declared.includes(name),
      builtIn: (BUILT_IN_VARIABLES as readonly string[]).includes(name),
      occurrences: occurrences.get(name) ?? [],
    })),
  };
}

/** Every version of an agent view; a single root version when the service sent none. */
export function versionsOf(view: AgentView): AgentVersion[] {
  if (view.versions.length === 0)
    return [versionOf(ROOT_VERSION, 'Current', null, true, view.promptText, view.declared)];
  const anyActive = view.versions.some((v) => v.isActive);
  return view.versions.map((v, i) =>
    versionOf(
      v.id,
      v.slug ?? v.description ?? v.id,
      v.description,
      // No version marked active (A/B live): the last one stands for the agent.
      anyActive ? v.isActive : i === view.versions.length - 1,
      v.promptText,
      v.declared,
    ),
  );
}

export const draftVersion = (prompt: string): AgentVersion =>
  versionOf(ROOT_VERSION, 'Local draft', null, true, prompt, []);

/** Bullets and at most the last two characters of a value that was long enough to keep them. */
export const maskValue = (value: string): string =>
  value.length >= 8 ? `••••••${value.slice(-2)}` : '••••••';

export function subscriptionViews(
  subs: readonly StoredSubscription[],
  prefix: 'c' | 'd',
): SubscriptionView[] {
  return subs.map((s, i) => ({
    key: `${prefix}:${i}`,
    eventTypes: s.event_type,
    // A URL stored with credentials (accepted before they were refused) is never shown in clear;
    // saving it again is refused until they move to a header.
    callbackUrl: maskUrlCredentials(s.callback_url),
    method: s.method_type,
    headers: Object.entries(s.headers).map(([name, value]) => ({ name, masked: maskValue(value) })),
  }));
}

/** The cached subscriptions of a synced agent, in the stored (wire) form. */
export function cachedSubscriptions(view: AgentView | null): StoredSubscription[] {
  return (view?.eventSubscriptions ?? []).map((s) => ({
    event_type: s.event_type,
    callback_url: s.callback_url,
    headers: s.headers ?? {},
    method_type: (s.method_type ?? 'POST').toUpperCase(),
  }));
}

export const draftSubscriptions = (
  row: Pick<StoredAgent, 'draft_subscriptions'>,
): StoredSubscription[] | null =>
  row.draft_subscriptions === null ? null : subscriptionsDraftJson(row.draft_subscriptions);

export function toAgentDetail(row: StoredAgent): AgentDetail {
  const summary = toAgentSummary(row);
  const view = storedView(row);
  const drafted = draftSubscriptions(row);
  return {
    ...summary,
    agentType: view?.agentType ?? null,
    voice: view?.voice ?? null,
    introMessage: view?.introMessage ?? null,
    agentVersions:
      row.is_local_draft === 1 ? [draftVersion(row.draft_prompt ?? '')] : view ? versionsOf(view) : [],
    subscriptions: subscriptionViews(cachedSubscriptions(view), 'c'),
    subscriptionsDraft:
      drafted === null
        ? null
        : {
            subscriptions: subscriptionViews(drafted, 'd'),
            savedAt: row.draft_saved_at ?? row.updated_at,
            reason: row.draft_reason ?? '',
          },
    draftPrompt: row.draft_prompt,
  };
}

/** What the library stores of an agent read from the service (its listing row may be missing). */
export function syncedInput(
  detailRaw: unknown,
  view: AgentView,
  listItem: AgentListItem | null,
  listOrder: number,
): SyncedAgentInput {
  const active = versionsOf(view).find((v) => v.isActive);
  return {
    id: view.id,
    name: listItem?.agent_display_name ?? view.name,
    archived: listItem?.is_archived === true || view.archived,
    language: view.language,
    activeVersionId: view.activeVersionId,
    versionCount: view.versions.length,
    variables: mappableVariables(active?.variables.map((v) => v.name) ?? agentVariables(view.declared, [])),
    listRaw: listItem === null ? null : JSON.stringify(listItem),
    detailRaw: JSON.stringify(detailRaw),
    listOrder,
  };
}
