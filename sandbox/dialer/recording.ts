// Register a call's recording with the sandbox's recording routes (GET /v0/recordings/<token>),
// which serve it until 24 virtual hours after the call and answer 410 after. Recordings last as long
// as their calls (about 1 MB a minute), so none is written to disk: the row's file_path is
// `synth:<recordingKey>` and the route renders the audio when it is asked for (audio.ts).
// Synchronous: the dialer runs inside a virtual-clock step, and the URL must work as soon as the row
// points at it. Every call gets its own token (URL). Statements are prepared once: a campaign saves
// thousands of recordings.
import type { SandboxContext } from '../context.ts';
import { recordingUrl, recordingValidityMs } from '../recordings.ts';
import type { Rng } from '../rng.ts';
import { recordingBytesFor, recordingKey, synthPathPrefix } from './audio.ts';
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
  /** Distinct audio files (recording keys) this writer registered. */
  files(): number;
}

export function createRecordingWriter(ctx: SandboxContext): RecordingWriter {
  const known = new Set<string>();
  const insert = ctx.db.prepare<[string, string, string, number, number, number, number]>(
    `INSERT INTO recordings (token, call_id, file_path, content_type, size_bytes, duration_seconds, created_at, expires_at)
     VALUES (?, ?, ?, 'audio/wav', ?, ?, ?, ?)`,
  );
  const point = ctx.db.prepare<[string, string, number, number, string]>(
    'UPDATE calls SET recording_token = ?, recording_path = ?, recording_expires_at = ?, updated_at = ? WHERE id = ?',
  );

  function fileFor(turns: readonly Turn[], seconds: number): { path: string; size: number } {
    const key = recordingKey(turns, seconds);
    known.add(key);
    return { path: `${synthPathPrefix}${key}`, size: recordingBytesFor(seconds) };
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
