// Recordings saved before their URLs die (24 h after the call): a queue ordered by expiry, a few
// downloads at a time, retries with backoff, resume of a partial file with `Range`, size and sha256
// recorded, files under <dataDir>/recordings/<workspace>/. A 410 means expired: marked, never retried.
// The URLs come from the service, so each download is guarded (recordingGuard.ts): no request to a
// local or private address, redirects followed here and checked hop by hop, audio content types
// only, a size cap checked on the declared length and while streaming. No credential is sent.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { z } from 'zod';
import type { DbClient } from '../db/client.ts';
import type { RecordingJob } from '../calls/recordings.queries.ts';
import { ensurePrivateDir, PRIVATE_FILE_MODE, tightenFile } from '../privateFiles.ts';
import { checkRecordingUrl } from './recordingGuard.ts';
import type { Lookup } from './recordingGuard.ts';

/** The size cap setting (Calls → Sync, next to the retention), in megabytes of 1,000,000 bytes. */
export const MAX_SIZE_SETTING = 'recordings.maxMegabytes';
export const DEFAULT_MAX_MEGABYTES = 200;
export const maxMegabytesSchema = z.number().int().min(1).max(100_000);

/** The cap in force: the setting, or 200 MB when none (or a damaged one) is stored. */
export async function maxRecordingMegabytes(db: DbClient): Promise<number> {
  const parsed = maxMegabytesSchema.safeParse(await db.call('settings.get', { key: MAX_SIZE_SETTING }));
  return parsed.success ? parsed.data : DEFAULT_MAX_MEGABYTES;
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** What a recording may be served as; none at all is read as octet-stream (RFC 9110 §8.3). */
const AUDIO_TYPE = /^\s*(audio\/[\w.+-]+|application\/octet-stream|binary\/octet-stream)\s*(;|$)/i;

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
  /** A recording larger than this is not kept (declared or streamed). Default 200 MB. */
  maxBytes?: number;
  /**
   * The workspace's service origin (scheme://host:port of its base URL): recordings there are
   * fetched even from a loopback or private address (the built-in Sandbox). Null: none is.
   */
  serviceOrigin?: string | null;
  /** Host name resolution for the address check (tests); default dns.lookup. */
  lookup?: Lookup;
  /**
   * True while the history pass alongside is still storing calls: with nothing due, the workers
   * wait for new recordings instead of stopping.
   */
  moreComing?: () => boolean;
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

class OverCap extends Error {}

const megabytes = (bytes: number) => `${Math.round(bytes / 100_000) / 10} MB`;
const overCap = (bytes: number | null, max: number): Outcome => ({
  state: 'failed',
  error: `Refused: the recording is ${bytes === null ? 'larger than' : `${megabytes(bytes)}, over`} the ${megabytes(max)} size limit (Calls → Sync)`,
});

/** The response to `url`, redirects followed by hand with each hop's address checked; or why not. */
async function fetchGuarded(
  url: string,
  init: { signal: AbortSignal; headers: Record<string, string> },
  o: RecordingsOptions,
): Promise<Response | Outcome> {
  let target = url;
  for (let hop = 0; ; hop++) {
    const verdict = await checkRecordingUrl(target, o.serviceOrigin ?? null, o.lookup);
    if (!verdict.ok) return { state: verdict.refused ? 'failed' : 'retry', error: verdict.reason };
    let res: Response;
    try {
      res = await (o.fetch ?? fetch)(verdict.url.toString(), { ...init, redirect: 'manual' });
    } catch (e) {
      return { state: 'retry', error: `unreachable: ${(e as Error).message}` };
    }
    if (!REDIRECTS.has(res.status)) return res;
    await res.body?.cancel().catch(() => undefined);
    const location = res.headers.get('location');
    if (location === null) return { state: 'failed', error: `HTTP ${res.status} without a Location` };
    if (hop >= MAX_REDIRECTS)
      return { state: 'failed', error: `Refused: more than ${MAX_REDIRECTS} redirects` };
    try {
      target = new URL(location, verdict.url).toString();
    } catch {
      return { state: 'failed', error: 'Refused: a redirect to an address that is not a URL' };
    }
  }
}

/** One download attempt, resuming `<file>.part` when the server honours Range. */
async function download(job: RecordingJob, file: string, o: RecordingsOptions): Promise<Outcome> {
  const part = `${file}.part`;
  const maxBytes = o.maxBytes ?? DEFAULT_MAX_MEGABYTES * 1_000_000;
  ensurePrivateDir(dirname(file));
  const have = sizeOf(part);
  if (have >= maxBytes) return overCap(null, maxBytes);
  const signal = AbortSignal.any([o.signal, AbortSignal.timeout(o.timeoutMs ?? 60_000)]);
  const res = await fetchGuarded(
    job.url,
    { signal, headers: have > 0 ? { range: `bytes=${have}-` } : {} },
    o,
  );
  if ('state' in res) return res;
  const drop = () => res.body?.cancel().catch(() => undefined);
  if (res.status === 410) {
    await drop();
    return { state: 'expired' };
  }
  if (res.status === 416 && have > 0) {
    // The partial file is already whole (or longer than the source): start over.
    await drop();
    rmSync(part, { force: true });
    return { state: 'retry', error: 'range not satisfiable' };
  }
  if (res.status === 404) {
    await drop();
    return { state: 'failed', error: 'The recording was not found (404)' };
  }
  if (res.status !== 200 && res.status !== 206) {
    await drop();
    return {
      state: res.status === 429 || res.status >= 500 ? 'retry' : 'failed',
      error: `HTTP ${res.status}`,
    };
  }
  const type = res.headers.get('content-type');
  if (type !== null && !AUDIO_TYPE.test(type)) {
    await drop();
    return { state: 'failed', error: `Refused: the server sent ${type.slice(0, 60)}, not audio` };
  }
  const append = res.status === 206 && have > 0;
  const start = append ? have : 0;
  const declared = res.headers.get('content-length')?.trim() ?? '';
  const expected = /^\d+$/.test(declared) ? Number(declared) : NaN;
  if (Number.isFinite(expected) && start + expected > maxBytes) {
    await drop();
    return overCap(start + expected, maxBytes);
  }
  let written = 0;
  try {
    await pipeline(
      res.body ? Readable.fromWeb(res.body as WebReadableStream) : Readable.from([]),
      // Counted before writing: the chunk that would pass the cap is never written.
      async function* capped(source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          written += chunk.length;
          if (start + written > maxBytes) throw new OverCap();
          yield chunk;
        }
      },
      createWriteStream(part, { flags: append ? 'a' : 'w', mode: PRIVATE_FILE_MODE }),
    );
  } catch (e) {
    if (e instanceof OverCap) return overCap(null, maxBytes);
    return { state: 'retry', error: `cut: ${(e as Error).message}` };
  }
  const bytes = sizeOf(part);
  if (Number.isFinite(expected) && bytes !== start + expected)
    return { state: 'retry', error: `cut after ${bytes} bytes` };
  tightenFile(part); // a partial file an older build left 0644
  renameSync(part, file);
  return { state: 'saved', path: file, bytes, sha256: await sha256Of(file), resumed: append };
}

