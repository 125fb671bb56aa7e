import { describe, expect, it } from 'vitest';
import { createAnchorCache } from './pagingAnchors.ts';

describe('paging anchors', () => {
  it('starts from the nearest learnt anchor at or before an offset, per list, filter and revision', () => {
    const cache = createAnchorCache();
    expect(cache.start(1, 'bucket:invalid', 0, 500)).toEqual({ fromRow: 0, skip: 500 });
    cache.learn(1, 'bucket:invalid', 0, 500, [900, 905, 911]);
    cache.learn(1, 'bucket:invalid', 0, 100, [150, 160]);
    expect(cache.start(1, 'bucket:invalid', 0, 520)).toEqual({ fromRow: 911, skip: 18 });
    expect(cache.start(1, 'bucket:invalid', 0, 501)).toEqual({ fromRow: 900, skip: 1 });
    expect(cache.start(1, 'bucket:invalid', 0, 120)).toEqual({ fromRow: 160, skip: 19 });
    expect(cache.start(1, 'bucket:invalid', 0, 50)).toEqual({ fromRow: 0, skip: 50 });
    // Other filters, lists and revisions know nothing of these anchors.
    expect(cache.start(1, 'bucket:valid', 0, 520)).toEqual({ fromRow: 0, skip: 520 });
    expect(cache.start(2, 'bucket:invalid', 0, 520)).toEqual({ fromRow: 0, skip: 520 });
    expect(cache.start(1, 'bucket:invalid', 1, 520)).toEqual({ fromRow: 0, skip: 520 });
    cache.learn(3, 'excluded', 0, 0, [5]);
    cache.forget(3);
    expect(cache.start(3, 'excluded', 0, 0)).toEqual({ fromRow: 0, skip: 0 });
  });
});
