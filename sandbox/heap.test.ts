import { describe, expect, it } from 'vitest';
import { MinHeap } from './heap.ts';
import { createRng } from './rng.ts';

describe('MinHeap', () => {
  it('pops in (at, seq) order whatever the push order', () => {
    const rng = createRng(7);
    const heap = new MinHeap<{ at: number; seq: number }>();
    const items = Array.from({ length: 200 }, (_, seq) => ({ at: rng.int(0, 20), seq }));
    const shuffled = items.map((item) => ({ item, key: rng.next() })).sort((a, b) => a.key - b.key);
    for (const { item } of shuffled) heap.push(item);
    expect(heap.size).toBe(200);
    const popped: Array<{ at: number; seq: number }> = [];
    for (let item = heap.pop(); item; item = heap.pop()) popped.push(item);
    expect(popped).toEqual([...items].sort((a, b) => a.at - b.at || a.seq - b.seq));
    expect(heap.peek()).toBeUndefined();
  });

  it('peeks without removing, and clears', () => {
    const heap = new MinHeap<{ at: number; seq: number; name: string }>();
    heap.push({ at: 5, seq: 1, name: 'later' });
    heap.push({ at: 5, seq: 0, name: 'first' });
    expect(heap.peek()?.name).toBe('first');
    expect(heap.size).toBe(2);
    heap.clear();
    expect(heap.size).toBe(0);
    expect(heap.pop()).toBeUndefined();
  });
});
