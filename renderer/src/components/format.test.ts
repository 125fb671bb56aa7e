import { describe, expect, it } from 'vitest';
import { dateTimeFormat, formatCredits, formatWhen, numberFormat } from './format.ts';

describe('format', () => {
  it('formats credits with grouping and at most two decimals', () => {
    expect(formatCredits(1234567.891, 'en-US')).toBe('1,234,567.89');
    expect(formatCredits(0, 'en-US')).toBe('0');
  });
  it('says how long ago a time was, then falls back to a date', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    expect(formatWhen('2026-11-21T11:59:50Z', now)).toBe('just now');
    expect(formatWhen('2026-11-21T11:50:00Z', now)).toBe('10 min ago');
    expect(formatWhen('2026-11-21T09:00:00Z', now)).toBe('3 h ago');
    expect(formatWhen('2026-11-19T09:00:00Z', now, 'en-US')).toMatch(/Nov 19, 2026/);
    expect(formatWhen('not a date', now)).toBe('not a date');
  });
  it('makes each Intl formatter once per locale and options, and a new one for other options', () => {
    const a = numberFormat('en-US', { maximumFractionDigits: 2 });
    expect(numberFormat('en-US', { maximumFractionDigits: 2 })).toBe(a);
    expect(numberFormat('en-US', { maximumFractionDigits: 3 })).not.toBe(a);
    expect(numberFormat('de-DE', { maximumFractionDigits: 2 }).format(1234.5)).toBe('1.234,5');
    const d = dateTimeFormat('en-US', { dateStyle: 'medium' });
    expect(dateTimeFormat('en-US', { dateStyle: 'medium' })).toBe(d);
    expect(dateTimeFormat('en-US', { dateStyle: 'short' })).not.toBe(d);
  });
});
