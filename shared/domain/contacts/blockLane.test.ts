// The lane state machine both hosts (Node worker threads, Web Workers) run.
import { describe, expect, it } from 'vitest';
import { createBlockLane, laneFailure } from './blockLane.ts';
import { ContactsError } from './errors.ts';
import { sniff } from './sniff.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const { setup } = sniff(utf8('Name,Mobile Number\n'), true, { country: 'IN' });
const body = 'Asha,9876543210\nRavi,12\n';

describe('block lane', () => {
  it('refuses work before its setup', () => {
    const lane = createBlockLane();
    expect(() => lane({ id: 1, kind: 'block', block: { seq: 0, bytes: utf8(body) } })).toThrow(/no setup/);
  });

  it('answers null to setup, then a result per block, with cells only when asked', () => {
    const lane = createBlockLane({ includeCells: true });
    expect(lane({ id: 1, kind: 'setup', setup })).toBeNull();
    const result = lane({ id: 2, kind: 'block', block: { seq: 4, bytes: utf8(body) } });
    expect(result?.seq).toBe(4);
    expect(result?.records).toBe(2);
    expect(result?.cells).toEqual([
      ['Asha', '9876543210'],
      ['Ravi', '12'],
    ]);
    const plain = createBlockLane();
    plain({ id: 1, kind: 'setup', setup });
    expect(plain({ id: 2, kind: 'block', block: { seq: 0, bytes: utf8(body) } })?.cells).toBeUndefined();
  });

  it('without the upload text (as the app lanes run), every other part of the result is the same', () => {
    const withUpload = createBlockLane();
    const without = createBlockLane({ upload: false });
    withUpload({ id: 1, kind: 'setup', setup });
    without({ id: 1, kind: 'setup', setup });
    const block = (lane: typeof without) =>
      lane({ id: 2, kind: 'block', block: { seq: 0, bytes: utf8(`${body}Meena,9123456789\n`) } })!;
    const full = block(withUpload);
    const bare = block(without);
    expect(new TextDecoder().decode(full.upload)).toContain('+919876543210');
    expect(bare.upload).toHaveLength(0);
    // One line end per valid row still (all at 0), so the merger cuts duplicates the same way.
    expect(Array.from(bare.uploadEnds)).toEqual([0, 0]);
    const { upload: _u, uploadEnds: _e, ...rest } = full;
    const { upload: _bu, uploadEnds: _be, ...bareRest } = bare;
    expect(bareRest).toEqual(rest);
  });

  it('streams across pushes; a new setup drops the open stream', () => {
    const lane = createBlockLane();
    lane({ id: 1, kind: 'setup', setup });
    // A record cut in the middle waits for the next push (small pushes wait for a whole block).
    const first = lane({ id: 2, kind: 'stream-push', bytes: utf8('Asha,98765'), seq: 0 })?.records;
    const second = lane({ id: 3, kind: 'stream-push', bytes: utf8('43210\nRavi,1'), seq: 1 })?.records;
    const last = lane({ id: 4, kind: 'stream-end', seq: 2 })?.records;
    expect(first).toBe(0);
    expect((second ?? 0) + (last ?? 0)).toBe(2);
    lane({ id: 5, kind: 'stream-push', bytes: utf8('Asha,98765'), seq: 0 });
    lane({ id: 6, kind: 'setup', setup });
    expect(lane({ id: 7, kind: 'stream-end', seq: 1 })?.records).toBe(0);
  });

  it('reports the engine code of a failure, and null for anything else', () => {
    expect(laneFailure(new ContactsError('invalid_utf8', 'the file is not valid UTF-8'))).toEqual({
      code: 'invalid_utf8',
      message: 'the file is not valid UTF-8',
    });
    expect(laneFailure(new Error('boom'))).toEqual({ code: null, message: 'boom' });
    expect(laneFailure('odd')).toEqual({ code: null, message: 'odd' });
  });
});
