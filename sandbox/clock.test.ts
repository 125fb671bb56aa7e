import { describe, expect, it } from 'vitest';
import { createClock } from './clock.ts';

const frozen = (startMs = 1_000_000) => createClock({ startMs, speed: 0 });

describe('virtual clock', () => {
  it('stays put at speed 0 and jumps on advance', () => {
    const c = frozen();
    expect(c.nowMs()).toBe(1_000_000);
    c.advance(90);
    expect(c.nowMs()).toBe(1_090_000);
  });

  it('runs timers in time order at their own instant during a jump', () => {
    const c = frozen(0);
    const seen: Array<[string, number]> = [];
    c.schedule(5_000, () => seen.push(['b', c.nowMs()]));
    c.schedule(2_500, () => seen.push(['a', c.nowMs()]));
    const cancel = c.schedule(3_000, () => seen.push(['x', c.nowMs()]));
    cancel();
    c.schedule(60_000, () => seen.push(['later', c.nowMs()]));
    c.advance(10);
    expect(seen).toEqual([
      ['a', 2_500],
      ['b', 5_000],
    ]);
    c.advance(50);
    expect(seen.at(-1)).toEqual(['later', 60_000]);
  });

  it('ticks at most tickSeconds apart during a jump, and timers may schedule more timers', () => {
    const c = frozen(0);
    const ticks: number[] = [];
    c.onTick((t) => ticks.push(t));
    c.setTickSeconds(10);
    const fired: number[] = [];
    c.schedule(15_000, () => c.schedule(c.nowMs() + 1_000, () => fired.push(c.nowMs())));
    c.advance(30);
    expect(fired).toEqual([16_000]);
    expect(ticks).toEqual([10_000, 15_000, 16_000, 26_000, 30_000]);
  });

  it('follows real time times the speed', () => {
    let real = 0;
    const c = createClock({ startMs: 0, speed: 60, realNow: () => real });
    real = 1_000;
    expect(c.nowMs()).toBe(60_000);
    c.setSpeed(0);
    real = 5_000;
    expect(c.nowMs()).toBe(60_000);
    c.advance(1);
    expect(c.nowMs()).toBe(61_000);
  });

  it('keeps going when a listener throws, and reports it', () => {
    const errors: unknown[] = [];
    const c = createClock({ startMs: 0, speed: 0, onError: (e) => errors.push(e) });
    let after = false;
    c.schedule(1_000, () => {
      throw new Error('boom');
    });
    c.schedule(2_000, () => (after = true));
    c.advance(5);
    expect(after).toBe(true);
    expect(errors).toHaveLength(1);
  });

  it('refuses going backwards', () => {
    expect(() => frozen().advance(-1)).toThrow(RangeError);
    expect(() => frozen().setSpeed(-2)).toThrow(RangeError);
  });
});
