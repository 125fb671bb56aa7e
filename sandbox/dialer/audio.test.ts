import { describe, expect, it } from 'vitest';
import {
  audioSecondsFor,
  maxAudioSeconds,
  parseWav,
  recordingKey,
  renderRecording,
  sampleRate,
} from './audio.ts';

const turns = [
  { bot: 'Hello Asha, this is Priya calling from Sahayak Finance.' },
  { user: 'Yes, speaking.' },
  { bot: 'Your instalment of 5000 is due on 1/1/2027.' },
];

describe('renderRecording', () => {
  it('writes a valid 8 kHz 8-bit mono PCM WAV whose length follows the call duration', () => {
    const wav = renderRecording(turns, 45);
    const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
    expect(view.getUint32(4, true)).toBe(wav.byteLength - 8); // RIFF size
    const w = parseWav(wav);
    expect(w).toMatchObject({ format: 1, channels: 1, sampleRate, bitsPerSample: 8 });
    expect(w.data.length).toBe(Math.round(audioSecondsFor(45) * sampleRate));
    expect(w.data.length).toBe(12_000); // 45 s at 1/30 scale = 1.5 s
  });

  it('is audible: each turn is a tone segment, with pauses between turns', () => {
    const { data } = parseWav(renderRecording(turns, 60));
    const loud = (from: number, to: number) => {
      let energy = 0;
      for (let i = from; i < to; i++) energy += Math.abs((data[i] ?? 128) - 128);
      return energy / (to - from);
    };
    expect(loud(0, 400)).toBeGreaterThan(20); // the bot's first turn
    const pause = data.findIndex((v, i) => i > 100 && data.subarray(i, i + 200).every((s) => s === 128));
    expect(pause).toBeGreaterThan(0);
    expect(loud(data.length - 400, data.length)).toBeGreaterThan(20); // the last turn
  });

  it('stays small: clamped between 0.5 s and the cap', () => {
    expect(parseWav(renderRecording(turns, 3)).data.length).toBe(0.5 * sampleRate);
    expect(parseWav(renderRecording(turns, 3600)).data.length).toBe(maxAudioSeconds * sampleRate);
    expect(renderRecording(turns, 3600).byteLength).toBeLessThanOrEqual(44 + 16_000);
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
