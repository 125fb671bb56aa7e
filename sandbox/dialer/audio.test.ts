import { describe, expect, it } from 'vitest';
import {
  audioSecondsFor,
  channels,
  parseWav,
  recordingBytesFor,
  recordingKey,
  renderRecording,
  sampleRate,
  synthesisedRecording,
  synthPathPrefix,
} from './audio.ts';

const turns = [
  { bot: 'Hello Asha, this is Priya calling from Sahayak Finance.' },
  { user: 'Yes, speaking.' },
  { bot: 'Your instalment of 5000 is due on 1/1/2027.' },
];

/** Mean distance from the zero line of `channel` over frames [from, to). */
function loudness(data: Uint8Array, channel: number, from: number, to: number): number {
  let energy = 0;
  for (let f = from; f < to; f++) energy += Math.abs((data[f * channels + channel] ?? 128) - 128);
  return energy / (to - from);
}

describe('renderRecording', () => {
  it('writes a valid 8 kHz 8-bit two-channel PCM WAV exactly as long as the call', () => {
    const wav = renderRecording(turns, 61.25);
    const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
    expect(view.getUint32(4, true)).toBe(wav.byteLength - 8); // RIFF size
    expect(view.getUint32(28, true)).toBe(sampleRate * channels); // byte rate
    const w = parseWav(wav);
    expect(w).toMatchObject({ format: 1, channels: 2, sampleRate, bitsPerSample: 8 });
    expect(w.data.length / channels / sampleRate).toBe(61.25);
    expect(audioSecondsFor(61.25)).toBe(61.25);
    expect(wav.byteLength).toBe(recordingBytesFor(61.25));
    // Small: 16 KB a second, a 1:01 call about 1 MB.
    expect(recordingBytesFor(61)).toBeLessThan(1_000_000);
  });

  it("is audible: each turn is a tone on its speaker's channel, with pauses between turns", () => {
    const { data } = parseWav(renderRecording(turns, 60));
    const frames = data.length / channels;
    // The bot's first turn on the left channel, the right one silent meanwhile.
    expect(loudness(data, 0, 0, 4000)).toBeGreaterThan(20);
    expect(loudness(data, 1, 0, 4000)).toBe(0);
    // The user's turn (the middle third) on the right channel.
    expect(loudness(data, 1, Math.round(frames / 2) - 2000, Math.round(frames / 2) + 2000)).toBeGreaterThan(
      20,
    );
    expect(loudness(data, 0, Math.round(frames / 2) - 2000, Math.round(frames / 2) + 2000)).toBe(0);
    // A pause: both channels on the zero line for a while.
    let quiet = 0;
    for (let f = 4000; f < frames && quiet < 2000; f++)
      quiet = data[f * 2] === 128 && data[f * 2 + 1] === 128 ? quiet + 1 : 0;
    expect(quiet).toBe(2000);
    expect(loudness(data, 0, frames - 4000, frames)).toBeGreaterThan(20); // the last turn, the bot's
  });

  it('is rendered from its key on request, never kept on disk, and refuses a bad key', () => {
    const key = recordingKey(turns, 45);
    expect(synthesisedRecording(`${synthPathPrefix}${key}`)).toEqual(renderRecording(turns, 45));
    expect(synthesisedRecording('/some/file.wav')).toBeNull();
    expect(() => synthesisedRecording(`${synthPathPrefix}not-a-key`)).toThrow(/not a recording key/);
  });

  it('parseWav refuses what is not a WAV', () => {
    expect(() =>
      parseWav(new TextEncoder().encode('not a wav file at all, just some text here......')),
    ).toThrow(/RIFF/);
  });

  it('gives calls that sound the same the same key and bytes, and different ones different', () => {
    const other = [{ bot: 'Hi.' }, { user: 'Who is this?' }, { bot: 'A different sentence entirely.' }];
    expect(recordingKey(other, 45)).toBe(recordingKey(turns, 45));
    expect(renderRecording(other, 45)).toEqual(renderRecording(turns, 45));
    const shorter = turns.slice(0, 2);
    expect(recordingKey(shorter, 45)).not.toBe(recordingKey(turns, 45));
    expect(renderRecording(shorter, 45)).not.toEqual(renderRecording(turns, 45));
    expect(recordingKey(turns, 60)).not.toBe(recordingKey(turns, 45));
  });
});
