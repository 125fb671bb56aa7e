import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from './adaptiveLimit.ts';

const never = new AbortController().signal;
const tick = () => new Promise((r) => setTimeout(r, 0));

/** Asks for n slots; answers which were granted so far, in the order asked. */
function ask(limit: AdaptiveLimit, n: number, signal = never) {
  const granted: number[] = [];
  const all = Array.from({ length: n }, (_, i) => limit.acquire(signal).then(() => void granted.push(i)));
  return { granted, all };
}

const options = { max: 4, growAfterPages: 3, latencyRiseFactor: 2 };

describe('AdaptiveLimit', () => {
  it('lets at most the limit through, first come first served', async () => {
    const limit = new AdaptiveLimit(options);
    const { granted } = ask(limit, 6);
    await tick();
    expect(granted).toEqual([0, 1, 2, 3]);
    limit.release();
    await tick();
    expect(granted).toEqual([0, 1, 2, 3, 4]);
    expect(limit.stats().peakInFlight).toBe(4);
  });

  it("serves a window's first page (ahead) before the pages waiting, first come first served among them", async () => {
    const limit = new AdaptiveLimit({ ...options, max: 1 });
    const order: string[] = [];
    const take = (name: string, ahead = false) =>
      limit.acquire(never, ahead).then(() => void order.push(name));
    const all = [
      take('busy'),
      take('p1'),
      take('p2'),
      take('first A', true),
      take('p3'),
      take('first B', true),
    ];
    for (let i = 0; i < 6; i++) {
      await tick();
      limit.release();
    }
    await Promise.all(all);
    expect(order).toEqual(['busy', 'first A', 'first B', 'p1', 'p2', 'p3']);
    expect(limit.stats().peakInFlight).toBe(1);
  });

  it('halves on a 429 and holds every request until Retry-After has passed', async () => {
    let now = 1000;
    const changes: Array<[number, string]> = [];
    const limit = new AdaptiveLimit({ ...options, now: () => now, onChange: (l, r) => changes.push([l, r]) });
    const first = ask(limit, 4);
    await tick();
    for (let i = 0; i < 4; i++) limit.release();
    limit.rateLimited(40);
    expect(changes).toEqual([[2, 'rate_limited']]);
    const next = ask(limit, 3);
    await tick();
    expect(next.granted).toEqual([]); // paused
    now += 40;
    await new Promise((r) => setTimeout(r, 60));
    expect(next.granted).toEqual([0, 1]); // the halved limit
    expect(first.granted).toHaveLength(4);
    expect(limit.stats()).toMatchObject({ limit: 2, lowest: 2, halvings: 1 });
  });

  it('halves when full pages take twice the fastest, and grows back by one after a run of good pages', async () => {
    const changes: Array<[number, string]> = [];
    const limit = new AdaptiveLimit({
      ...options,
      growAfterPages: 100,
      onChange: (l, r) => changes.push([l, r]),
    });
    for (const ms of [100, 110, 105, 120]) limit.answered(ms, true);
    expect(changes).toEqual([]);
    // Short pages (the last of a window) never count as slow or fast.
    limit.answered(5, false);
    for (const ms of [250, 260, 240, 255]) limit.answered(ms, true);
    expect(changes).toEqual([[2, 'latency']]);
    const growing = new AdaptiveLimit({ ...options, max: 4, onChange: (l, r) => changes.push([l, r]) });
    growing.rateLimited(null);
    for (let i = 0; i < 6; i++) growing.answered(100, true);
    expect(growing.stats().limit).toBe(4);
    expect(changes.slice(1)).toEqual([
      [2, 'rate_limited'],
      [3, 'grow'],
      [4, 'grow'],
    ]);
  });

  it('never goes below one, and a cancelled wait leaves the queue', async () => {
    const limit = new AdaptiveLimit(options);
    for (let i = 0; i < 5; i++) limit.rateLimited(null);
    expect(limit.stats().limit).toBe(1);
    const ac = new AbortController();
    await limit.acquire(never);
    const waiting = limit.acquire(ac.signal);
    ac.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    const after = ask(limit, 1);
    limit.release();
    await tick();
    expect(after.granted).toEqual([0]);
  });
});
