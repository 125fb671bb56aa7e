import { z } from 'zod';
import { extractPlaceholders, promptTextFromSections } from '../domain/template.ts';
import { httpUrlSchema } from './common.ts';
import { eventTypeSchema } from './enums.ts';

// ---------------------------------------------------------------- event subscriptions (seed §5)

export const subscriptionMethods = ['POST', 'PUT', 'PATCH'] as const;

/** What a client sends: `event_type` as a non-empty list of the six types. */
export const eventSubscriptionSchema = z.object({
  event_type: z.array(eventTypeSchema).min(1),
  callback_url: httpUrlSchema,
  headers: z.record(z.string(), z.string()).optional(),
  method_type: z.enum(subscriptionMethods).optional(),
});
export type EventSubscription = z.infer<typeof eventSubscriptionSchema>;

/** What readers accept: old docs send `event_type` as one string. */
export const eventSubscriptionReadSchema = z.object({
  event_type: z.union([z.array(z.string()), z.string()]).transform((v) => (Array.isArray(v) ? v : [v])),
  callback_url: z.string(),
  headers: z.record(z.string(), z.string()).nullish(),
  method_type: z.string().nullish(),
});

export const editEventSubscriptionsRequestSchema = z.object({
  operation: z.literal('edit_event_subscriptions'),
  agent_id: z.string().min(1),
  event_subscriptions: z.array(eventSubscriptionSchema),
});
export type EditEventSubscriptionsRequest = z.infer<typeof editEventSubscriptionsRequestSchema>;

/** `PATCH /agent/v1` answer (notes §4f). */
export const agentUpdateResponseSchema = z.object({
  message: z.string().nullish(),
  agent_id: z.string().nullish(),
});
export type AgentUpdateResponse = z.infer<typeof agentUpdateResponseSchema>;

// ---------------------------------------------------------------- agents (notes §4)

/** `custom_variables`: an object `{name: "string"}` (documented) or a list of names (observed). */
const customVariablesSchema = z.union([z.record(z.string(), z.unknown()), z.array(z.string())]);

export const promptSectionSchema = z.looseObject({
  section_title: z.string().nullish(),
  section_content: z.string().nullish(),
});

/** `agent_prompt`: the text (documented), sections (observed), or null (multi-node agents). */
const agentPromptSchema = z.union([
  z.string(),
  z.looseObject({ prompt_sections: z.array(promptSectionSchema).nullish() }),
  z.null(),
]);

export const agentConfigSchema = z.looseObject({
  custom_variables: customVariablesSchema.nullish(),
  agent_prompt: agentPromptSchema.optional(),
  intro_message: z.string().nullish(),
});

/** `voice`: `{id, name, voice_preview}` (documented) or a plain name/id (tolerated). */
const voiceSchema = z.union([
  z.looseObject({ id: z.string().nullish(), name: z.string().nullish() }),
  z.string(),
  z.null(),
]);

/** Booleans as sent, or as "true"/"false"/0/1 (tolerated). */
const looseBoolean = z.union([
  z.boolean(),
  z.literal(0).transform(() => false),
  z.literal(1).transform(() => true),
  z.enum(['true', 'false']).transform((v) => v === 'true'),
]);

export const agentVersionDetailsSchema = z.looseObject({
  agent_config: agentConfigSchema.nullish(),
  event_subscriptions: z.array(eventSubscriptionReadSchema).nullish(),
  language: z.string().nullish(),
  voice: voiceSchema.optional(),
});

/** One agent of `GET /agent/all` (no prompt text there). */
export const agentListItemSchema = z.looseObject({
  id: z.union([z.string().min(1), z.number().transform(String)]),
  agent_display_name: z.string().nullish(),
  agent_type: z.string().nullish(),
  call_count: z.number().nullish().catch(null),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  custom_variables: customVariablesSchema.nullish(),
  is_archived: looseBoolean.nullish().catch(null),
  secondary_language: z.string().nullish(),
  template_name: z.string().nullish(),
  orchestration_mode: z.string().nullish(),
  active_agent_version_id: z.string().nullish(),
});
export type AgentListItem = z.infer<typeof agentListItemSchema>;

/**
 * `{status, data: {agents: [...]}}` (observed), `{agents: [...]}` (documented), and, tolerated,
 * `{data: [...]}` or a bare list.
 */
export const agentListResponseSchema = z
  .union([
    z.object({ status: z.unknown().optional(), data: z.object({ agents: z.array(agentListItemSchema) }) }),
    z.object({ agents: z.array(agentListItemSchema) }),
    z.object({ data: z.array(agentListItemSchema) }),
    z.array(agentListItemSchema),
  ])
  .transform((v) =>
    Array.isArray(v) ? v : 'agents' in v ? v.agents : Array.isArray(v.data) ? v.data : v.data.agents,
  );

