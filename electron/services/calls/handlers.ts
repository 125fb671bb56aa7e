// calls:* and recordings:* channels: sync (on demand and in the background), the offline review
// reads (SQLite only), CSV export, campaign results, follow-up lists, recordings' disk use.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CallDetail, CallFilter, DiskUsage, SyncStatus } from '../../../shared/ipc/channels/calls.ts';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import { parseTranscript } from '../sync/callRow.ts';
import type { CallRecord } from '../../../shared/service/history.ts';
import { createApiClient } from '../api/index.ts';
import { newDownload, removeDownload } from '../contacts/downloads.ts';
import { toContactList } from '../contacts/listView.ts';
import type { DeskContext } from '../desk/context.ts';
import { defineDomain } from '../desk/domain.ts';
import type { FetchHistory } from '../sync/historySync.ts';
import {
  MAX_SIZE_SETTING,
  maxRecordingMegabytes,
  partialDownloads,
  recordingsDir,
  sweepPartials,
} from '../sync/recordings.ts';
import { idleStatus, runWorkspaceSync } from '../sync/workspaceSync.ts';
import { missingApiKeyMessage, readWorkspaceApiKey } from '../workspaces/workspaceApiKey.ts';
import { writeCallsCsv } from './exportCalls.ts';
import { livePoller } from './livePoller.ts';
import { playbackUrl } from './playback.ts';

const RETENTION_KEY = 'recordings.retentionDays';
/** Background passes of workspaces synced before, while online. */
const DAY = 86_400_000;

/** An instant as ISO text; null for one no Date can hold (a stored call of an older sync could carry one). */
function isoOrNull(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || Math.abs(ms) > 8.64e15) return null;
  return new Date(ms).toISOString();
}

export async function workspaceFetcher(
  ctx: Pick<DeskContext, 'db' | 'secrets'>,
  workspaceId: string,
): Promise<FetchHistory> {
  const record = await ctx.db.call('workspaces.get', { id: workspaceId });
  if (!record) throw new DeskFailure('not_found', 'No such workspace.');
  const apiKey = await readWorkspaceApiKey(ctx.secrets, record);
  if (!apiKey) throw new DeskFailure('unauthorized', missingApiKeyMessage(record));
  const api = createApiClient({
    baseUrl: record.baseUrl,
    apiKey: async () => apiKey,
    maxRetries: 0,
    timeoutMs: 30_000,
  });
  return (query, opts) => api.listCallHistoryRecords(query, opts);
}

