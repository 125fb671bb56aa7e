// Recording files: the dialer saves audio with saveRecording(); GET /v0/recordings/<token> serves
// it until 24 virtual hours after the call, then answers 410 Gone.
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { synthesisedRecording } from './dialer/audio.ts';
import { errorObject } from './http/errors.ts';

export const recordingValidityMs = 24 * 60 * 60 * 1000;
const recordingsPath = '/recordings/';

export interface SaveRecordingInput {
  callId: string;
  bytes: Uint8Array;
  /** Default `audio/wav`. */
  contentType?: string;
  /** Default `wav`. */
  extension?: string;
  durationSeconds?: number;
  /** When the call ended (virtual ms); the URL expires 24 h later. Default: now. */
  endedAtMs?: number;
}

export interface SavedRecording {
  token: string;
  url: string;
  filePath: string;
  expiresAt: number;
}

/** Store a recording file, register it, and point the call's `audio_recording` at it. */
export async function saveRecording(ctx: SandboxContext, input: SaveRecordingInput): Promise<SavedRecording> {
  const ext = (input.extension ?? 'wav').replace(/[^a-z0-9]/gi, '');
  const token = `${ctx.rng.hex(16)}.${ext}`;
  const dir = join(ctx.filesDir, 'recordings');
  await mkdir(dir, { recursive: true });
  const filePath = join(dir, token);
  const tmp = `${filePath}.tmp`;
  await writeFile(tmp, input.bytes);
  await rename(tmp, filePath);
  const endedAt = input.endedAtMs ?? ctx.clock.nowMs();
  const expiresAt = endedAt + recordingValidityMs;
  registerRecording(ctx, {
    token,
    callId: input.callId,
    filePath,
    contentType: input.contentType ?? 'audio/wav',
    sizeBytes: input.bytes.byteLength,
    durationSeconds: input.durationSeconds ?? null,
    createdAt: endedAt,
    expiresAt,
  });
  return { token, url: recordingUrl(ctx, token), filePath, expiresAt };
}

/** Register an existing file (several calls may share one, e.g. seeded history). */
export function registerRecording(
  ctx: SandboxContext,
  r: {
    token: string;
    callId: string;
    filePath: string;
    contentType: string;
    sizeBytes: number;
    durationSeconds: number | null;
    createdAt: number;
    expiresAt: number;
  },
): void {
  ctx.store.recordings.insert({
    token: r.token,
    call_id: r.callId,
    file_path: r.filePath,
    content_type: r.contentType,
    size_bytes: r.sizeBytes,
    duration_seconds: r.durationSeconds,
    created_at: r.createdAt,
    expires_at: r.expiresAt,
  });
  ctx.store.calls.update(
    r.callId,
    { recording_token: r.token, recording_path: r.filePath, recording_expires_at: r.expiresAt },
    ctx.clock.nowMs(),
  );
}

export function recordingUrl(ctx: SandboxContext, token: string): string {
  return `${ctx.baseUrl()}${recordingsPath}${token}`;
}

/** GET /v0/recordings/:file — public like a storage URL (the unguessable token is the secret). */
export function registerRecordingRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.get<{ Params: { file: string } }>(`/v0${recordingsPath}:file`, async (req, reply) => {
    const rec = ctx.store.recordings.get(req.params.file);
    if (!rec) return reply.code(404).send(errorObject('not_found', 'No such recording'));
    if (ctx.clock.nowMs() >= rec.expires_at) {
      return reply
        .code(410)
        .send(errorObject('recording_expired', 'This recording URL expired 24 hours after the call'));
    }
    // A dialled call's recording is rendered on request (dialer/audio.ts); a saved one is a file.
    const bytes = synthesisedRecording(rec.file_path);
    let size: number;
    if (bytes) size = bytes.byteLength;
    else {
      try {
        size = (await stat(rec.file_path)).size;
      } catch {
        return reply.code(404).send(errorObject('not_found', 'The recording file is missing'));
      }
    }
    reply.header('content-type', rec.content_type).header('accept-ranges', 'bytes');
    // One open-ended range (`bytes=N-`), as storage URLs serve it: a cut download resumes.
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      if (start >= size) return reply.code(416).header('content-range', `bytes */${size}`).send();
      reply.code(206).header('content-range', `bytes ${start}-${size - 1}/${size}`);
      reply.header('content-length', size - start);
      return reply.send(
        bytes ? Buffer.from(bytes.subarray(start)) : createReadStream(rec.file_path, { start }),
      );
    }
    // Sent as one buffer, so the `truncate` fault can cut it too (a call's is ~1 MB a minute).
    return reply.send(
      bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : await readFile(rec.file_path),
    );
  });
}

export const publicPathPrefixes = [`/v0${recordingsPath}`, '/v0/files/'];
