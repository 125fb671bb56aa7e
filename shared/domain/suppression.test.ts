import { describe, expect, it } from 'vitest';
import { createPhraseMatcher, DEFAULT_OPT_OUT_PHRASES, inForce, mergeEntries } from './suppression.ts';
import type { SuppressionEntry } from './suppression.ts';

const entry = (over: Partial<SuppressionEntry>): SuppressionEntry => ({
  e164: 919812345678,
  reason: 'manual',
  sources: [],
  addedBy: 'a',
  addedAt: '2026-11-01T00:00:00.000Z',
  expiresAt: null,
  ...over,
});

describe('mergeEntries', () => {
  it('keeps the earliest reason and every source once, whichever arrives second', () => {
    const early = entry({
      reason: 'opted_out',
      addedAt: '2026-10-01T00:00:00.000Z',
      sources: [{ kind: 'call', ref: 'c1', at: '2026-10-01T00:00:00.000Z' }],
    });
    const late = entry({
      reason: 'imported',
      addedBy: 'b',
      sources: [
        { kind: 'file', ref: 'dnc.csv', at: '2026-11-01T00:00:00.000Z' },
        { kind: 'call', ref: 'c1', at: '2026-11-01T00:00:00.000Z' },
      ],
    });
    for (const merged of [mergeEntries(early, late), mergeEntries(late, early)]) {
      expect(merged.reason).toBe('opted_out');
      expect(merged.addedBy).toBe('a');
      expect(merged.sources).toEqual([
        { kind: 'call', ref: 'c1', at: '2026-10-01T00:00:00.000Z' },
        { kind: 'file', ref: 'dnc.csv', at: '2026-11-01T00:00:00.000Z' },
      ]);
    }
  });

  it('expires at the later expiry, never when either is for good', () => {
    const a = entry({ expiresAt: '2027-01-01T00:00:00.000Z' });
    const b = entry({ expiresAt: '2027-06-01T00:00:00.000Z', addedAt: '2026-12-01T00:00:00.000Z' });
    expect(mergeEntries(a, b).expiresAt).toBe('2027-06-01T00:00:00.000Z');
    expect(mergeEntries(a, entry({ addedAt: '2026-12-01T00:00:00.000Z' })).expiresAt).toBeNull();
    expect(inForce(a, '2026-12-31T00:00:00.000Z')).toBe(true);
    expect(inForce(a, '2027-01-02T00:00:00.000Z')).toBe(false);
  });
});

describe('opt-out phrases', () => {
  const match = createPhraseMatcher(DEFAULT_OPT_OUT_PHRASES);
  it('finds English, romanised Hindi and Devanagari phrases, whatever the case and punctuation', () => {
    expect(match(['Please, DON’T call me again!'])?.phrase).toBe("don't call me");
    expect(match(['bhai mujhe dobara call mat karo'])?.phrase).toBe('call mat karo');
    expect(match(['मुझे कॉल मत करो।'])?.phrase).toBe('कॉल मत करो');
  });
  it('finds nothing in ordinary answers, nor inside longer words', () => {
    expect(match(['Yes, call me tomorrow at five', 'haan ji, kal call karna'])).toBeNull();
    expect(match(['subscribe me to the unsubscribers club'])).toBeNull();
    expect(match(['हाँ, कल फोन करना'])).toBeNull();
  });
});
