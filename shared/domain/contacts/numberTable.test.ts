import { describe, expect, it } from 'vitest';
import { createNumberTable } from './numberTable.ts';

describe('number table', () => {
  it('keeps the first row of each number, across resizes, like a Map', () => {
    const table = createNumberTable(4);
    const reference = new Map<number, number>();
    let seed = 7;
    for (let row = 1; row <= 50_000; row++) {
      seed = (seed * 48271) % 2147483647;
      // Realistic keys, with repeats: +91 mobiles, +1 numbers, 15 and 16-digit ones.
      const key = [
        919800000000 + (seed % 20000),
        14155550000 + (seed % 3000),
        999999999999999,
        9007199254740991,
      ][seed % 4] as number;
      const first = reference.get(key);
      expect(table.claim(key, row)).toBe(first ?? 0);
      if (first === undefined) reference.set(key, row);
    }
    expect(table.size).toBe(reference.size);
    for (const [key, row] of reference) expect(table.get(key)).toBe(row);
    expect(table.get(123)).toBe(0);
  });
});
