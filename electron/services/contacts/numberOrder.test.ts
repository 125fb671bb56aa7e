import { describe, expect, it } from 'vitest';
import { numberOrder } from './numberOrder.ts';

/** The same order by a plain comparator sort (stable: equal numbers keep collection order). */
const bySort = (e164: number[]): number[] =>
  e164.map((_, i) => i).sort((a, b) => e164[a]! - e164[b]! || a - b);

describe('numberOrder', () => {
  it('orders by number, equal numbers in collection order', () => {
    const e164 = [919876543210, 12015550123, 919876543210, 447700900123, 12015550123, 919876543210];
    expect([...numberOrder(Float64Array.from(e164), e164.length)]).toEqual([1, 4, 3, 0, 2, 5]);
  });

  it('uses only the first n numbers of a larger buffer', () => {
    const buffer = new Float64Array(10).fill(1);
    buffer.set([30, 10, 20]);
    expect([...numberOrder(buffer, 3)]).toEqual([1, 2, 0]);
    expect([...numberOrder(buffer, 0)]).toEqual([]);
  });

  it('agrees with a comparator sort on many numbers with repeats, up to 15 digits', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    const e164: number[] = [];
    for (let i = 0; i < 50_000; i++) {
      // Every fifth number repeats an earlier one; the rest span short to 15-digit numbers.
      e164.push(i % 5 === 4 ? e164[next() % e164.length]! : 10 ** (7 + (next() % 9)) + next());
    }
    expect([...numberOrder(Float64Array.from(e164), e164.length)]).toEqual(bySort(e164));
  });
});
