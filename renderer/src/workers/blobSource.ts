// A File (or any Blob) as the engine's ChunkSource: 1 MiB slices read one at a time, so a
// 100 MB file is never in memory at once and reading stops whenever the engine stops asking.
import type { ChunkSource } from '../../../shared/domain/contacts/index.ts';

export const SLICE_BYTES = 1 << 20;

export const readSlice = async (blob: Blob, start: number, end: number): Promise<Uint8Array> =>
  new Uint8Array(await blob.slice(start, end).arrayBuffer());

export function blobSource(blob: Blob, sliceBytes = SLICE_BYTES): ChunkSource {
  return {
    totalBytes: blob.size,
    async *open() {
      for (let at = 0; at < blob.size; at += sliceBytes) yield await readSlice(blob, at, at + sliceBytes);
    },
  };
}
