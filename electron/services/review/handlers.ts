// review:* channels: QA review marks of the active workspace's calls, the flag reasons list, the
// reviewer's name and the QA report CSV of a campaign. Everything is local: nothing here talks to
// the calling service, and the sync never reads the marks (they live in their own table).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { requireActiveWorkspace } from '../workspaces/workspaceAccess.ts';
import { newDownload, removeDownload } from '../files/downloads.ts';
import { defineDomain } from '../desk/domain.ts';
import { qaReportFileName, writeQaReport } from './qaReport.ts';
import { REVIEWER_SETTING, reviewerName } from './reviewer.ts';

export const reviewDomain = defineDomain({
  name: 'review',
  create(ctx) {
    const { db } = ctx;

    async function workspaceOf(id: string | undefined): Promise<string> {
      if (id === undefined) return (await requireActiveWorkspace(ctx)).id;
      if (!(await db.call('workspaces.get', { id })))
        throw new DeskFailure('not_found', 'No such workspace.');
      return id;
    }

    /** The active workspace's call (the Calls screen shows only those). */
    async function callOf(callId: string): Promise<{ workspaceId: string; callId: string }> {
      const workspaceId = await workspaceOf(undefined);
      if (!(await db.call('calls.get', { callId, workspaceId })))
        throw new DeskFailure('not_found', `No call ${callId} in this workspace on this computer.`, 'callId');
      return { workspaceId, callId };
    }

    return {
      'review:get': async (req) => ({ mark: await db.call('reviews.get', await callOf(req.callId)) }),
      'review:set': async (req) => ({
        mark: await db.call('reviews.set', {
          ...(await callOf(req.callId)),
          by: await reviewerName(db),
          now: new Date().toISOString(),
          ...(req.reviewed !== undefined ? { reviewed: req.reviewed } : {}),
          ...(req.flagReasonId !== undefined ? { flagReasonId: req.flagReasonId } : {}),
          ...(req.note !== undefined ? { note: req.note } : {}),
        }),
      }),
      'review:reasons': async () => ({ reasons: await db.call('reviews.reasons', {}) }),
      'review:add-reason': async (req) => ({
        reasons: await db.call('reviews.addReason', { label: req.label, now: new Date().toISOString() }),
      }),
      'review:rename-reason': async (req) => ({
        reasons: await db.call('reviews.renameReason', { id: req.id, label: req.label }),
      }),
      'review:remove-reason': async (req) => ({
        reasons: await db.call('reviews.removeReason', { id: req.id, now: new Date().toISOString() }),
      }),
      'review:reviewer': async () => ({ name: await reviewerName(db) }),
      'review:set-reviewer': async (req) => {
        await db.call('settings.set', { key: REVIEWER_SETTING, value: req.name });
        return { name: req.name };
      },
      'review:report': async (req) => {
        const args = { workspaceId: await workspaceOf(req.workspaceId), bulkListId: req.bulkListId };
        const fileName = qaReportFileName(req.bulkListId);
        if ('path' in req) {
          // "~/Downloads" as the app's folder field proposes it.
          const path =
            req.path === '~' || req.path.startsWith('~/') ? join(homedir(), req.path.slice(1)) : req.path;
          const { rows, bytes } = await writeQaReport(db, args, path);
          return {
            rows,
            bytes,
            fileName: path.split(/[\\/]/).pop() ?? fileName,
            path,
            downloadUrl: null,
          };
        }
        const download = newDownload(ctx.options.dataDir);
        try {
          const { rows, bytes } = await writeQaReport(db, args, join(download.dir, fileName));
          return { rows, bytes, fileName, path: null, downloadUrl: download.url };
        } catch (error) {
          removeDownload(download.dir);
          throw error;
        }
      },
    };
  },
});
