import { describe, expect, it } from 'vitest';
import { binaryFieldOf, decodeBinaryInvoke, encodeBinaryInvoke } from './wire.ts';

describe('binary invokes (an import batch as one binary frame)', () => {
  const bytes = new TextEncoder().encode('{"pos":0}\n["a","b"]');
  const message = {
    type: 'invoke' as const,
    id: 7,
    channel: 'contacts:import-batch',
    request: { importId: 'abcdefgh', seq: 3, data: bytes },
  };

  it('carries the bytes as they are and the rest of the invoke as checked JSON', () => {
    expect(binaryFieldOf(message.request)).toBe('data');
    expect(binaryFieldOf({ importId: 'x' })).toBeNull();
    const frame = encodeBinaryInvoke(message, 'data');
    const back = decodeBinaryInvoke(frame);
    expect(back).toMatchObject({
      type: 'invoke',
      id: 7,
      channel: 'contacts:import-batch',
      request: { importId: 'abcdefgh', seq: 3 },
    });
    expect(Array.from((back?.request as { data: Uint8Array }).data)).toEqual(Array.from(bytes));
  });

  it('refuses a frame whose header is cut, not JSON, or not an invoke', () => {
    const frame = encodeBinaryInvoke(message, 'data');
    expect(decodeBinaryInvoke(frame.subarray(0, 3))).toBeNull();
    const tooLong = frame.slice();
    new DataView(tooLong.buffer).setUint32(0, frame.byteLength, true);
    expect(decodeBinaryInvoke(tooLong)).toBeNull();
    const header = (json: string) => {
      const h = new TextEncoder().encode(json);
      const f = new Uint8Array(4 + h.byteLength);
      new DataView(f.buffer).setUint32(0, h.byteLength, true);
      f.set(h, 4);
      return f;
    };
    expect(decodeBinaryInvoke(header('{not json'))).toBeNull();
    expect(decodeBinaryInvoke(header('{"type":"invoke","id":1,"channel":"x","request":{}}'))).toBeNull(); // no binaryField
    expect(
      decodeBinaryInvoke(header('{"type":"event","id":1,"channel":"x","request":{},"binaryField":"data"}')),
    ).toBeNull();
  });
});
