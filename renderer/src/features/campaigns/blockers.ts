import type { AgentDetail, AgentLint } from '../../../../shared/ipc/channels/agents.ts';
import type { CampaignSettings } from '../../../../shared/ipc/channels/campaigns.ts';
import { rowsServiceWillDrop } from '../../../../shared/domain/serviceRefusals.ts';

// Why Launch is disabled: what the builder knows is missing before anything can be sent. Every
// non-optional variable must have a value in every row the upload carries: the service refuses a
// row with an empty one, and without "Remove invalid rows" it refuses the whole upload.

const rows = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'row' : 'rows'}`;

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
  if (!settings.removeInvalid && rowsServiceWillDrop(lint) > 0) {
    for (const e of lint.emptyColumns.filter((c) => !c.optional)) {
      out.push(
        `Variable ${e.variable}: column ${e.column} is empty in ${rows(e.emptyRows)} to call; fill or exclude them, mark the variable optional, or turn on Remove invalid rows.`,
      );
    }
  }
  if (lint.uploadRows === 0) out.push('The list has no valid row to call.');
  return out;
}

/** What the launch checklist says is not blocking but will happen: rows the service drops. */
export function launchNotes(
  settings: Pick<CampaignSettings, 'listId' | 'agentId' | 'removeInvalid'>,
  lint: AgentLint | null,
): string[] {
  if (settings.listId === null || !settings.agentId || !lint) return [];
  const out: string[] = [];
  const drop = rowsServiceWillDrop(lint);
  if (settings.removeInvalid && drop > 0)
    out.push(`The service will drop ${rows(drop)} with an empty variable (Remove invalid rows is on).`);
  for (const e of lint.emptyColumns.filter((c) => c.optional))
    out.push(`Variable ${e.variable} is optional: ${rows(e.emptyRows)} are sent with "-" for it.`);
  return out;
}
