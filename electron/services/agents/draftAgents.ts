// Local draft agents: a pasted prompt to prepare a contact list before the first sync. Its
// variables are the prompt's placeholders (plus callee_name); it is never sent to the service.
import { randomUUID } from 'node:crypto';
import { agentVariables, mappableVariables } from '../../../shared/domain/agentVariables.ts';
import { extractPlaceholders } from '../../../shared/domain/template.ts';
import type { AgentDetail } from '../../../shared/ipc/channels/agents.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { DeskContext } from '../desk/context.ts';
import { toAgentDetail } from './agentView.ts';
import { storedAgent } from './subscriptions.ts';
import { requireActiveWorkspace } from '../workspaces/workspaceAccess.ts';

/** Ids of local drafts: never an id the service hands out. */
export const LOCAL_DRAFT_PREFIX = 'local-';
/** A local draft's id: the service has never seen it (no launch, no test call). */
export const isLocalDraftAgent = (agentId: string): boolean => agentId.startsWith(LOCAL_DRAFT_PREFIX);

const variablesOf = (prompt: string) => mappableVariables(agentVariables([], extractPlaceholders(prompt)));

export async function createDraftAgent(
  ctx: DeskContext,
  req: { name: string; prompt: string; language?: string | undefined },
): Promise<AgentDetail> {
  const record = await requireActiveWorkspace(ctx);
  const id = `${LOCAL_DRAFT_PREFIX}${randomUUID()}`;
  await ctx.db.call('agents.createDraft', {
    workspaceId: record.id,
    id,
    name: req.name,
    prompt: req.prompt,
    language: req.language?.trim() || null,
    variables: variablesOf(req.prompt),
    now: new Date().toISOString(),
  });
  return toAgentDetail(await storedAgent(ctx, record.id, id));
}

export async function updateDraftAgent(
  ctx: DeskContext,
  req: {
    agentId: string;
    name?: string | undefined;
    prompt?: string | undefined;
    language?: string | undefined;
  },
): Promise<AgentDetail> {
  const record = await requireActiveWorkspace(ctx);
  const current = await storedAgent(ctx, record.id, req.agentId);
  if (current.is_local_draft !== 1)
    throw new DeskFailure(
      'invalid_request',
      'Only a local draft agent can be edited here; synced agents come from the service.',
      'agentId',
    );
  const prompt = req.prompt ?? current.draft_prompt ?? '';
  await ctx.db.call('agents.updateDraft', {
    workspaceId: record.id,
    id: req.agentId,
    name: req.name ?? current.name,
    prompt,
    language: req.language === undefined ? current.language : req.language.trim() || null,
    variables: variablesOf(prompt),
    now: new Date().toISOString(),
  });
  return toAgentDetail(await storedAgent(ctx, record.id, req.agentId));
}

export async function deleteDraftAgent(ctx: DeskContext, agentId: string): Promise<boolean> {
  const record = await requireActiveWorkspace(ctx);
  const current = await ctx.db.call('agents.get', { workspaceId: record.id, agentId });
  if (current && current.is_local_draft !== 1)
    throw new DeskFailure(
      'invalid_request',
      'Only a local draft agent can be deleted; synced agents come from the service.',
      'agentId',
    );
  return (await ctx.db.call('agents.deleteDraft', { workspaceId: record.id, id: agentId })) > 0;
}
