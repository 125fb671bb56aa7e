// Save a call's recording and register it with the sandbox's recording routes (GET
// /v0/recordings/<token>), which serve it until 24 virtual hours after the call and answer 410 after.
// Synchronous: the dialer runs inside a virtual-clock step, and the URL must work as soon as the row
// points at it. Every call gets its own token (URL); calls whose audio is identical (same
// recordingKey) share one file, written once (temp file + rename, so never half-written).
// Statements are prepared once: a campaign saves thousands of recordings.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxContext } from '../context.ts';
import { recordingUrl, recordingValidityMs } from '../recordings.ts';
import type { Rng } from '../rng.ts';
import { recordingKey, renderRecording } from './audio.ts';
import type { Turn } from './transcript.ts';

export interface WrittenRecording {
  token: string;
  url: string;
  filePath: string;
  sizeBytes: number;
}

export interface RecordingInput {
  callId: string;
  turns: readonly Turn[];
  durationSeconds: number;
  endedAtMs: number;
  nowMs: number;
}

export interface RecordingWriter {
  write(rng: Rng, input: RecordingInput): WrittenRecording;
  /** Distinct audio files written or found by this writer. */
  files(): number;
}

export function createRecordingWriter(ctx: SandboxContext): RecordingWriter {
  const dir = join(ctx.filesDir, 'recordings');
  const known = new Map<string, { path: string; size: number }>();
  let dirReady = false;
  const insert = ctx.db.prepare<[string, string, string, number, number, number, number]>(
    `INSERT INTO recordings (token, call_id, file_path, content_type, size_bytes, duration_seconds, created_at, expires_at)
     VALUES (?, ?, ?, 'audio/wav', ?, ?, ?, ?)`,
  );
  const point = ctx.db.prepare<[string, string, number, number, string]>(
    'UPDATE calls SET recording_token = ?, recording_path = ?, recording_expires_at = ?, updated_at = ? WHERE id = ?',
  );

  function fileFor(turns: readonly Turn[], seconds: number): { path: string; size: number } {
    const key = recordingKey(turns, seconds);
    let f = known.get(key);
    if (f) return f;
    if (!dirReady) {
      mkdirSync(dir, { recursive: true });
      dirReady = true;
    }
    const wav = renderRecording(turns, seconds);
    const path = join(dir, `call-audio-${key}.wav`);
    if (!existsSync(path)) {
      writeFileSync(`${path}.tmp`, wav);
      renameSync(`${path}.tmp`, path);
    }
    f = { path, size: wav.byteLength };
    known.set(key, f);
    return f;
  }

  return {
    write(rng, input) {
      const file = fileFor(input.turns, input.durationSeconds);
      const token = `${rng.hex(16)}.wav`;
      const expiresAt = input.endedAtMs + recordingValidityMs;
      insert.run(
        token,
        input.callId,
        file.path,
        file.size,
        input.durationSeconds,
        input.endedAtMs,
        expiresAt,
      );
      point.run(token, file.path, expiresAt, input.nowMs, input.callId);
      return { token, url: recordingUrl(ctx, token), filePath: file.path, sizeBytes: file.size };
    },
    files: () => known.size,
  };
}
