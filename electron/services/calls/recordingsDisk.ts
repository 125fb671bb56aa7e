// The recordings' disk: what they use (saved and partial files), and the retention setting that
// removes saved recordings of calls older than it.
import { rmSync } from 'node:fs';
import type { DiskUsage } from '../../../shared/ipc/channels/calls.ts';
import type { DeskContext } from '../desk/context.ts';
import { maxRecordingMegabytes, partialDownloads, recordingsDir } from '../sync/recordings.ts';

export const RETENTION_KEY = 'recordings.retentionDays';
const DAY = 86_400_000;

export async function diskUsage(ctx: Pick<DeskContext, 'db' | 'options'>): Promise<DiskUsage> {
  const { db } = ctx;
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

/** Saved recordings of calls older than `days` removed (none when null), 500 at a time. */
export async function applyRetention(ctx: Pick<DeskContext, 'db'>, days: number | null): Promise<void> {
  if (days === null) return;
  for (;;) {
    const victims = await ctx.db.call('recordings.retentionVictims', {
      beforeMs: Date.now() - days * DAY,
      limit: 500,
    });
    for (const v of victims) {
      rmSync(v.path, { force: true });
      await ctx.db.call('recordings.update', {
        callId: v.callId,
        state: 'expired',
        error: `Removed after ${days} days (retention setting)`,
      });
    }
    if (victims.length < 500) return;
  }
}
