/**
 * Membership of call seqs, as a bitset: a common word matches most calls, and a Set of 56,000 seqs
 * took ~7 ms to build (a third of such a search), the bitset under 2 ms. Seqs are rowids (dense,
 * from 1): a million calls need 125 KB.
 */
export function seqSet(seqs: readonly number[]): SeqSet {
  let max = 0;
  for (const s of seqs) if (s > max) max = s;
  if (max >= 2 ** 31) return new Set(seqs); // past what the bit arithmetic below holds
  const bits = new Uint32Array((max >>> 5) + 1);
  for (const s of seqs) bits[s >>> 5]! |= 1 << (s & 31);
  return { has: (seq) => seq >= 0 && seq <= max && (bits[seq >>> 5]! & (1 << (seq & 31))) !== 0 };
}

export interface SeqSet {
  has(seq: number): boolean;
}
