import type { AgentDetail, AgentListItem, EventSubscription } from '../../shared/service/agent.ts';
import { extractPlaceholders, promptTextFromSections } from '../../shared/domain/template.ts';
import type { AgentStore } from '../store/agents.ts';
import type { AgentRow, AgentVersionRow } from '../store/types.ts';

// A type alias (not an interface) so it fits the wire schema's loose objects.
type Section = {
  section_title: string;
  section_content: string;
};

export const sectionsOf = (v: AgentVersionRow): Section[] => JSON.parse(v.prompt_sections) as Section[];

/** The full prompt text of a version (sections joined), as substitution and transcripts use it. */
export function promptTextOf(v: AgentVersionRow): string {
  return promptTextFromSections(
    sectionsOf(v).map((s) => ({ title: s.section_title, content: s.section_content })),
  );
}

/** Declared variables plus every placeholder the prompt uses. */
export function variablesOf(v: AgentVersionRow): string[] {
  const declared = JSON.parse(v.custom_variables) as string[];
  return [...new Set([...declared, ...extractPlaceholders(promptTextOf(v))])];
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A row of `GET /agent/all` (no prompt text, as on the real service). */
export function toAgentListItem(a: AgentRow, callCount: number): AgentListItem & Record<string, unknown> {
  return {
    id: a.id,
    agent_display_name: a.display_name,
    agent_type: a.agent_type,
    call_count: callCount,
    created_at: iso(a.created_at),
    updated_at: iso(a.updated_at),
    is_archived: a.is_archived === 1,
    secondary_language: null,
    template_name: a.template_name,
    orchestration_mode: a.orchestration_mode,
    active_agent_version_id: a.active_version_id,
    tools: [],
  };
}

/**
 * `GET /agent/{id}`: the documented fields (root `agent_config` with the full prompt text and the
 * custom variables as an object) and the observed per-version fields (`version_details`, with the
 * prompt in sections), so a reader of either documented shape finds what it needs.
 */
export function toAgentDetail(
  a: AgentRow,
  store: AgentStore,
  callCount: number,
): AgentDetail & Record<string, unknown> {
  const versions = store.versions(a.id);
  const active = store.activeVersion(a);
  const voice = a.voice ? (JSON.parse(a.voice) as { id: string; name: string }) : null;
  const subscriptions = JSON.parse(a.event_subscriptions) as EventSubscription[];
  return {
    ...toAgentListItem(a, callCount),
    language: a.language,
    whitelisted_domains: [],
    form_fields: [],
    voice: voice ? { ...voice, voice_preview: null } : null,
    knowledge_base_id: null,
    knowledge_base_name: null,
    agent_config: active
      ? {
          custom_variables: Object.fromEntries(variablesOf(active).map((v) => [v, 'string'])),
          agent_prompt: promptTextOf(active),
          intro_message: a.intro_message,
        }
      : null,
    ab_versions: Object.fromEntries(
      versions.map((v) => [v.id, { slug: v.slug, description: v.description, call_traffic: v.call_traffic }]),
    ),
    version_details: Object.fromEntries(
      versions.map((v) => [
        v.id,
        {
          agent_config: {
            agent_prompt: { prompt_sections: sectionsOf(v) },
            custom_variables: variablesOf(v),
            intro_message: a.intro_message,
          },
          event_subscriptions: v.id === a.active_version_id ? subscriptions : [],
          language: a.language,
          voice,
        },
      ]),
    ),
  };
}
