import type { AgentDetail, AgentLint } from '../../../../shared/ipc/channels/agents.ts';
import type { CampaignSettings } from '../../../../shared/ipc/channels/campaigns.ts';

// Why Launch is disabled: what the builder knows is missing before anything can be sent. Every
// variable must have a value in every row the upload carries ("every variable filled").

export function launchBlockers(
  settings: Pick<CampaignSettings, 'listId' | 'agentId' | 'removeInvalid'>,
  agent: Pick<AgentDetail, 'isLocalDraft'> | null,
  lint: AgentLint | null,
): string[] {
  if (settings.listId === null) return ['Choose a contact list.'];
  if (!settings.agentId) return ['Choose an agent for the list.'];
  const out: string[] = [];
  if (agent?.isLocalDraft)
    out.push('The agent is a local draft: a campaign needs an agent synced from the service.');
  if (!lint) return [...out, 'The variable check is still running.'];
  for (const v of lint.unmapped) out.push(`Variable ${v} has no column: every call would lack it.`);
  // With "remove invalid rows" the service drops rows with an empty variable instead of refusing.
  for (const e of settings.removeInvalid ? [] : lint.emptyColumns) {
    out.push(
      `Variable ${e.variable}: column ${e.column} is empty in ${e.emptyRows} ${e.emptyRows === 1 ? 'row' : 'rows'} to call; fill or exclude them, or turn on Remove invalid rows.`,
    );
  }
  if (lint.uploadRows === 0) out.push('The list has no valid row to call.');
  return out;
}