export const callsDomain = defineDomain({
  name: 'calls',
  create(ctx) {
    const { db } = ctx;
    /**
     * The pass running per workspace, manual/background or live: never two at once. A manual or
     * background pass asked for during a live one stops it and waits for its end.
     */
    const running = new Map<
      string,
      { kind: 'sync' | 'live'; controller: AbortController; status: SyncStatus; done: Promise<void> }
    >();

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

    async function startSync(workspaceId: string, opts: { sinceMs?: number; recordings: boolean }) {
      let current = running.get(workspaceId);
      while (current?.kind === 'live') {
        current.controller.abort();
        await current.done;
        current = running.get(workspaceId);
      }
      if (current) return { started: false, status: current.status };
      const fetchHistory = await workspaceFetcher(ctx, workspaceId);
      const record = await db.call('workspaces.get', { id: workspaceId });
      if (!record) throw new DeskFailure('not_found', 'No such workspace.');
      const controller = new AbortController();
      const entry = {
        kind: 'sync' as const,
        controller,
        status: await idleStatus(db, workspaceId),
        done: Promise.resolve(),
      };
      entry.status = { ...entry.status, state: 'running', message: null };
      running.set(workspaceId, entry);
      let lastCalls = entry.status.calls;
      entry.done = runWorkspaceSync({
        db,
        dataDir: ctx.options.dataDir,
        workspaceId,
        serviceBaseUrl: record.baseUrl,
        fetchHistory,
        signal: controller.signal,
        recordings: opts.recordings,
        ...(opts.sinceMs !== undefined ? { sinceMs: opts.sinceMs } : {}),
        onStatus: (s) => {
          entry.status = s;
          ctx.events.emit('calls:sync-progress', s);
          const stored = s.inserted + s.updated;
          if (stored !== lastCalls) {
            lastCalls = stored;
            ctx.events.emit('calls:changed', { workspaceId, calls: s.calls });
          }
        },
      })
        .then((r) => {
          ctx.logger.info('calls sync finished', {
            workspace: workspaceId,
            state: r.status.state,
            pages: r.status.pages,
          });
          ctx.events.emit('calls:changed', { workspaceId, calls: r.status.calls });
        })
        .catch((error: unknown) => ctx.logger.error('calls sync failed', error, { workspace: workspaceId }))
        .finally(() => running.delete(workspaceId));
      return { started: true, status: entry.status };
    }

    // Background: workspaces synced before get a pass every few minutes while online.
    let online = true;
    const offConnectivity = ctx.events.on('app:connectivity-changed', (c) => {
      online = c.online;
    });
    const timer = setInterval(() => {
      void (async () => {
        if (!online) return;
        const active = await db.call('workspaces.active', {});
        // A live pass gives way (startSync stops it); a sync already running is left alone.
        if (active === null || running.get(active)?.kind === 'sync') return;
        const state = await db.call('calls.syncState', { workspaceId: active });
        if (state.watermarkMs === null && state.pass === null) return;
        await startSync(active, { recordings: true });
      })().catch((error: unknown) =>
        ctx.logger.warn?.('background calls sync not started', { error: String(error) }),
      );
    }, ctx.options.timings.backgroundSyncIntervalMs);
    timer.unref();
    // Partial downloads no pending recording will resume (a crash, an older build) go at start.
    const swept = sweepPartials(db, ctx.options.dataDir, null).catch((error: unknown) =>
      ctx.logger.warn('partial recordings not swept', { error: String(error) }),
    );
    const live = livePoller({
      ctx,
      running,
      isOnline: () => online,
      fetcher: (workspaceId) => workspaceFetcher(ctx, workspaceId),
      idleStatus: (workspaceId) => idleStatus(db, workspaceId),
    });
    ctx.onClose(async () => {
      live.stop();
      await swept;
      clearInterval(timer);
      offConnectivity();
      for (const r of running.values()) r.controller.abort();
      await Promise.all([...running.values()].map((r) => r.done));
    });

    async function diskUsage(): Promise<DiskUsage> {
      const saved = await db.call('recordings.savedBytes', {});
      const partial = partialDownloads(ctx.options.dataDir);
      const retention = await db.call('settings.get', { key: RETENTION_KEY });
      return {
        bytes: saved.bytes + partial.bytes,
        files: saved.files,
        partialBytes: partial.bytes,
        folder: recordingsDir(ctx.options.dataDir),
        retentionDays: typeof retention === 'number' ? retention : null,
        maxMegabytes: await maxRecordingMegabytes(db),
        byState: await db.call('recordings.counts', { workspaceId: null }),
      };
    }

    async function applyRetention(days: number | null): Promise<void> {
      if (days === null) return;
      for (;;) {
        const victims = await db.call('recordings.retentionVictims', {
          beforeMs: Date.now() - days * DAY,
          limit: 500,
        });
        for (const v of victims) {
          rmSync(v.path, { force: true });
          await db.call('recordings.update', {
            callId: v.callId,
            state: 'expired',
            error: `Removed after ${days} days (retention setting)`,
          });
        }
        if (victims.length < 500) return;
      }
    }

    const filterFor = async (filter: CallFilter) => ({
      workspaceId: await workspaceOf(filter.workspaceId),
      filter,
    });

    return {
      'calls:sync': async (req) => {
        const workspaceId = await workspaceOf(req.workspaceId);
        return startSync(workspaceId, {
          recordings: req.recordings ?? true,
          ...(req.since !== undefined ? { sinceMs: Date.parse(req.since) } : {}),
        });
      },
      'calls:sync-cancel': async (req) => {
        const workspaceId = await workspaceOf(req.workspaceId);
        const current = running.get(workspaceId);
        if (!current) return { cancelled: false, status: await idleStatus(db, workspaceId) };
        current.controller.abort();
        await current.done;
        return { cancelled: true, status: current.status };
      },
      'calls:quarantine': async (req) =>
        db.call('calls.quarantineList', {
          workspaceId: await workspaceOf(req.workspaceId),
          limit: req.limit ?? 200,
        }),
      'calls:sync-status': async (req) => {
        const workspaceId = await workspaceOf(req.workspaceId);
        return running.get(workspaceId)?.status ?? idleStatus(db, workspaceId);
      },
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
        const { turns, raw } = parseTranscript((JSON.parse(row.raw) as CallRecord).transcript);
        const savedPath =
          row.recording === 'saved' && row.rec_path && existsSync(row.rec_path) ? row.rec_path : null;
        const call: CallDetail = {
          id: row.id,
          workspaceId: row.workspace_id,
          bulkListId: row.bulk_list_id,
          toNumber: row.to_number,
          name: row.name,
          status: row.status,
          subStatus: row.sub_status,
          createdAt: row.created_at,
          attemptedAt: row.attempt_ms === null ? null : new Date(row.attempt_ms).toISOString(),
          outcome: row.outcome,
          callDuration: row.call_duration,
          callCost: row.call_cost,
          voicemail: row.voicemail === null ? null : row.voicemail === 1,
          agentId: row.agent_id,
          agentName: row.agent_name,
          callType: row.call_type,
          callAttemptTime: row.call_attempt_time,
          fromNumbers: row.from_numbers,
          inboundFrom: row.inbound_from,
          creditsProcessed: row.credits_processed,
          transcript: turns,
          transcriptRaw: raw,
          recording: {
            state: row.recording,
            path: row.rec_path,
            bytes: row.rec_bytes,
            sha256: row.rec_sha256,
            expiresAt: isoOrNull(row.rec_expires_ms),
            attempts: row.rec_attempts ?? 0,
            error: row.rec_error,
            playUrl: savedPath ? playbackUrl(ctx.options.host, savedPath) : null,
          },
          firstSeenAt: row.first_seen_at,
          updatedAt: row.updated_at,
          rawJson: JSON.stringify(JSON.parse(row.raw), null, 2),
        };
        return { call };
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
      'calls:export': async (req) => {
        const args = { ...(await filterFor(req.filter)), ...(req.sort ? { sort: req.sort } : {}) };
        const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
        const fileName = `calls-${stamp}.csv`;
        if ('path' in req) {
          const { rows, bytes } = await writeCallsCsv(db, args, req.path);
          return {
            rows,
            bytes,
            fileName: req.path.split(/[\\/]/).pop() ?? fileName,
            path: req.path,
            downloadUrl: null,
          };
        }
        const download = newDownload(ctx.options.dataDir);
        try {
          const { rows, bytes } = await writeCallsCsv(db, args, join(download.dir, fileName));
          return { rows, bytes, fileName, path: null, downloadUrl: download.url };
        } catch (error) {
          removeDownload(download.dir);
          throw error;
        }
      },
      'calls:campaign-results': async (req) => {
        const workspaceId = await workspaceOf(req.workspaceId);
        const r = await db.call('calls.campaignResults', {
          workspaceId,
          bulkListId: req.bulkListId,
          ...(req.outcomes ? { outcomes: req.outcomes } : {}),
          offset: req.offset,
          limit: req.limit,
        });
        if (!r)
          throw new DeskFailure(
            'not_found',
            `Campaign ${req.bulkListId} was not launched from a contact list here.`,
          );
        return { bulkListId: req.bulkListId, ...r };
      },
      'calls:follow-up-list': async (req) => {
        const workspaceId = await workspaceOf(req.workspaceId);
        const r = await db.call('calls.followUpList', {
          workspaceId,
          bulkListId: req.bulkListId,
          outcomes: req.outcomes,
          name: req.name,
          now: new Date().toISOString(),
        });
        if (!r)
          throw new DeskFailure(
            'not_found',
            `Campaign ${req.bulkListId} was not launched from a contact list here.`,
          );
        if (r.rows === 0) {
          await db.call('contacts.removeList', { listId: r.list.id });
          throw new DeskFailure('invalid_request', 'No contact has the chosen outcomes: no list was made.');
        }
        return { list: toContactList(r.list), rows: r.rows };
      },
      'calls:live': async (req) => live.status(await workspaceOf(req.workspaceId)),
      'recordings:disk-usage': async () => diskUsage(),
      'recordings:set-retention': async (req) => {
        await db.call('settings.set', { key: RETENTION_KEY, value: req.retentionDays });
        await applyRetention(req.retentionDays);
        return diskUsage();
      },
      'recordings:set-max-size': async (req) => {
        await db.call('settings.set', { key: MAX_SIZE_SETTING, value: req.maxMegabytes });
        return diskUsage();
      },
    };
  },
});
