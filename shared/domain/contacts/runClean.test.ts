import { describe, expect, it } from 'vitest';
import { createLocalExecutor } from './localExecutor.ts';
import { runClean } from './runClean.ts';

describe('runClean back-pressure', () => {
  it('a slow sink holds reading back: memory stays bounded', async () => {
    const text = 'Name,Phone\n' + 'Rahul Sharma,9876543210\n'.repeat(20_000); // ~480 KB
    const bytes = new TextEncoder().encode(text);
    const chunk = 1024;
    let pulled = 0;
    let written = 0;
    let maxAhead = 0;
    const { report } = await runClean(
      {
        *open() {
          for (let at = 0; at < bytes.length; at += chunk) {
            pulled++;
            maxAhead = Math.max(maxAhead, pulled - written);
            yield bytes.subarray(at, at + chunk);
          }
        },
        totalBytes: bytes.length,
      },
      { country: 'IN' },
      (setup) => createLocalExecutor(setup),
      {
        begin() {},
        async block() {
          await new Promise((resolve) => setTimeout(resolve, 1));
          written++;
        },
        reset() {},
      },
      { blockBytes: chunk, sniffBytes: chunk, maxInFlight: 2 },
    );
    expect(report.rows).toBe(20_000);
    expect(written).toBeGreaterThan(400);
    // Blocks read but not yet written: the ones at the lanes plus a short write queue, not the file.
    expect(maxAhead).toBeLessThanOrEqual(8);
  });
});
