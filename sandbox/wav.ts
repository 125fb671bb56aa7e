// PCM WAV files (real, playable): the header the dialer's recordings (two channels) and the seeded
// calls' silent files (mono) both start with.

/** Bytes before the samples. */
export const wavHeaderBytes = 44;

/** Write the RIFF/WAVE header of a PCM file whose `dataBytes` of (interleaved) samples follow it. */
export function writeWavHeader(
  v: DataView,
  sampleRate: number,
  bitsPerSample: 8 | 16,
  dataBytes: number,
  channels: 1 | 2 = 1,
): void {
  const blockAlign = (bitsPerSample / 8) * channels;
  const ascii = (offset: number, s: string) => {
    for (let i = 0; i < s.length; i++) v.setUint8(offset + i, s.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true); // PCM chunk size
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, channels, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * blockAlign, true); // byte rate
  v.setUint16(32, blockAlign, true);
  v.setUint16(34, bitsPerSample, true);
  ascii(36, 'data');
  v.setUint32(40, dataBytes, true);
}

/** A mono 8 kHz 16-bit PCM WAV of silence. */
export function silentWav(seconds: number, sampleRate = 8000): Uint8Array {
  const dataBytes = Math.round(seconds * sampleRate) * 2;
  const out = new Uint8Array(wavHeaderBytes + dataBytes); // zero samples: silence at 16 bits
  writeWavHeader(new DataView(out.buffer), sampleRate, 16, dataBytes);
  return out;
}
