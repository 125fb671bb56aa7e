import { describe, expect, it } from 'vitest';
import {
  checkServiceTimestamp,
  normalizeBalance,
  normalizeTimestamp,
  normalizeTotal,
  normalizeTranscript,
  normalizeUploadStatus,
  timestampParts,
} from './normalize.ts';

describe('normalizeTimestamp', () => {
  it.each([
    ['2026-11-23T10:00:00.123Z', '2026-11-23T10:00:00.123Z'],
    ['2026-11-23T10:00:00.123999+00:00', '2026-11-23T10:00:00.123Z'],
    ['2026-11-23T10:00:00.678043+00:00', '2026-11-23T10:00:00.678Z'],
    ['2026-11-23T15:30:00+05:30', '2026-11-23T10:00:00.000Z'],
    ['2026-11-23T15:30:00+0530', '2026-11-23T10:00:00.000Z'],
    ['2026-11-23T10:00:00.123999', '2026-11-23T10:00:00.123Z'],
    ['2026-11-23T10:00:00', '2026-11-23T10:00:00.000Z'],
    ['2026-11-23 10:00:00.5', '2026-11-23T10:00:00.500Z'],
    ['2026-11-23T10:00', '2026-11-23T10:00:00.000Z'],
    ['2026-02-28T23:59:59.999Z', '2026-02-28T23:59:59.999Z'],
    ['2028-02-29T10:00:00.000Z', '2028-02-29T10:00:00.000Z'],
    ['2026-01-31T10:00:00.000Z', '2026-01-31T10:00:00.000Z'],
    ['1970-01-01T00:00:00.000Z', '1970-01-01T00:00:00.000Z'],
    ['2100-12-31T23:59:59.999Z', '2100-12-31T23:59:59.999Z'],
  ])('reads %s as %s (fractions cut, no offset = UTC)', (text, iso) => {
    expect(normalizeTimestamp(text)).toBe(iso);
  });

  it('gives the same instant as epoch ms beside the text (timestampParts)', () => {
    for (const text of ['2026-11-23T10:00:00.123Z', '2026-11-23T15:30:00+05:30', '2026-02-28T10:00:00.000Z'])
      expect(timestampParts(text)).toEqual({
        iso: normalizeTimestamp(text),
        ms: Date.parse(normalizeTimestamp(text)!),
      });
    expect(timestampParts('2026-02-32T10:00:00.000Z')).toBeNull();
  });

  it('gives null for text that is not a timestamp', () => {
    expect(normalizeTimestamp('yesterday')).toBeNull();
    expect(normalizeTimestamp('2026-13-45T10:00:00Z')).toBeNull();
    expect(normalizeTimestamp(null)).toBeNull();
  });

  it.each([
    ['2025-02-30T10:00:00.000Z', 'day 30 does not exist in 2025-02'],
    ['2025-02-30T25:61:61Z', 'day 30 does not exist in 2025-02'],
    ['2026-02-29T10:00:00Z', 'day 29 does not exist in 2026-02'],
    ['2026-01-01T24:00:00.000Z', 'hour 24 is out of range'],
    ['2026-01-01T10:61:00Z', 'minute 61 is out of range'],
    ['2026-01-01T10:00:61+05:30', 'second 61 is out of range'],
    ['0000-01-01T00:00:00.000Z', 'year 0 is outside 1970–2100'],
    ['9999-12-31T23:59:59Z', 'year 9999 is outside 1970–2100'],
    ['1969-12-31T23:59:59Z', 'year 1969 is outside 1970–2100'],
    ['1970-01-01T00:30:00+01:00', 'is outside 1970–2100 in UTC'],
    ['2026-01-01T10:00:00+15:00', 'offset +15:00 is out of range'],
    ['yesterday', 'is not an ISO 8601 date-time'],
  ])('refuses %s strictly (%s), never rolling it over', (text, problem) => {
    expect(checkServiceTimestamp(text)).toEqual({ problem });
    expect(normalizeTimestamp(text)).toBeNull();
    expect(normalizeTimestamp(null)).toBeNull();
  });
});

describe('checkServiceTimestamp on the canonical form', () => {
  it('answers what Date.parse answers for every real instant, and refuses fields Date.parse would roll over', () => {
    let a = 28;
    const next = () => (a = (Math.imul(a, 1103515245) + 12345) >>> 0) / 4294967296;
    const lo = Date.UTC(1970, 0, 1);
    const hi = Date.UTC(2101, 0, 1);
    for (let i = 0; i < 20_000; i++) {
      const text = new Date(lo + Math.floor(next() * (hi - lo))).toISOString();
      expect(checkServiceTimestamp(text)).toEqual({ ms: Date.parse(text) });
    }
    for (const text of [
      '2025-02-29T00:00:00.000Z',
      '2024-02-30T00:00:00.000Z',
      '2026-04-31T10:00:00.000Z',
      '2026-11-20T24:00:00.000Z',
      '2101-01-01T00:00:00.000Z',
    ])
      expect(checkServiceTimestamp(text)).toHaveProperty('problem');
    expect(checkServiceTimestamp('2024-02-29T23:59:59.999Z')).toEqual({
      ms: Date.parse('2024-02-29T23:59:59.999Z'),
    });
    expect(checkServiceTimestamp('2000-02-29T00:00:00.000Z')).toEqual({
      ms: Date.parse('2000-02-29T00:00:00.000Z'),
    });
    expect(checkServiceTimestamp('2100-02-29T00:00:00.000Z')).toHaveProperty('problem');
  });
});

