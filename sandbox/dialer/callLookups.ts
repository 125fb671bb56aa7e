// What the dialer engine reads about a call besides its row: its resolved call config, the agent's
// intro and version description, the workspace (cached: they do not change while calls run), and
// the facts a webhook payload is built from; and the caller number an attempt uses.
import { resolveCallConfig } from '../../shared/domain/callConfig.ts';
import type { ResolvedCallConfig } from '../../shared/domain/callConfig.ts';
import { substitutePlaceholders } from '../../shared/domain/template.ts';
import type { CallConfig } from '../../shared/service/callConfig.ts';
import type { SandboxContext } from '../context.ts';
import { createRng } from '../rng.ts';
import type { CallRow } from '../store/types.ts';
import type { CallFacts } from '../webhooks/payloads.ts';
import type { AttemptPlan } from './outcomes.ts';

export function callLookups(ctx: SandboxContext) {
  const { store } = ctx;
  const seed = ctx.options.seed;
  // Small caches of things that do not change while calls run.
  const cfgCache = new Map<string, ResolvedCallConfig>();
  const versionDescriptions = new Map<string, string | null>();
  const intros = new Map<string, string | null>();
  let workspaceId: string | null = null;

  const parseConfig = (json: string | null): CallConfig | null =>
    json ? (JSON.parse(json) as CallConfig) : null;
  function cfgOf(json: string | null): ResolvedCallConfig {
    const key = json ?? '';
    let c = cfgCache.get(key);
    if (!c) {
      c = resolveCallConfig(parseConfig(json));
      cfgCache.set(key, c);
    }
    return c;
  }
  function versionDescription(id: string | null): string | null {
    if (!id) return null;
    if (!versionDescriptions.has(id))
      versionDescriptions.set(id, store.agents.version(id)?.description ?? null);
    return versionDescriptions.get(id) ?? null;
  }
  function introOf(agentId: string): string | null {
    if (!intros.has(agentId)) intros.set(agentId, store.agents.get(agentId)?.intro_message ?? null);
    return intros.get(agentId) ?? null;
  }
  function workspace(): string {
    workspaceId ??= store.workspace.get().id;
    return workspaceId;
  }

  function factsOf(row: CallRow, attempt: number, plan: AttemptPlan, fromNumber: string | null): CallFacts {
    return {
      callId: row.id,
      callSid: `CA${createRng(`${seed}:sid:${row.id}:${attempt}`).hex(16)}`,
      agentId: row.agent_id,
      agentName: row.agent_name,
      versionId: row.agent_version_id,
      versionSlug: row.version_slug,
      versionDescription: versionDescription(row.agent_version_id),
      workspaceId: workspace(),
      customArgsValues: JSON.parse(row.custom_args_values) as Record<string, unknown>,
      toNumber: row.to_number,
      fromNumber,
      bulkListId: row.bulk_list_id,
      callType: row.call_type,
      status: 'ongoing',
      subStatus: 'ACCEPTED',
      callDuration: 0,
      callCost: null,
      calledOn: row.call_attempt_time === null ? null : new Date(row.call_attempt_time).toISOString(),
      retryCount: attempt - 1,
      voicemailDetected: false,
      transcript: null,
      recordingUrl: null,
      recordingDuration: null,
      platformAnalysis: null,
      clientAnalysis: null,
      latencySeconds: plan.latencySeconds,
      firstUtteranceSeconds: plan.firstUtteranceSeconds,
    };
  }

  /**
   * The caller number of a call: from a pool or a list the first attempt picks one (rotation),
   * and `from_numbers` then shows just that one; retries keep it.
   */
  function callerOf(row: CallRow): { from: string | null; json: string; changed: boolean } {
    const candidates = JSON.parse(row.from_numbers) as string[];
    if (candidates.length <= 1)
      return { from: candidates[0] ?? null, json: row.from_numbers, changed: false };
    const from = createRng(`${seed}:from:${row.id}`).pick(candidates);
    return { from, json: JSON.stringify([from]), changed: true };
  }

  function introFor(agentId: string, values: Record<string, string>): string | null {
    const intro = introOf(agentId);
    return intro ? substitutePlaceholders(intro, values).text : null;
  }

  return { parseConfig, cfgOf, factsOf, callerOf, introFor };
}

/** A call's custom_args_values as the strings a prompt's placeholders take. */
export function stringValues(json: string): Record<string, string> {
  const raw = JSON.parse(json) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(raw).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)]),
  );
}
