import { describe, expect, it } from 'vitest';
import {
  callConfigDefaults,
  isWithinCallWindow,
  nextCallWindowClose,
  nextCallWindowOpening,
  parseCallConfigText,
  resolveCallConfig,
} from './callConfig.ts';

const ist = { callStartTime: '09:00', callEndTime: '18:00', timezone: 'Asia/Kolkata' };
const at = (iso: string) => Date.parse(iso);

describe('call_config', () => {
  it('parses the JSON string form with messages naming the field', () => {
    expect(parseCallConfigText('{"idle_timeout_warning":10,"max_call_length":300}')).toEqual({
      ok: true,
      value: { idle_timeout_warning: 10, max_call_length: 300 },
    });
    expect(parseCallConfigText('{')).toEqual({ ok: false, message: 'call_config is not valid JSON' });
    const bad = parseCallConfigText('{"call_time":{"call_start_time":"9am"}}');
    expect(bad.ok === false && bad.message).toMatch(/^call_config\.call_time\.call_start_time: /);
    const tz = parseCallConfigText('{"call_time":{"timezone":"Asia/Atlantis"}}');
    expect(tz.ok === false && tz.message).toContain('IANA');
    const neg = parseCallConfigText('{"call_retry_config":{"retry_count":-1}}');
    expect(neg.ok).toBe(false);
    // Keys the seed does not list pass through.
    const extra = parseCallConfigText('{"voicemail":{"detect":true}}');
    expect(extra.ok && extra.value).toEqual({ voicemail: { detect: true } });
  });

  it('fills defaults', () => {
    expect(resolveCallConfig(undefined)).toEqual(callConfigDefaults);
    expect(resolveCallConfig({ call_retry_config: { retry_count: 1 } }).retryCount).toBe(1);
    expect(resolveCallConfig({ call_retry_config: { retry_count: 1 } }).retryBusyMinutes).toBe(30);
  });
});

describe('calling window', () => {
  it('knows when the window is open, in its zone', () => {
    expect(isWithinCallWindow(at('2026-10-18T03:30:00Z'), ist)).toBe(true); // 09:00 IST
    expect(isWithinCallWindow(at('2026-10-18T12:29:00Z'), ist)).toBe(true); // 17:59 IST
    expect(isWithinCallWindow(at('2026-10-18T12:30:00Z'), ist)).toBe(false); // 18:00 IST
    expect(isWithinCallWindow(at('2026-10-18T03:29:00Z'), ist)).toBe(false);
  });

  it('wraps past midnight and treats equal bounds as all day', () => {
    const night = { callStartTime: '22:00', callEndTime: '02:00', timezone: 'UTC' };
    expect(isWithinCallWindow(at('2026-10-18T23:00:00Z'), night)).toBe(true);
    expect(isWithinCallWindow(at('2026-10-18T01:59:00Z'), night)).toBe(true);
    expect(isWithinCallWindow(at('2026-10-18T12:00:00Z'), night)).toBe(false);
    expect(isWithinCallWindow(at('2026-10-18T12:00:00Z'), { ...night, callEndTime: '22:00' })).toBe(true);
  });

  it('finds the next opening and closing', () => {
    expect(new Date(nextCallWindowOpening(at('2026-10-18T13:00:00Z'), ist)).toISOString()).toBe(
      '2026-10-19T03:30:00.000Z',
    );
    expect(new Date(nextCallWindowOpening(at('2026-10-18T01:00:00Z'), ist)).toISOString()).toBe(
      '2026-10-18T03:30:00.000Z',
    );
    expect(nextCallWindowOpening(at('2026-10-18T05:00:00Z'), ist)).toBe(at('2026-10-18T05:00:00Z'));
    expect(new Date(nextCallWindowClose(at('2026-10-18T05:00:00Z'), ist) ?? 0).toISOString()).toBe(
      '2026-10-18T12:30:00.000Z',
    );
    expect(nextCallWindowClose(0, { ...ist, callEndTime: '09:00' })).toBeNull();
  });
});