describe('normalizeTranscript', () => {
  const expected = [
    { speaker: 'agent', text: 'Hello, am I speaking with Asha?' },
    { speaker: 'user', text: 'Yes, speaking.' },
  ];

  it('reads turns keyed by speaker, as a list or a JSON string, with metadata beside them', () => {
    const keyed = [{ bot: 'Hello, am I speaking with Asha?' }, { user: 'Yes, speaking.' }];
    expect(normalizeTranscript(keyed)).toEqual(expected);
    expect(normalizeTranscript(JSON.stringify(keyed))).toEqual(expected);
    expect(
      normalizeTranscript([
        { bot: 'Hello, am I speaking with Asha?', message_id: 'm1', timestamp: 3 },
        { user: 'Yes, speaking.', message_id: 'm2' },
      ]),
    ).toEqual(expected);
  });

  it('reads {role, content} turns the same way (assistant/bot/agent are the agent)', () => {
    expect(
      normalizeTranscript([
        { role: 'assistant', content: 'Hello, am I speaking with Asha?' },
        { role: 'user', content: 'Yes, speaking.' },
      ]),
    ).toEqual(expected);
    expect(normalizeTranscript([{ role: 'bot', content: 'Hi' }])).toEqual([{ speaker: 'agent', text: 'Hi' }]);
    expect(normalizeTranscript([{ role: 'system', content: 'x' }])).toEqual([
      { speaker: 'other', text: 'x' },
    ]);
  });

  it('gives no turns for empty or malformed transcripts', () => {
    expect(normalizeTranscript('')).toEqual([]);
    expect(normalizeTranscript('not json')).toEqual([]);
    expect(normalizeTranscript('{"bot":"x"}')).toEqual([]);
    expect(normalizeTranscript(null)).toEqual([]);
    expect(normalizeTranscript([1, 'x', { other: 'y' }])).toEqual([]);
  });
});

describe('normalizeTotal', () => {
  it('reads a number, a numeric string, and "many" (unknown)', () => {
    expect(normalizeTotal(42)).toBe(42);
    expect(normalizeTotal('42')).toBe(42);
    expect(normalizeTotal('many')).toBeNull();
  });
});

describe('normalizeUploadStatus', () => {
  it('reads the schema counters and the guidance counters into one view', () => {
    expect(
      normalizeUploadStatus({
        bulk_list_id: 'b',
        status: 'verifying',
        campaign_name: 'C',
        total_callees: 5000,
        invalidated_rows_count: 12,
        invalidated_rows_csv_url: 'https://x/y.csv',
      }),
    ).toEqual({
      bulkListId: 'b',
      status: 'verifying',
      phase: 'in_progress',
      campaignName: 'C',
      totalRows: null,
      processedRows: null,
      validRows: 5000,
      invalidRows: 12,
      invalidRowsCsvUrl: 'https://x/y.csv',
      message: null,
    });
    expect(
      normalizeUploadStatus({
        bulk_list_id: 'b',
        status: 'ready',
        total_rows: 6200,
        processed_rows: 6200,
        successful_rows: 6144,
        failed_rows: 56,
      }),
    ).toMatchObject({
      phase: 'done',
      totalRows: 6200,
      processedRows: 6200,
      validRows: 6144,
      invalidRows: 56,
    });
    expect(normalizeUploadStatus({ bulk_list_id: 'b', status: 'failed' })?.phase).toBe('failed');
    expect(normalizeUploadStatus({ bulk_list_id: 'b', status: 'exploded' })).toBeNull();
  });
});

describe('normalizeBalance', () => {
  it('reads the schema shape (no verdict), the guidance shape and both merged', () => {
    expect(normalizeBalance({ status: 'draft', bulk_list_id: 'b', message: 'ok' })).toEqual({
      bulkListId: 'b',
      status: 'draft',
      message: 'ok',
      requiredCredits: null,
      availableCredits: null,
      sufficientBalance: null,
    });
    expect(
      normalizeBalance({
        bulk_list_id: 'b',
        required_credits: 6200,
        available_credits: 8500,
        sufficient_balance: true,
      }),
    ).toMatchObject({ status: null, requiredCredits: 6200, availableCredits: 8500, sufficientBalance: true });
    // Counts without a verdict: the verdict follows from them.
    expect(normalizeBalance({ required_credits: 10, available_credits: 5 }).sufficientBalance).toBe(false);
  });
});
