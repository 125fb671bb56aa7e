import { requireActiveWorkspace } from '../workspaces/workspaceAccess.ts';
import { defineDomain } from '../desk/domain.ts';
import { deleteDraft, duplicateDraft, launchSettings, listDrafts, saveDraft } from './campaignDrafts.ts';
import { launchFromList } from './launchFromList.ts';
import { clientFor, createLaunchQueue, ownLaunch } from './launchQueue.ts';
import { toLaunchView, toTimelineEntry } from './launchView.ts';
import { createPlanner } from './planner.ts';
import { campaignsListing, workspaceNumbers } from './serviceListings.ts';
import { terminateCampaign } from './terminate.ts';
import { startTestCall, testCallStatus } from './testCall.ts';
import { validateSettings } from './validateSettings.ts';

/**
 * campaigns:* channels: drafts, validation, plan, cached numbers, the launch outbox and its queue,
 * the campaigns list and timeline, terminate, and a test call. A background runner resumes pending
 * launches on start and when the service comes back (launchQueue.ts).
 */
export const campaignsDomain = defineDomain({
  name: 'campaigns',
  create(ctx) {
    const queue = createLaunchQueue(ctx);
    const planner = createPlanner(ctx);
    const active = () => requireActiveWorkspace(ctx);
    const timeline = async (id: string) => {
      const { launch } = await ownLaunch(ctx, id);
      const steps = await ctx.db.call('campaigns.steps', { launchId: launch.id });
      return { launch, view: toLaunchView(launch), entries: steps.map(toTimelineEntry) };
    };

    return {
      'campaigns:drafts': async () => listDrafts(ctx.db, await active()),
      'campaigns:save-draft': async (req) => saveDraft(ctx.db, await active(), req),
      'campaigns:delete-draft': async (req) => ({
        deleted: await deleteDraft(ctx.db, await active(), req.id),
      }),
      'campaigns:validate': async (req) => ({
        errors: validateSettings(req.settings, Date.now(), req.locale),
      }),
      'campaigns:plan': async (req) => planner.plan(await active(), req.settings),
      'campaigns:numbers': async (req) => {
        const record = await active();
        return workspaceNumbers(ctx.db, record, req.refresh ? () => clientFor(ctx, record) : null);
      },
      'campaigns:launch': async (req) => {
        const record = await active();
        const { launch, goNow } = await launchFromList(ctx, { planner, online: queue.online }, record, req);
        queue.started(launch, goNow);
        return toLaunchView(launch);
      },
      'campaigns:open': async (req) => {
        const { launch, view, entries } = await timeline(req.id);
        return { launch: view, entries, settings: await launchSettings(ctx.db, launch) };
      },
      'campaigns:duplicate': async (req) => {
        const { record, launch } = await ownLaunch(ctx, req.id);
        const draft = await duplicateDraft(ctx.db, record, launch);
        const overlaps =
          draft.settings.listId === null
            ? { contacts: 0, campaigns: [] }
            : await planner.overlapsOfList(record.id, draft.settings.listId, draft.id);
        return { draft, overlaps };
      },
      'campaigns:overlaps': async (req) =>
        planner.overlapsOfList((await active()).id, req.listId, req.draftId ?? null),
      'campaigns:launch-summary': async (req) => planner.launchSummary(await active(), req),
      'campaigns:queue': async () => {
        const all = await ctx.db.call('campaigns.launches', { workspaceId: (await active()).id });
        return {
          launches: all.filter((l) => l.state === 'queued').map(toLaunchView),
          autoSend: await queue.autoSend(),
        };
      },
      'campaigns:confirm-launch': async (req) => toLaunchView(await queue.confirm(req.id)),
      'campaigns:discard-launch': async (req) => {
        await ownLaunch(ctx, req.id);
        return { deleted: await ctx.db.call('campaigns.deleteLaunch', { id: req.id }) };
      },
      'campaigns:resolve-launch': async (req) => toLaunchView(await queue.resolve(req)),
      'campaigns:set-auto-send': async (req) => {
        await queue.setAutoSend(req.autoSend);
        return { autoSend: req.autoSend };
      },
      'campaigns:list': async (req) => {
        const record = await active();
        return campaignsListing(ctx.db, record, req.refresh ? () => clientFor(ctx, record) : null);
      },
      'campaigns:timeline': async (req) => {
        const { view, entries } = await timeline(req.id);
        return { launch: view, entries };
      },
      'campaigns:terminate': async (req) => {
        const record = await active();
        return terminateCampaign(ctx.db, record, () => clientFor(ctx, record), req.campaignId, queue.emit);
      },
      'campaigns:test-call': async (req) => {
        const record = await active();
        return startTestCall(ctx, () => clientFor(ctx, record), req);
      },
      'campaigns:test-call-status': async (req) => {
        const record = await active();
        return testCallStatus(() => clientFor(ctx, record), req.callId);
      },
    };
  },
});
