// Which row first had each E.164 number. E.164 numbers have at most 15 digits, so the digits fit
// a float64 exactly; an open-addressing table of (float64 key, int32 row) costs 12 bytes a slot,
// a tenth of a Map of strings (which would also keep parser chunks alive through sliced keys).

export interface NumberTable {
  /** Records `row` for `key` unless an earlier row has it; returns that earlier row, or 0. */
  claim(key: number, row: number): number;
  /** The row that has `key`, or 0. */
  get(key: number): number;
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

export function createNumberTable(initialCapacity = 1 << 16): NumberTable {
  let capacity = 1 << Math.ceil(Math.log2(Math.max(16, initialCapacity)));
  let keys = new Float64Array(capacity); // 0 = empty (no valid number is 0)
  let rows = new Int32Array(capacity);
  let size = 0;

  const slotOf = (key: number): number => {
    const mask = capacity - 1;
    let i = hash(key, mask);
    while (keys[i] !== 0 && keys[i] !== key) i = (i + 1) & mask;
    return i;
  };

  const grow = (): void => {
    const oldKeys = keys;
    const oldRows = rows;
    capacity *= 2;
    keys = new Float64Array(capacity);
    rows = new Int32Array(capacity);
    for (let i = 0; i < oldKeys.length; i++) {
      const key = oldKeys[i] as number;
      if (key !== 0) {
        const slot = slotOf(key);
        keys[slot] = key;
        rows[slot] = oldRows[i] as number;
      }
    }
  };

  return {
    claim(key, row) {
      const slot = slotOf(key);
      if (keys[slot] === key) return rows[slot] as number;
      keys[slot] = key;
      rows[slot] = row;
      if (++size * 2 > capacity) grow();
      return 0;
    },
    get(key) {
      const slot = slotOf(key);
      return keys[slot] === key ? (rows[slot] as number) : 0;
    },
    get size() {
      return size;
    },
  };
}
