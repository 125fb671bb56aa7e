import { describe, expect, it } from 'vitest';
import { formatAmount, formatCount } from './formatCount.ts';

describe('counts in messages', () => {
  it('are grouped as the OS locale groups them', () => {
    const os = new Intl.NumberFormat();
    expect(formatCount(40807)).toBe(os.format(40807));
    expect(formatCount(40807)).not.toBe('40807'); // every locale groups five digits
    expect(formatCount(4617)).toBe(os.format(4617));
    expect(formatCount(0)).toBe('0');
    expect(formatAmount(40807.456)).toBe(os.format(40807.46));
    // This machine's tests run in en-US (C.UTF-8): the figures the issue quoted, formatted.
    if (os.resolvedOptions().locale === 'en-US') {
      expect(formatCount(40807)).toBe('40,807');
      expect(formatAmount(1234.5)).toBe('1,234.5');
    }
  });
});
