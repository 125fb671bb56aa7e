// What a campaign would do before it is launched: the rows its upload carries, the plan (calls,
// credits, fit), the launch summary the operator confirms and the contacts shared with other
// campaigns. The launch itself makes the same checks (launchFromList.ts).
import type { CampaignSettings } from '../../../shared/ipc/channels/campaigns.ts';
import type { ParsedRequestOf, ResponseOf } from '../../../shared/ipc/contract.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { lint } from '../agents/listMapping.ts';
import { workspaceClient } from '../workspaces/workspaceAccess.ts';
import { countsJson } from '../contacts/listJson.ts';
import { listCounts } from '../contacts/rowState.ts';
import type { DeskContext } from '../desk/context.ts';
import type { WorkspaceRecord } from '../workspaces/workspaces.queries.ts';
import { refuseLaunchedAgain } from './campaignDrafts.ts';
import { createCreditsReader } from './credits.ts';
import { planRefusals } from './launchChecks.ts';
import { launchSummaryOf, predictServiceDrops } from './launchSummary.ts';
import { overlapsOf } from './overlaps.ts';
import type { CreditsReading } from './plan.ts';
import { planCampaign } from './plan.ts';
import { validateSettings } from './validateSettings.ts';

/** The plan asks the service for its credits; a slow answer must not hold the builder. */
const CREDITS_TIMEOUT_MS = 5_000;

/** A stored list's counts (contact_lists.counts). */
export const countsOfList = (counts: string) => listCounts(countsJson(counts));

/** Refuses (invalid_request) a launch whose settings do not validate, naming the first field. */
export function requireValidSettings(s: CampaignSettings, joinAll: boolean): void {
  const errors = validateSettings(s, Date.now());
  const first = errors[0];
  if (first)
    throw new DeskFailure(
      'invalid_request',
      joinAll ? errors.map((e) => e.message).join(' ') : first.message,
      first.field,
    );
}

export type Planner = ReturnType<typeof createPlanner>;

export function createPlanner(ctx: DeskContext) {
  const creditsReader = createCreditsReader();
  const credits = (record: WorkspaceRecord): Promise<CreditsReading> =>
    creditsReader.read(record, () =>
      workspaceClient(ctx, record, { timeoutMs: CREDITS_TIMEOUT_MS, maxRetries: 0 }),
    );

  /** Contacts of a list in other campaigns running or run in the last 7 days (this draft's own left out). */
  const overlapsOfList = (workspaceId: string, listId: number, draftId: string | null) =>
    overlapsOf(ctx.db, { workspaceId, source: { listId }, draftId, nowMs: Date.now() });

  /** Rows of the list held back from the upload: their number is on the do-not-call list. */
  const heldBack = async (listId: number, workspaceId: string | null = null) =>
    Object.values(await ctx.db.call('suppression.listCheck', { listId, workspaceId })).reduce<number>(
      (a, b) => a + (b ?? 0),
      0,
    );

  /**
   * The rows the upload carries, the rows not called (rejects) and the rows the service will drop
   * (the plan takes them off the calls; the launch summary and the launch count the same).
   */
  const rowsOf = async (s: CampaignSettings) => {
    if (s.listId === null) return { valid: 0, invalid: 0, drops: 0 };
    const list = await ctx.db.call('contacts.list', { listId: s.listId });
    if (!list) throw new DeskFailure('not_found', 'This contact list is not available.', 'listId');
    // Not called: invalid and duplicate rows the operator has not excluded (the rejects file).
    const counts = countsOfList(list.counts);
    if (s.agentId) {
      const l = await lint(ctx, {
        listId: s.listId,
        agentId: s.agentId,
        ...(s.versionId ? { versionId: s.versionId } : {}),
      });
      return {
        valid: Math.max(0, l.uploadRows - (await heldBack(s.listId))),
        invalid: counts.rejects,
        drops: predictServiceDrops(s, l),
      };
    }
    return {
      valid: Math.max(0, counts.upload - (await heldBack(s.listId))),
      invalid: counts.rejects,
      drops: 0,
    };
  };

  const plan = async (record: WorkspaceRecord, s: CampaignSettings) => {
    const reading = await credits(record);
    return planCampaign(s, await rowsOf(s), reading);
  };

  /** What the operator confirms; a launch that would be refused gets no confirmation (the same checks). */
  const launchSummary = async (
    record: WorkspaceRecord,
    req: ParsedRequestOf<'campaigns:launch-summary'>,
  ): Promise<ResponseOf<'campaigns:launch-summary'>> => {
    const s = req.settings;
    if (req.draftId) await refuseLaunchedAgain(ctx.db, req.draftId);
    requireValidSettings(s, false);
    const listId = s.listId as number;
    const agentId = s.agentId as string;
    const list = await ctx.db.call('contacts.list', { listId });
    if (!list) throw new DeskFailure('not_found', 'This contact list is not available.', 'listId');
    const reading = await credits(record);
    const planned = planCampaign(s, await rowsOf(s), reading);
    const refusals = planRefusals(planned, s.acceptShortfall);
    if (refusals.length > 0)
      throw new DeskFailure(
        'invalid_request',
        refusals.map((r) => r.message).join(' '),
        refusals[0]?.kind === 'credits' ? 'credits' : 'acceptShortfall',
      );
    const agent = await ctx.db.call('agents.get', { workspaceId: record.id, agentId });
    return launchSummaryOf({
      settings: s,
      listName: list.name,
      plan: planned,
      agentName: agent?.name ?? null,
      overlaps: await overlapsOfList(record.id, listId, req.draftId ?? null),
      heldBack: await heldBack(listId, record.id),
    });
  };

  return { credits, overlapsOfList, plan, launchSummary };
}
