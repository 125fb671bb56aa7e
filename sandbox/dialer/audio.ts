// A small but real recording, as long as the call: 8 kHz, 8-bit, two-channel PCM WAV (the agent on
// the left channel, the callee on the right, as call recordings are kept) with one tone segment per
// transcript turn (a brighter two-tone voice for the bot, a lower noisy one for the user) on the
// speaker's channel and short pauses between turns. 16 KB a second: a 1:01 call is about 1 MB. The
// audio depends only on the speaker sequence and the length in samples (`recordingKey`), and is
// rendered when it is asked for (recording.ts), so nothing is kept on disk. Segments are copied
// from blocks synthesised once.
import { wavHeaderBytes, writeWavHeader } from '../wav.ts';
import type { Turn } from './transcript.ts';

export const sampleRate = 8000;
export const channels = 2;
const silence = 128; // 8-bit PCM is unsigned: 128 is the zero line
const pauseFrames = Math.round(sampleRate * 0.5);

/** Sample frames of the recording of a call of `callSeconds` (at least one). */
export function audioFramesFor(callSeconds: number): number {
  return Math.max(1, Math.round(callSeconds * sampleRate));
}

/** Seconds of audio for a call of `callSeconds`: the call's length, to the sample. */
export function audioSecondsFor(callSeconds: number): number {
  return audioFramesFor(callSeconds) / sampleRate;
}

/** Bytes of the WAV file of a call of `callSeconds`. */
export function recordingBytesFor(callSeconds: number): number {
  return wavHeaderBytes + audioFramesFor(callSeconds) * channels;
}

/** The speakers of `turns` in order: `b` for the bot, `u` for the user. */
export function speakersOf(turns: readonly Turn[]): string {
  return turns.map((t) => ('bot' in t ? 'b' : 'u')).join('');
}

/** Calls with the same key get byte-identical audio. */
export function recordingKey(turns: readonly Turn[], callSeconds: number): string {
  return `${speakersOf(turns)}-${audioFramesFor(callSeconds)}`;
}

/** One second of a voice: `tones` [Hz, amplitude] summed, plus white noise of `noise` amplitude. */
function synthesise(tones: ReadonlyArray<readonly [number, number]>, noise: number): Uint8Array {
  const block = new Uint8Array(sampleRate);
  let seed = 0x2545f491;
  for (let i = 0; i < sampleRate; i++) {
    let v = 0;
    for (const [hz, amp] of tones) v += amp * Math.sin((2 * Math.PI * hz * i) / sampleRate);
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    v += noise * ((seed / 4294967296) * 2 - 1);
    // A slow tremolo so the segment sounds like a voice rather than a dial tone.
    v *= 0.75 + 0.25 * Math.sin((2 * Math.PI * 4 * i) / sampleRate);
    block[i] = Math.max(0, Math.min(255, Math.round(silence + v)));
  }
  return block;
}

const voices = {
  bot: [
    synthesise(
      [
        [440, 50],
        [660, 25],
      ],
      4,
    ),
    synthesise(
      [
        [520, 50],
        [780, 20],
      ],
      4,
    ),
  ],
  user: [
    synthesise(
      [
        [220, 45],
        [330, 15],
      ],
      14,
    ),
    synthesise(
      [
        [260, 45],
        [390, 15],
      ],
      14,
    ),
  ],
};

/** The WAV file of a call: `turns` in order, `callSeconds` long. */
export function renderRecording(turns: readonly Turn[], callSeconds: number): Uint8Array {
  return renderFromKey(recordingKey(turns, callSeconds));
}

/** The WAV file a `recordingKey` names (`<speakers>-<frames>`). */
export function renderFromKey(key: string): Uint8Array {
  const m = /^([bu]*)-(\d+)$/.exec(key);
  if (!m) throw new Error(`not a recording key: ${key}`);
  const speakers = m[1] as string;
  const total = Number(m[2]);
  const out = new Uint8Array(wavHeaderBytes + total * channels);
  writeWavHeader(new DataView(out.buffer), sampleRate, 8, total * channels, channels);
  const pcm = out.subarray(wavHeaderBytes);
  pcm.fill(silence);
  const turns = speakers.length;
  if (turns === 0) return out;
  // Equal time per turn (so the audio is a function of the key), pauses between turns.
  const pauses = Math.min(pauseFrames * (turns - 1), Math.floor(total / 3));
  const gap = turns > 1 ? Math.floor(pauses / (turns - 1)) : 0;
  const len = Math.floor((total - pauses) / turns);
  let pos = 0;
  for (let i = 0; i < turns; i++) {
    const bot = speakers[i] === 'b';
    const block = (bot ? voices.bot : voices.user)[i % 2] as Uint8Array;
    const channel = bot ? 0 : 1;
    for (let f = 0; f < len; f++) pcm[(pos + f) * channels + channel] = block[f % block.length] as number;
    pos += len + gap;
  }
  return out;
}

/** Minimal WAV reader for tests and checks: the format fields and the PCM bytes. */
export function parseWav(bytes: Uint8Array): {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  data: Uint8Array;
} {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (o: number) => String.fromCharCode(...bytes.subarray(o, o + 4));
  if (bytes.length < 44 || text(0) !== 'RIFF' || text(8) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let o = 12;
  let fmt: { format: number; channels: number; sampleRate: number; bitsPerSample: number } | null = null;
  while (o + 8 <= bytes.length) {
    const id = text(o);
    const size = v.getUint32(o + 4, true);
    if (id === 'fmt ') {
      fmt = {
        format: v.getUint16(o + 8, true),
        channels: v.getUint16(o + 10, true),
        sampleRate: v.getUint32(o + 12, true),
        bitsPerSample: v.getUint16(o + 22, true),
      };
    } else if (id === 'data') {
      if (!fmt) throw new Error('data chunk before fmt chunk');
      if (o + 8 + size > bytes.length) throw new Error('data chunk runs past the end of the file');
      return { ...fmt, data: bytes.subarray(o + 8, o + 8 + size) };
    }
    o += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}

/** The `file_path` of a recording rendered on request (no file): `synth:<recordingKey>`. */
export const synthPathPrefix = 'synth:';

const rendered = new Map<string, Uint8Array>();
/** Files rendered lately, kept for the next request (a player asks for a file in ranges). */
const keepRendered = 4;

/** The bytes of a rendered recording's `file_path`; null for a path that names a real file. */
export function synthesisedRecording(filePath: string): Uint8Array | null {
  if (!filePath.startsWith(synthPathPrefix)) return null;
  const key = filePath.slice(synthPathPrefix.length);
  let bytes = rendered.get(key);
  if (bytes) rendered.delete(key);
  else bytes = renderFromKey(key);
  rendered.set(key, bytes);
  while (rendered.size > keepRendered) rendered.delete(rendered.keys().next().value as string);
  return bytes;
}