/** One agent by id: the documented fields (root `agent_config`) and the observed ones (per version). */
export const agentDetailSchema = agentListItemSchema.extend({
  language: z.string().nullish(),
  voice: voiceSchema.optional(),
  agent_config: agentConfigSchema.nullish(),
  /** Documented nowhere at the root, but tolerated there for agents without version details. */
  event_subscriptions: z.array(eventSubscriptionReadSchema).nullish(),
  ab_versions: z
    .record(
      z.string(),
      z.looseObject({
        slug: z.string().nullish(),
        description: z.string().nullish(),
        call_traffic: z.number().nullish(),
      }),
    )
    .nullish(),
  version_details: z.record(z.string(), agentVersionDetailsSchema).nullish(),
});
export type AgentDetail = z.infer<typeof agentDetailSchema>;

/**
 * `{agents: {...}}` (singular object under the plural key), tolerant of `{data: {...}}`,
 * `{agent: {...}}`, `{agents: [{...}]}` and the bare object.
 */
export const agentByIdResponseSchema = z
  .union([
    z.object({ agents: agentDetailSchema }),
    z.object({ agents: z.tuple([agentDetailSchema]).rest(z.unknown()) }),
    z.object({ agent: agentDetailSchema }),
    z.object({ data: agentDetailSchema }),
    agentDetailSchema,
  ])
  .transform((v): AgentDetail => {
    if ('agents' in v && v.agents !== undefined && typeof v.agents === 'object')
      return (Array.isArray(v.agents) ? v.agents[0] : v.agents) as AgentDetail;
    if ('agent' in v && v.agent !== undefined && typeof v.agent === 'object') return v.agent as AgentDetail;
    if ('data' in v && v.data !== undefined && typeof v.data === 'object' && 'id' in (v.data as object))
      return v.data as AgentDetail;
    return v as AgentDetail;
  });

// ---------------------------------------------------------------- normalised view

export interface AgentVersionView {
  id: string;
  slug: string | null;
  description: string | null;
  promptText: string | null;
  variables: string[];
  /** The version's declared custom variables only. */
  declared: string[];
  isActive: boolean;
  language: string | null;
}

export interface AgentView {
  id: string;
  name: string;
  agentType: string | null;
  language: string | null;
  orchestrationMode: string | null;
  activeVersionId: string | null;
  /** Full prompt of the active version (sections joined), null for multi-node agents. */
  promptText: string | null;
  introMessage: string | null;
  /** Declared custom variables plus any `@{{var}}` the prompt uses, in first-seen order. */
  variables: string[];
  versions: AgentVersionView[];
  eventSubscriptions: Array<z.infer<typeof eventSubscriptionReadSchema>>;
  /** Declared custom variables (of the active version, then the root's and the listing's). */
  declared: string[];
  voice: string | null;
  archived: boolean;
}

function voiceName(v: z.infer<typeof voiceSchema> | undefined): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v || null;
  return v.name ?? v.id ?? null;
}

function variableNames(v: z.infer<typeof customVariablesSchema> | null | undefined): string[] {
  if (!v) return [];
  return Array.isArray(v) ? v : Object.keys(v);
}

function promptText(p: z.infer<typeof agentPromptSchema> | undefined): string | null {
  if (p === undefined || p === null) return null;
  if (typeof p === 'string') return p;
  return promptTextFromSections(
    (p.prompt_sections ?? []).map((s) => ({
      title: s.section_title ?? '',
      content: s.section_content ?? '',
    })),
  );
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}

/** One view of an agent from either documented shape; the active version wins over the root config. */
export function normalizeAgent(a: AgentDetail): AgentView {
  const versions: AgentVersionView[] = Object.entries(a.version_details ?? {}).map(([id, d]) => {
    const text = promptText(d.agent_config?.agent_prompt);
    return {
      id,
      slug: a.ab_versions?.[id]?.slug ?? null,
      description: a.ab_versions?.[id]?.description ?? null,
      promptText: text,
      variables: unique([
        ...variableNames(d.agent_config?.custom_variables),
        ...extractPlaceholders(text ?? ''),
      ]),
      declared: variableNames(d.agent_config?.custom_variables),
      isActive: id === a.active_agent_version_id,
      language: d.language ?? null,
    };
  });
  const active = a.active_agent_version_id ? a.version_details?.[a.active_agent_version_id] : undefined;
  const declared = unique([
    ...variableNames(active?.agent_config?.custom_variables),
    ...variableNames(a.agent_config?.custom_variables),
    ...variableNames(a.custom_variables),
  ]);
  const config = active?.agent_config ?? a.agent_config ?? null;
  const text = promptText(config?.agent_prompt) ?? promptText(a.agent_config?.agent_prompt);
  return {
    id: a.id,
    name: a.agent_display_name ?? a.id,
    agentType: a.agent_type ?? null,
    language: active?.language ?? a.language ?? null,
    orchestrationMode: a.orchestration_mode ?? null,
    activeVersionId: a.active_agent_version_id ?? null,
    promptText: text,
    introMessage: config?.intro_message ?? a.agent_config?.intro_message ?? null,
    variables: unique([
      ...variableNames(config?.custom_variables),
      ...variableNames(a.agent_config?.custom_variables),
      ...variableNames(a.custom_variables),
      ...extractPlaceholders(text ?? ''),
    ]),
    versions,
    eventSubscriptions: active?.event_subscriptions ?? a.event_subscriptions ?? [],
    declared,
    voice: voiceName(active?.voice) ?? voiceName(a.voice),
    archived: a.is_archived === true,
  };
}
