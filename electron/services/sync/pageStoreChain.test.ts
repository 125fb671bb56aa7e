import { describe, expect, it } from 'vitest';
import type { DbClient } from '../db/client.ts';
import { MAX_BATCH_ROWS, pageStoreChain } from './pageStoreChain.ts';
import { passProgress } from './syncProgress.ts';

const PAGE = 1000;
const PAGES_PER_WINDOW = 5;

/**
 * A DB worker that takes `writeMs` per batch (pages arrive faster than they are written, as on a
 * big file) and records which pages each batch held.
 */
function slowWorker(writeMs: number) {
  const batches: string[][] = [];
  const db = {
    call: async (method: string, args: { pages: string[] }) => {
      if (method !== 'calls.storePages') throw new Error(`unexpected ${method}`);
      await new Promise((r) => setTimeout(r, writeMs));
      batches.push(args.pages);
      return { inserted: args.pages.length * PAGE, updated: 0, rejectedKeys: [], held: false };
    },
  } as unknown as DbClient;
  return { db, batches, written: () => batches.reduce((n, b) => n + b.length, 0) };
}

/** Windows of pages stored as the pager does (waiting while the chain is full), a cursor step after each. */
async function pass(windows: number, writeMs: number) {
  const worker = slowWorker(writeMs);
  const chain = pageStoreChain(worker.db, 'ws', passProgress());
  const writtenAtCursor: number[] = [];
  let n = 0;
  for (let w = 0; w < windows; w++) {
    for (let p = 0; p < PAGES_PER_WINDOW; p++) {
      while (chain.full()) await chain.drained();
      const text = `page ${n++}`;
      chain.storeText(null, { text, count: PAGE, total: null, items: PAGE, keys: [] });
      await new Promise((r) => setImmediate(r));
    }
    chain.then(async () => void writtenAtCursor.push(worker.written()));
  }
  await chain.settled();
  return { ...worker, writtenAtCursor, pages: n };
}

describe('pageStoreChain', () => {
  it("saves a window's cursor as soon as its pages are written, however long the pass (no lag behind the writes)", async () => {
    const r = await pass(40, 3);
    // Each cursor step ran with its window's pages and the ones before written, and at most one
    // batch more (the pages waiting): a kill reads again that much, not a lag that grows with the pass.
    const lag = r.writtenAtCursor.map((n, w) => n - (w + 1) * PAGES_PER_WINDOW);
    expect(Math.min(...lag)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...lag) * PAGE).toBeLessThanOrEqual(MAX_BATCH_ROWS);
    expect(r.written()).toBe(r.pages);
    // Every page once, in order.
    expect(r.batches.flat()).toEqual(Array.from({ length: r.pages }, (_, i) => `page ${i}`));
  });

  it('still writes the pages that wait while the worker writes together (across windows), up to MAX_BATCH_ROWS', async () => {
    const r = await pass(12, 15);
    expect(r.batches.length).toBeLessThan(r.pages);
    // More than a window's pages in one commit.
    expect(Math.max(...r.batches.map((b) => b.length))).toBeGreaterThan(PAGES_PER_WINDOW);
    for (const b of r.batches) expect(b.length * PAGE).toBeLessThanOrEqual(MAX_BATCH_ROWS);
  });
});
