import { describe, expect, it } from 'vitest';
import {
  campaignTimeToInstant,
  formatCampaignTime,
  instantToCampaignTime,
  isoWithoutOffset,
  parseCampaignTime,
  parseIsoWithOffset,
  zonedToInstant,
} from './dates.ts';

describe('DD/MM/YYYY, HH:MM', () => {
  it('parses and formats round trip', () => {
    const p = parseCampaignTime('18/10/2026, 09:00');
    expect(p).toEqual({ ok: true, value: { year: 2026, month: 10, day: 18, hour: 9, minute: 0 } });
    if (p.ok) expect(formatCampaignTime(p.value)).toBe('18/10/2026, 09:00');
  });

  it.each([
    '2026-10-18 09:00',
    '18/10/2026 09:00',
    '31/02/2026, 09:00',
    '18/13/2026, 09:00',
    '18/10/2026, 24:00',
    '18/10/2026, 09:60',
    '1/1/2026, 9:00',
  ])('refuses %s', (text) => {
    const r = parseCampaignTime(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(text);
  });

  it('reads the time in the given zone', () => {
    const r = campaignTimeToInstant('18/10/2026, 09:00', 'Asia/Kolkata');
    expect(r.ok && new Date(r.value).toISOString()).toBe('2026-10-18T03:30:00.000Z');
    expect(instantToCampaignTime(Date.parse('2026-10-18T03:30:00Z'), 'Asia/Kolkata')).toBe(
      '18/10/2026, 09:00',
    );
    // New York on both sides of the DST change (EDT -4 in October, EST -5 in December).
    expect(
      new Date(
        zonedToInstant({ year: 2026, month: 10, day: 1, hour: 9, minute: 0 }, 'America/New_York'),
      ).toISOString(),
    ).toBe('2026-10-01T13:00:00.000Z');
    expect(
      new Date(
        zonedToInstant({ year: 2026, month: 12, day: 1, hour: 9, minute: 0 }, 'America/New_York'),
      ).toISOString(),
    ).toBe('2026-12-01T14:00:00.000Z');
  });
});

describe('ISO 8601 with offset', () => {
  it('accepts offsets and Z', () => {
    expect(parseIsoWithOffset('2025-09-25T00:00:00+05:30')).toBe(Date.parse('2025-09-24T18:30:00Z'));
    expect(parseIsoWithOffset('2025-09-25T00:00:00.123Z')).toBe(Date.parse('2025-09-25T00:00:00.123Z'));
    expect(parseIsoWithOffset('2025-09-25T00:00-0800')).toBe(Date.parse('2025-09-25T08:00:00Z'));
  });

  it.each([
    '2025-09-25T00:00:00',
    '2025-09-25',
    'yesterday',
    '2025-02-30T00:00:00Z',
    '2025-09-25T25:00:00Z',
    '2025-09-25T00:00:00+25:00',
  ])('refuses %s', (text) => expect(parseIsoWithOffset(text)).toBeNull());

  it('formats a date-time without offset', () => {
    expect(isoWithoutOffset(Date.parse('2026-01-02T03:04:05.006Z'))).toBe('2026-01-02T03:04:05.006');
  });
});
