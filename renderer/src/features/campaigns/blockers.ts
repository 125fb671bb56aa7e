import type { AgentDetail, AgentLint } from '../../../../shared/ipc/channels/agents.ts';
import type { CampaignPlan, CampaignSettings } from '../../../../shared/ipc/channels/campaigns.ts';
import { rowsServiceWillDrop } from '../../../../shared/domain/serviceRefusals.ts';

// Why Launch is disabled: what the builder knows is missing before anything can be sent. Every
// non-optional variable must have a value in every row the upload carries: the service refuses a
// row with an empty one, and without "Remove invalid rows" it refuses the whole upload.

const count = (n: number) => n.toLocaleString();
const rows = (n: number) => `${count(n)} ${n === 1 ? 'row' : 'rows'}`;

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

/**
 * What the checked plan says refuses the launch, in the words Launch is disabled with: more calls
 * than the credits the service reported for this plan (both figures and the shortfall), and calls
 * that do not fit before the end while the shortfall is not accepted. The back end refuses the same.
 */
export function planBlockers(
  plan: Pick<CampaignPlan, 'calls' | 'callsNotFitting' | 'credits'> | null,
  acceptShortfall: boolean,
): string[] {
  if (!plan) return [];
  const out: string[] = [];
  const c = plan.credits;
  if (c.source === 'service' && c.available !== null && c.needed > c.available)
    out.push(creditShortfallText(c.needed, c.available));
  if (plan.callsNotFitting > 0 && !acceptShortfall)
    out.push(
      `${count(plan.callsNotFitting)} of ${count(plan.calls)} calls do not fit before the campaign ends: widen the daily window, raise the concurrency or move the end, or accept the shortfall in the plan.`,
    );
  return out;
}

/** "Not enough credits: … needs 41,000 (one a call), the workspace has 25,000: 16,000 short." */
export function creditShortfallText(needed: number, available: number): string {
  const short = Math.ceil(needed - available);
  return `Not enough credits: this campaign needs ${count(needed)} credits (one a call) and the workspace has ${count(Math.floor(available))}, ${count(short)} short. Add credits or send fewer rows.`;
}
