// calls:* and recordings:* channels: sync (on demand and in the background), the offline review
// reads (SQLite only), CSV export, campaign results, follow-up lists, recordings' disk use. Each
// handler resolves the workspace and calls the service that does the work.
import type { CallFilter } from '../../../shared/ipc/channels/calls.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { defineDomain } from '../desk/domain.ts';
import { MAX_SIZE_SETTING } from '../sync/recordings.ts';
import { callDetail } from './callDetail.ts';
import { campaignResults, followUpList } from './campaignResults.ts';
import { exportCallsFile } from './exportCalls.ts';
import { applyRetention, diskUsage, RETENTION_KEY } from './recordingsDisk.ts';
import { syncPasses } from './syncPasses.ts';

export const callsDomain = defineDomain({
  name: 'calls',
  create(ctx) {
    const { db } = ctx;
    const passes = syncPasses(ctx);

    /** The workspace asked for (it must exist), else the active one. */
    async function workspaceOf(id: string | undefined): Promise<string> {
      if (id !== undefined) {
        if (!(await db.call('workspaces.get', { id })))
          throw new DeskFailure('not_found', 'No such workspace.');
        return id;
      }
      const active = await db.call('workspaces.active', {});
      if (active === null)
        throw new DeskFailure('not_found', 'No active workspace: add one in Settings → Workspaces.');
      return active;
    }

    const filterFor = async (filter: CallFilter) => ({
      workspaceId: await workspaceOf(filter.workspaceId),
      filter,
    });

    return {
      'calls:sync': async (req) =>
        passes.start(await workspaceOf(req.workspaceId), {
          recordings: req.recordings ?? true,
          ...(req.since !== undefined ? { sinceMs: Date.parse(req.since) } : {}),
        }),
      'calls:sync-cancel': async (req) => passes.cancel(await workspaceOf(req.workspaceId)),
      'calls:quarantine': async (req) =>
        db.call('calls.quarantineList', {
          workspaceId: await workspaceOf(req.workspaceId),
          limit: req.limit ?? 200,
        }),
      'calls:sync-status': async (req) => passes.status(await workspaceOf(req.workspaceId)),
      'calls:list': async (req) =>
        db.call('calls.list', {
          ...(await filterFor(req.filter)),
          ...(req.sort ? { sort: req.sort } : {}),
          offset: req.offset,
          limit: req.limit,
        }),
      'calls:get': async (req) => {
        // The Calls screen lists the active workspace's calls: a call another workspace synced
        // since (the same account added again) is not this one's any more.
        const workspaceId = await workspaceOf(undefined);
        const row = await db.call('calls.get', { callId: req.callId, workspaceId });
        if (!row)
          throw new DeskFailure('not_found', `No call ${req.callId} in this workspace on this computer.`);
        return { call: callDetail(row, ctx.options.host) };
      },
      'calls:facets': async (req) =>
        db.call('calls.facets', { workspaceId: await workspaceOf(req.workspaceId) }),
      'calls:campaigns': async (req) => ({
        campaigns: await db.call('calls.campaigns', { workspaceId: await workspaceOf(req.workspaceId) }),
      }),
      'calls:stats': async (req) =>
        db.call('calls.stats', {
          ...(await filterFor(req.filter)),
          ...(req.timeZone ? { timeZone: req.timeZone } : {}),
        }),
      'calls:export': async (req) =>
        exportCallsFile(
          db,
          ctx.options.dataDir,
          { ...(await filterFor(req.filter)), ...(req.sort ? { sort: req.sort } : {}) },
          'path' in req ? req.path : null,
        ),
      'calls:campaign-results': async (req) =>
        campaignResults(db, {
          workspaceId: await workspaceOf(req.workspaceId),
          bulkListId: req.bulkListId,
          ...(req.outcomes ? { outcomes: req.outcomes } : {}),
          offset: req.offset,
          limit: req.limit,
        }),
      'calls:follow-up-list': async (req) =>
        followUpList(db, {
          workspaceId: await workspaceOf(req.workspaceId),
          bulkListId: req.bulkListId,
          outcomes: req.outcomes,
          name: req.name,
        }),
      'calls:live': async (req) => passes.live(await workspaceOf(req.workspaceId)),
      'recordings:disk-usage': async () => diskUsage(ctx),
      'recordings:set-retention': async (req) => {
        await db.call('settings.set', { key: RETENTION_KEY, value: req.retentionDays });
        await applyRetention(ctx, req.retentionDays);
        return diskUsage(ctx);
      },
      'recordings:set-max-size': async (req) => {
        await db.call('settings.set', { key: MAX_SIZE_SETTING, value: req.maxMegabytes });
        return diskUsage(ctx);
      },
    };
  },
});
