import { describe, expect, it } from 'vitest';
import { importBatchMetaSchema, rowCellsSchema } from '../../../shared/ipc/channels/contacts.ts';
import { decodeBatch, isBatchMeta, isRowCells } from './batchData.ts';

const meta = {
  pos: 0,
  rows: [2, 3],
  buckets: [0, 1],
  flags: [0, 16],
  duplicateOf: [0, 0],
  e164: [919876543210, 0],
  rejects: [[1, 'phone_invalid', 'B,1']],
};

/** Variations of a good batch: each field broken in the ways a sender could break it. */
function variants(): unknown[] {
  const bad: unknown[] = [null, [], 'x', 1, {}, { ...meta, extra: 1 }];
  const values: unknown[] = [-1, 1.5, '1', null, undefined, NaN, 3, 256, 1e16, 0, [], {}, true];
  for (const key of Object.keys(meta) as Array<keyof typeof meta>) {
    for (const v of values) {
      bad.push({ ...meta, [key]: v });
      if (Array.isArray(meta[key])) {
        bad.push({ ...meta, [key]: [v, ...(meta[key] as unknown[]).slice(1)] });
        bad.push({ ...meta, [key]: [...(meta[key] as unknown[]), v] });
      }
    }
  }
  bad.push(
    { ...meta, rejects: [[1, 'x']] },
    { ...meta, rejects: [[1, 'x', 2]] },
    { ...meta, rejects: [[-1, 'x', 'y']] },
  );
  return bad;
}

describe('import batch checks', () => {
  it('accept exactly what the zod schemas accept', () => {
    expect(isBatchMeta(meta)).toBe(true);
    for (const v of variants()) {
      const fast = isBatchMeta(v);
      const zod = importBatchMetaSchema.safeParse(v).success;
      // The fast check may only be stricter than zod (zod then decides), never looser.
      if (fast) expect(zod, JSON.stringify(v)).toBe(true);
    }
    for (const v of [
      ['a'],
      [],
      ['a', 1],
      'a',
      [null],
      new Array(10_001).fill('x'),
      ['x'.repeat(1_000_001)],
    ]) {
      expect(isRowCells(v)).toBe(rowCellsSchema.safeParse(v).success);
    }
  });

  it('decodes a batch into what the database stores, keeping each row’s cells text as sent', () => {
    const plan = decodeBatch(`${JSON.stringify(meta)}\n["A","9876543210"]\n["B","1"]`, 1);
    expect(plan).toMatchObject({
      pos: 0,
      rows: [2, 3],
      issues: [0, 16],
      phoneRaw: ['9876543210', '1'],
      rejects: [[1, 'phone_invalid', null]], // the tail equals the rendered cells: not stored twice
    });
    expect(plan.cellsText.slice(0, plan.cellEnds[0])).toBe('["A","9876543210"]');
    expect(plan.cellsText.slice((plan.cellEnds[0] as number) + 1, plan.cellEnds[1])).toBe('["B","1"]');
    const kept = decodeBatch(
      `${JSON.stringify({ ...meta, rejects: [[1, 'phone_invalid', '"B",1']] })}\n["A","9876543210"]\n["B","1"]`,
      1,
    );
    expect(kept.rejects).toEqual([[1, 'phone_invalid', '"B",1']]);
    expect(() => decodeBatch(`${JSON.stringify({ ...meta, buckets: [0, 5] })}\n[]\n[]`, 1)).toThrow(
      /not valid at buckets.1/,
    );
    expect(() => decodeBatch(`${JSON.stringify(meta)}\n["A","9876543210"]`, 1)).toThrow(/no cells for row 3/);
  });

  it('reads the same batch sent as UTF-8 bytes, and refuses bytes that are not UTF-8 with a clear error', () => {
    const text = `${JSON.stringify(meta)}\n["Āsha","9876543210"]\n["B","1"]`;
    expect(decodeBatch(new TextEncoder().encode(text), 1)).toEqual(decodeBatch(text, 1));
    const broken = new TextEncoder().encode(text);
    broken[broken.length - 3] = 0xff;
    expect(() => decodeBatch(broken, 1)).toThrow('The import batch is not valid UTF-8 text.');
  });
});
