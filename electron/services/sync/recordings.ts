// Recordings saved before their URLs die (24 h after the call): a queue ordered by expiry, a few
// downloads at a time, retries with backoff, resume of a partial file with `Range`, size and sha256
// recorded, files under <dataDir>/recordings/<workspace>/. A 410 means expired: marked, never retried.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { DbClient } from '../db/client.ts';
import type { RecordingJob } from '../db/queries/calls.ts';

export interface RecordingsOptions {
  db: DbClient;
  dataDir: string;
  /** Only this workspace's recordings (null: all). */
  workspaceId: string | null;
  signal: AbortSignal;
  concurrency?: number;
  maxAttempts?: number;
  baseDelayMs?: number;
  timeoutMs?: number;
  now?: () => number;
  fetch?: typeof fetch;
  onProgress?: (r: RecordingsResult) => void;
  /**
   * Recordings whose URL expired more than this long ago are marked expired without a request
   * (clocks differ a little; the service's own 410 decides the rest). Default 1 hour.
   */
  expiredGraceMs?: number;
}

export interface RecordingsResult {
  saved: number;
  expired: number;
  failed: number;
  retried: number;
  /** Downloads that went on from a partial file (HTTP 206). */
  resumed: number;
}

export const recordingsDir = (dataDir: string): string => join(dataDir, 'recordings');

const safeName = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 120);

/** Where a call's recording lives (and its partial download beside it). */
export const recordingPath = (dataDir: string, workspaceId: string, callId: string, url: string): string => {
  const ext = /\.(wav|mp3|ogg|m4a|webm)(?:$|\?)/i.exec(url)?.[1]?.toLowerCase() ?? 'wav';
  return join(recordingsDir(dataDir), safeName(workspaceId), `${safeName(callId)}.${ext}`);
};

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

const sizeOf = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

type Outcome =
  | { state: 'saved'; path: string; bytes: number; sha256: string; resumed: boolean }
  | { state: 'expired' }
  | { state: 'retry' | 'failed'; error: string };

/** One download attempt, resuming `<file>.part` when the server honours Range. */
async function download(job: RecordingJob, file: string, o: RecordingsOptions): Promise<Outcome> {
  const part = `${file}.part`;
  mkdirSync(join(file, '..'), { recursive: true });
  const have = sizeOf(part);
  const signal = AbortSignal.any([o.signal, AbortSignal.timeout(o.timeoutMs ?? 60_000)]);
  let res: Response;
  try {
    res = await (o.fetch ?? fetch)(job.url, { signal, headers: have > 0 ? { range: `bytes=${have}-` } : {} });
  } catch (e) {
    return { state: 'retry', error: `unreachable: ${(e as Error).message}` };
  }
  if (res.status === 410) return { state: 'expired' };
  if (res.status === 416 && have > 0) {
    // The partial file is already whole (or longer than the source): start over.
    rmSync(part, { force: true });
    return { state: 'retry', error: 'range not satisfiable' };
  }
  if (res.status === 404) return { state: 'failed', error: 'The recording was not found (404)' };
  if (res.status !== 200 && res.status !== 206)
    return {
      state: res.status === 429 || res.status >= 500 ? 'retry' : 'failed',
      error: `HTTP ${res.status}`,
    };
  const append = res.status === 206 && have > 0;
  const expected = Number(res.headers.get('content-length') ?? NaN);
  try {
    await pipeline(
      Readable.fromWeb(res.body as WebReadableStream),
      createWriteStream(part, { flags: append ? 'a' : 'w' }),
    );
  } catch (e) {
    return { state: 'retry', error: `cut: ${(e as Error).message}` };
  }
  const bytes = sizeOf(part);
  if (Number.isFinite(expected) && bytes !== (append ? have : 0) + expected)
    return { state: 'retry', error: `cut after ${bytes} bytes` };
  renameSync(part, file);
  return { state: 'saved', path: file, bytes, sha256: await sha256Of(file), resumed: append };
}

/** Saves pending recordings until none is due; resolves with what happened. */
export async function saveRecordings(o: RecordingsOptions): Promise<RecordingsResult> {
  const result: RecordingsResult = { saved: 0, expired: 0, failed: 0, retried: 0, resumed: 0 };
  const now = o.now ?? Date.now;
  const concurrency = o.concurrency ?? 3;
  const maxAttempts = o.maxAttempts ?? 5;
  const base = o.baseDelayMs ?? 1000;
  const inFlight = new Set<string>();
  result.expired += await o.db.call('recordings.expireOverdue', {
    workspaceId: o.workspaceId,
    beforeMs: now() - (o.expiredGraceMs ?? 3_600_000),
  });

  async function one(job: RecordingJob): Promise<void> {
    const file = recordingPath(o.dataDir, job.workspaceId, job.callId, job.url);
    const out = await download(job, file, o);
    if (o.signal.aborted) return;
    if (out.state === 'saved') {
      result.saved++;
      if (out.resumed) result.resumed++;
      await o.db.call('recordings.update', {
        callId: job.callId,
        state: 'saved',
        path: out.path,
        bytes: out.bytes,
        sha256: out.sha256,
        attempted: true,
      });
    } else if (out.state === 'expired') {
      result.expired++;
      rmSync(`${file}.part`, { force: true });
      await o.db.call('recordings.update', {
        callId: job.callId,
        state: 'expired',
        error: 'The recording URL expired (410)',
        attempted: true,
      });
    } else if (out.state === 'failed' || job.attempts + 1 >= maxAttempts) {
      result.failed++;
      await o.db.call('recordings.update', {
        callId: job.callId,
        state: 'failed',
        error: out.error,
        attempted: true,
      });
    } else {
      result.retried++;
      const delay = Math.min(60_000, base * 2 ** job.attempts) * (0.5 + Math.random() / 2);
      await o.db.call('recordings.update', {
        callId: job.callId,
        state: 'pending',
        error: out.error,
        nextTryMs: now() + delay,
        attempted: true,
      });
    }
    o.onProgress?.({ ...result });
  }

  const workers = Array.from({ length: concurrency }, async () => {
    for (;;) {
      if (o.signal.aborted) return;
      const [job] = await o.db.call('recordings.next', {
        workspaceId: o.workspaceId,
        limit: 1,
        nowMs: now(),
        skip: [...inFlight],
      });
      if (!job) {
        // Retries wait for their time; stop when only those are left and nothing is in flight.
        const waiting = await o.db.call('recordings.next', {
          workspaceId: o.workspaceId,
          limit: 1,
          nowMs: now() + 60_000,
          skip: [...inFlight],
        });
        if (waiting.length === 0 || inFlight.size > 0) {
          if (inFlight.size === 0) return;
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        await new Promise((r) =>
          setTimeout(r, Math.max(20, Math.min(1000, (waiting[0]?.attempts ?? 0) * 100))),
        );
        continue;
      }
      // Another worker may have claimed it while we asked (check and claim without an await between).
      if (inFlight.has(job.callId)) continue;
      inFlight.add(job.callId);
      try {
        await one(job);
      } finally {
        inFlight.delete(job.callId);
      }
    }
  });
  await Promise.all(workers);
  return result;
}
