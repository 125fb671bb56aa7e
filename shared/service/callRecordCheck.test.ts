import { describe, expect, it } from 'vitest';
import { checkCallRecord } from './callRecordCheck.ts';
import { callRecordSchema, readCallRecords } from './history.ts';

/** A small seeded generator (mulberry32): the same records every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return { next, pick };
}

const times = [
  '2026-11-20T10:00:00.000Z',
  '2026-11-20T10:00:00Z',
  '2026-11-20 10:00:00',
  '2026-11-20T10:00:00.123456+05:30',
  '2026-11-20T10:00:00+0530',
  '2026-11-20T10:00:00-08',
  '2025-02-30T10:00:00Z',
  '2026-11-20T24:00:00Z',
  '1969-12-31T23:59:59Z',
  '2101-01-01T00:00:00Z',
  '2026-11-20T10:00:00+15:00',
  'yesterday',
  '',
];
const odd = [null, true, false, 0, -1, 1.5, 1e308, 2_000_000, '', 'x', [], ['a'], [1], {}, { id: 'a' }];
const strings = ['', 'x', '+91 98765 43210', 'Ünïcödé ✓', 'a'.repeat(201)];

/** A record of every shape the schema meets: valid, missing, null, wrong-typed and unknown fields. */
function randomRecord(r: ReturnType<typeof rng>): unknown {
  // Half the records clean (each field good, absent or null), half with a wrong value here and there.
  const noise = r.next() < 0.5 ? 0 : 0.1;
  const maybe = <T>(good: () => T): unknown => {
    const x = r.next();
    if (x < noise) return r.pick(odd);
    if (x < 0.75) return good();
    return x < 0.88 ? undefined : null;
  };
  const turn = () =>
    r.pick<unknown>([
      { bot: 'Hello' },
      { user: 'Yes', timestamp: 3 },
      { role: 'assistant', content: 'Hi' },
      JSON.parse('{"__proto__": {"x": 1}, "bot": "p"}'),
      JSON.parse('{"constructor": "c", "1": "n", "user": "u"}'),
      [],
      'text',
      null,
    ]);
  const record: Record<string, unknown> = {
    id: r.next() < 0.9 ? `call-${Math.floor(r.next() * 1e6)}` : r.pick<unknown>([...strings, 7, null]),
    to_number: maybe(() => r.pick(strings)),
    name: maybe(() => r.pick(strings)),
    status: r.next() < 0.9 ? r.pick(['completed', 'failed', 'ongoing', 'new_status']) : r.pick(odd),
    sub_status: maybe(() => r.pick(['ACCEPTED', 'SOMETHING_NEW'])),
    transcript: maybe(() =>
      r.next() < 0.5
        ? JSON.stringify([{ bot: 'Hi' }, { user: 'Yo' }])
        : Array.from({ length: Math.floor(r.next() * 4) }, turn),
    ),
    audio_recording: maybe(() => 'http://127.0.0.1/recordings/a.wav'),
    created_at: r.next() < 0.7 ? r.pick(times.slice(0, 6)) : r.next() < 0.9 ? r.pick(times) : r.pick(odd),
    agent: maybe(() => ({
      id: r.next() < 0.9 ? 'agent-1' : r.pick(odd),
      agent_name: maybe(() => 'Agent'),
      agent_version_id: maybe(() => 'v1'),
      orchestration_mode: maybe(() => 'single'),
      version: maybe(() => ({ version_id: maybe(() => 'v1'), version_slug: maybe(() => 's'), extra: 1 })),
      unknown: 'dropped',
    })),
    call_duration: maybe(() => r.pick([0, 12.5, 86_400, 86_401, 1e308, -0.5])),
    call_attempt_time: maybe(() => r.pick(r.next() < 0.8 ? times.slice(0, 6) : times)),
    call_cost: maybe(() => r.pick([0, 1, 2.25, 1_000_000, 1_000_001, -1])),
    call_type: maybe(() => 'outbound'),
    inbound_from: maybe(() => '+1'),
    credits_processed: maybe(() => r.next() < 0.5),
    from_numbers: maybe(() => r.pick<unknown>([[], ['+1', '+2'], ['+1', 3]])),
    voicemail_detected: maybe(() => r.next() < 0.5),
  };
  if (r.next() < 0.3) record.extra_field = { nested: true };
  // Fields in another order, some left out.
  const keys = Object.keys(record).filter((k) => record[k] !== undefined || r.next() < 0.5);
  if (r.next() < 0.3) keys.reverse();
  // As a page parses to: JSON text (so `__proto__` keys are own keys, as JSON.parse makes them).
  const text = `{${keys
    .filter((k) => record[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(record[k])}`)
    .join(',')}${r.next() < 0.05 ? `${keys.length ? ',' : ''}"__proto__":{"id":"x"}` : ''}}`;
  return JSON.parse(text) as unknown;
}

describe('checkCallRecord', () => {
  it('answers what callRecordSchema answers, on 20,000 random and malformed records', () => {
    const r = rng(28);
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      const item = randomRecord(r);
      const zod = callRecordSchema.safeParse(item);
      const fast = checkCallRecord(item);
      if (zod.success) {
        expect(fast).toStrictEqual(zod.data);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
        accepted++;
      } else {
        expect(fast, JSON.stringify(item)).toBeNull();
        refused++;
      }
    }
    // Both sides exercised: the comparison above is not vacuous.
    expect(accepted).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });

  it('answers the same for values JSON does not make', () => {
    const base = { id: 'a', status: 's', created_at: times[0] };
    for (const item of [
      undefined,
      null,
      'x',
      1,
      [],
      { ...base, call_cost: Infinity },
      { ...base, call_duration: NaN },
      { ...base, call_duration: Infinity },
    ])
      expect(checkCallRecord(item) !== null).toBe(callRecordSchema.safeParse(item).success);
  });

  it('leaves refusals to the schema: readCallRecords still names the field and why', () => {
    const { records, rejected } = readCallRecords([
      { id: 'ok', status: 'completed', created_at: '2026-11-20T10:00:00Z', call_duration: 90_000 },
      { id: 'bad', status: 'completed', created_at: '2025-02-30T10:00:00Z' },
    ]);
    expect(records).toEqual([
      { id: 'ok', status: 'completed', created_at: '2026-11-20T10:00:00Z', call_duration: 86_400 },
    ]);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ callId: 'bad', field: 'created_at' });
    expect(rejected[0]!.reason).toMatch(/^created_at: "2025-02-30T10:00:00Z" day 30 does not exist/);
  });
});
