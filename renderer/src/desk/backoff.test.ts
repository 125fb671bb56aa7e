import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';

describe('backoffDelay', () => {
  const options = { initialMs: 100, maxMs: 1_000, factor: 2, jitter: 0.2 };
  it('doubles from the initial delay up to the cap', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, options, mid))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });
  it('spreads by at most the jitter fraction', () => {
    expect(backoffDelay(3, options, () => 0)).toBe(320);
    expect(backoffDelay(3, options, () => 1)).toBe(480);
  });
});
