import { describe, expect, it } from 'vitest';
import { parseTestCallNumber, testCallTiming } from './testCall.ts';

describe('the test call number', () => {
  it('takes what contact lists take with the campaign’s country and gives its E.164', () => {
    expect(parseTestCallNumber('98765 43210', 'IN')).toEqual({ ok: true, e164: '+919876543210' });
    expect(parseTestCallNumber('98765 43210', '+91')).toEqual({ ok: true, e164: '+919876543210' });
    expect(parseTestCallNumber('+91 98765-43210', 'IN')).toEqual({ ok: true, e164: '+919876543210' });
    expect(parseTestCallNumber('(415) 555-2671', '+1')).toEqual({ ok: true, e164: '+14155552671' });
  });
  it('names what is wrong in plain words', () => {
    expect(parseTestCallNumber('12345', 'IN')).toEqual({
      ok: false,
      message: '12345 is not a valid phone number for IN (+91).',
    });
    expect(parseTestCallNumber('  ', 'IN')).toEqual({ ok: false, message: 'Type the number to call.' });
    expect(parseTestCallNumber('98765 43210', 'Atlantis').ok).toBe(false);
  });
});

describe('the test call’s window', () => {
  // 01:27 in Kolkata, as the issue saw it.
  const now = Date.UTC(2026, 10, 26, 19, 57);
  const base = { nowMs: now, timezone: 'Asia/Kolkata', windowStart: '09:00', windowEnd: '19:00' };
  it('rings now with a window of its own opening this minute', () => {
    expect(testCallTiming({ ...base, mode: 'now' })).toEqual({
      callTime: {
        call_start_time: '01:27',
        call_end_time: '03:27',
        timezone: 'Asia/Kolkata',
        scheduled_at: null,
      },
      waitsUntil: null,
      note: "Rings now: the test call carries its own window 01:27–03:27 (Asia/Kolkata), not the campaign's.",
    });
  });
  it('with the campaign’s window closed, says when and why it will wait', () => {
    const t = testCallTiming({ ...base, mode: 'campaign-window' });
    expect(t.callTime).toMatchObject({ call_start_time: '09:00', call_end_time: '19:00' });
    expect(t.waitsUntil).toBe('2026-11-27T03:30:00.000Z');
    expect(t.note).toBe(
      "Waits until 09:00 (Asia/Kolkata), in 7 h 33 min: the campaign's daily window 09:00–19:00 is closed now (01:27). The service keeps the call registered until then.",
    );
    expect(
      testCallTiming({ ...base, mode: 'campaign-window', nowMs: Date.UTC(2026, 10, 27, 6, 0) }).waitsUntil,
    ).toBeNull();
  });
});
