import { describe, expect, it } from 'vitest';
import { processCpuSeconds, threadCpuSeconds, threadCpuSince } from './cpuTime.ts';

const threadSeconds = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1e6;
};

describe.runIf(process.platform === 'linux')('CPU time from /proc', () => {
  it("reads this thread's CPU as Node counts it, and the process's as at least that", () => {
    const before = threadCpuSeconds(process.pid);
    const start = threadSeconds();
    // Busy until Node says this thread used 0.3 s (a condition, not a wall-clock wait).
    let x = 0;
    while (threadSeconds() - start < 0.3) x += Math.sqrt(x + 1);
    const used = threadSeconds() - start;
    const main = threadCpuSince(before, threadCpuSeconds(process.pid)).find((t) => t.tid === process.pid);
    expect(x).toBeGreaterThan(0);
    // /proc counts in 10 ms ticks.
    expect(main?.seconds).toBeGreaterThanOrEqual(used - 0.03);
    expect(main?.seconds).toBeLessThanOrEqual(used + 0.03);
    expect(processCpuSeconds(process.pid)).toBeGreaterThanOrEqual(used - 0.03);
  });

  it('answers null or nothing for a process that does not exist, and counts new threads from 0', () => {
    expect(processCpuSeconds(undefined)).toBeNull();
    expect(processCpuSeconds(2 ** 30)).toBeNull();
    expect(threadCpuSeconds(2 ** 30)).toEqual([]);
    expect(threadCpuSince([], [{ tid: 7, name: 'x', seconds: 1.5 }])).toEqual([
      { tid: 7, name: 'x', seconds: 1.5 },
    ]);
  });
});