/** The partial downloads (`*.part`) under recordings/, or those of one workspace. */
function partialFiles(dataDir: string, workspaceId: string | null): string[] {
  const root = recordingsDir(dataDir);
  let folders: string[];
  try {
    folders =
      workspaceId === null
        ? readdirSync(root, { withFileTypes: true })
            .filter((d) => d.isDirectory())
            .map((d) => join(root, d.name))
        : [join(root, safeName(workspaceId))];
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const folder of folders) {
    try {
      for (const name of readdirSync(folder)) if (name.endsWith('.part')) out.push(join(folder, name));
    } catch {
      // no such folder yet
    }
  }
  return out;
}

/** Bytes and count of partial downloads: they take disk space too (shown with the disk use). */
export function partialDownloads(dataDir: string): { bytes: number; files: number } {
  const files = partialFiles(dataDir, null);
  return { bytes: files.reduce((sum, f) => sum + sizeOf(f), 0), files: files.length };
}

/**
 * Removes partial downloads no pending recording will resume: those of recordings that failed,
 * expired, were refused or removed (or left by a crash between marking and removing).
 */
export async function sweepPartials(
  db: DbClient,
  dataDir: string,
  workspaceId: string | null,
): Promise<number> {
  const found = partialFiles(dataDir, workspaceId);
  if (found.length === 0) return 0;
  const LIMIT = 100_000;
  const pending = await db.call('recordings.next', {
    workspaceId,
    limit: LIMIT,
    nowMs: Number.MAX_SAFE_INTEGER,
    skip: [],
  });
  if (pending.length >= LIMIT) return 0; // too many to tell: keep them for now
  const keep = new Set(pending.map((j) => `${recordingPath(dataDir, j.workspaceId, j.callId, j.url)}.part`));
  let removed = 0;
  for (const file of found) {
    if (keep.has(file)) continue;
    rmSync(file, { force: true });
    removed++;
  }
  return removed;
}

/** Saves pending recordings until none is due; resolves with what happened. */
export async function saveRecordings(o: RecordingsOptions): Promise<RecordingsResult> {
  const result: RecordingsResult = { saved: 0, expired: 0, failed: 0, retried: 0, resumed: 0 };
  const now = o.now ?? Date.now;
  const concurrency = o.concurrency ?? 3;
  const maxAttempts = o.maxAttempts ?? 5;
  const base = o.baseDelayMs ?? 1000;
  const inFlight = new Set<string>();
  await sweepPartials(o.db, o.dataDir, o.workspaceId);
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
      rmSync(`${file}.part`, { force: true }); // abandoned: nothing will resume it
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
          if (inFlight.size === 0 && !o.moreComing?.()) return;
          await new Promise((r) => setTimeout(r, inFlight.size === 0 ? 250 : 50));
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
