// A binary min-heap ordered by (at, seq): the clock's timers and the dialer's queues of due calls,
// ongoing calls and post-call steps are all "what happens next, in virtual-time order".

export interface HeapItem {
  /** Virtual epoch ms. */
  at: number;
  /** Tie-breaker (insertion or row order), so equal times keep a deterministic order. */
  seq: number;
}

const less = (x: HeapItem, y: HeapItem) => x.at < y.at || (x.at === y.at && x.seq < y.seq);

export class MinHeap<T extends HeapItem> {
  private readonly items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(a[i] as T, a[p] as T)) break;
      [a[i], a[p]] = [a[p] as T, a[i] as T];
      i = p;
    }
  }

  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && less(a[l] as T, a[m] as T)) m = l;
        if (r < a.length && less(a[r] as T, a[m] as T)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m] as T, a[i] as T];
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}
