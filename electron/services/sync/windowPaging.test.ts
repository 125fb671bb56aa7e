import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { HistoryPageText } from '../../../shared/service/history.ts';
import type { PageStoreChain } from './pageStoreChain.ts';
import { defaultSyncPolicy } from './syncPolicy.ts';
import { passProgress } from './syncProgress.ts';
import { windowPager } from './windowPaging.ts';

const page = (ids: string[], total: number): HistoryPageText => ({
  text: JSON.stringify({ calls: ids.map((id) => ({ id })) }),
  count: ids.length,
  total,
  items: ids.length,
  keys: ids,
});

describe('windowPager.storeWindow', () => {
  it('lets the event loop poll between pages that arrived together (a page read waits for one page, not all)', async () => {
    const events: string[] = [];
    const pages = [page(['a', 'b'], 5), page(['c', 'd'], 5), page(['e'], 5)];
    const chain: PageStoreChain = {
      storeText: (_bulk, p) => void events.push(`store ${p.keys[0]!}`),
      then: () => undefined,
      full: () => false,
      drained: () => Promise.resolve(),
      settled: () => Promise.resolve(),
      holdQuarantine: () => undefined,
    };
    const pager = windowPager(
      { ...defaultSyncPolicy, pageSize: 2 },
      (q) => Promise.resolve(pages[(q.offset ?? 0) / 2]!),
      chain,
      passProgress(),
    );
    const w = pager.open(0, 1000, null);
    pager.askRest(w, 5);
    await Promise.all(w.pages);
    // A message from another thread (as the read lane's answer comes) is waiting when storing starts.
    const { port1, port2 } = new MessageChannel();
    const received = new Promise<void>((resolve) =>
      port1.once('message', () => {
        events.push('message');
        resolve();
      }),
    );
    port2.postMessage('answer');
    expect(await pager.storeWindow(w)).toBe(5);
    await received;
    port1.close();
    expect(events.filter((e) => e.startsWith('store'))).toEqual(['store a', 'store c', 'store e']);
    expect(events.indexOf('message')).toBeLessThan(events.indexOf('store e'));
  });
});
