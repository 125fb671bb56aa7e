// Which row first had each E.164 number. E.164 numbers of up to 15 digits (and longer ones below
// 2^53) are exact as float64, so an open-addressing table of (float64 key, row) slots costs 16
// bytes a slot, a tenth of a Map of strings (which would also keep parser chunks alive through
// sliced keys). Key and row share a cache line: a lookup in a table far bigger than the CPU cache
// costs one memory access, which is what dominates deduplicating a million numbers.

export interface NumberTable {
  /** Records `row` for `key` unless an earlier row has it; returns that earlier row, or 0. */
  claim(key: number, row: number): number;
  /** The row that has `key`, or 0. */
  get(key: number): number;
  /** Records `row` for `key` whatever was there. */
  set(key: number, row: number): void;
  readonly size: number;
}

const hash = (key: number, mask: number): number => {
  const lo = key >>> 0;
  const hi = (key / 4294967296) >>> 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h & mask;
};

/** `expected`: how many numbers to make room for before the first resize (a hint). */
export function createNumberTable(expected = 1 << 15): NumberTable {
  // Load factor at most 1/2: linear probing stays short.
  let capacity = 1 << Math.ceil(Math.log2(Math.max(16, expected * 2)));
  let slots = new Float64Array(capacity * 2); // [key, row] pairs; key 0 = empty (no number is 0)
  let size = 0;

  const slotOf = (key: number): number => {
    const mask = capacity - 1;
    let i = hash(key, mask);
    for (;;) {
      const k = slots[i * 2];
      if (k === 0 || k === key) return i;
      i = (i + 1) & mask;
    }
  };

  const grow = (): void => {
    const old = slots;
    capacity *= 2;
    slots = new Float64Array(capacity * 2);
    for (let i = 0; i < old.length; i += 2) {
      const key = old[i] as number;
      if (key !== 0) {
        const slot = slotOf(key);
        slots[slot * 2] = key;
        slots[slot * 2 + 1] = old[i + 1] as number;
      }
    }
  };

  return {
    claim(key, row) {
      const slot = slotOf(key);
      if (slots[slot * 2] === key) return slots[slot * 2 + 1] as number;
      slots[slot * 2] = key;
      slots[slot * 2 + 1] = row;
      if (++size * 2 > capacity) grow();
      return 0;
    },
    get(key) {
      const slot = slotOf(key);
      return slots[slot * 2] === key ? (slots[slot * 2 + 1] as number) : 0;
    },
    set(key, row) {
      const slot = slotOf(key);
      if (slots[slot * 2] === key) {
        slots[slot * 2 + 1] = row;
        return;
      }
      slots[slot * 2] = key;
      slots[slot * 2 + 1] = row;
      if (++size * 2 > capacity) grow();
    },
    get size() {
      return size;
    },
  };
}
