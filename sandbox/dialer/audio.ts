// A small but real recording: 8 kHz, 8-bit mono PCM WAV with one tone segment per transcript turn
// (a brighter two-tone voice for the bot, a lower noisy one for the user) and short pauses between
// turns. Its length follows the call's duration at 1/30 scale in 0.1 s steps, between 0.5 s and 2 s
// (≤ 16 KB). The audio depends only on the speaker sequence and that length, so calls that sound the
// same share one file (`recordingKey`): a 6,000-call campaign writes a few hundred files, not
// thousands. Segments are copied from blocks synthesised once (microseconds per file).
import { wavHeaderBytes, writeWavHeader } from '../wav.ts';
import type { Turn } from './transcript.ts';

export const sampleRate = 8000;
export const minAudioSeconds = 0.5;
export const maxAudioSeconds = 2;
const silence = 128; // 8-bit PCM is unsigned: 128 is the zero line
const pauseSamples = Math.round(sampleRate * 0.08);

/** Seconds of audio for a call of `callSeconds` (0.1 s steps). */
export function audioSecondsFor(callSeconds: number): number {
  return Math.round(Math.min(maxAudioSeconds, Math.max(minAudioSeconds, callSeconds / 30)) * 10) / 10;
}

/** Calls with the same key get byte-identical audio. */
export function recordingKey(turns: readonly Turn[], callSeconds: number): string {
  const speakers = turns.map((t) => ('bot' in t ? 'b' : 'u')).join('');
  return `${speakers}-${Math.round(audioSecondsFor(callSeconds) * 10)}`;
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

/** The WAV file of a call: `turns` in order, `callSeconds` long at 1/30 scale (clamped, 0.1 s steps). */
export function renderRecording(turns: readonly Turn[], callSeconds: number): Uint8Array {
  const total = Math.round(audioSecondsFor(callSeconds) * sampleRate);
  const out = new Uint8Array(wavHeaderBytes + total);
  writeWavHeader(new DataView(out.buffer), sampleRate, 8, total);
  const pcm = out.subarray(wavHeaderBytes);
  pcm.fill(silence);
  if (turns.length === 0) return out;
  // Equal time per turn (so the audio is a function of recordingKey), pauses between turns.
  const pauses = Math.min(pauseSamples * (turns.length - 1), Math.floor(total / 3));
  const speaking = total - pauses;
  const gap = turns.length > 1 ? Math.floor(pauses / (turns.length - 1)) : 0;
  const len = Math.floor(speaking / turns.length);
  let pos = 0;
  turns.forEach((t, i) => {
    const voice = 'bot' in t ? voices.bot : voices.user;
    const block = voice[i % voice.length] as Uint8Array;
    for (let done = 0; done < len;) {
      const n = Math.min(block.length, len - done);
      pcm.set(block.subarray(0, n), pos + done);
      done += n;
    }
    pos += len + gap;
  });
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
