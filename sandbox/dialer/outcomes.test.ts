import { describe, expect, it } from 'vitest';
import { callConfigDefaults, resolveCallConfig } from '../../shared/domain/callConfig.ts';
import { attemptRng, attemptShares, callCost, planAttempt } from './outcomes.ts';
import type { AttemptKind } from './outcomes.ts';

const cfg = resolveCallConfig({
  max_call_length: 240,
  call_retry_config: { retry_count: 2, retry_busy: 20, retry_not_picked: 30, retry_failed: 10 },
});

describe('planAttempt', () => {
  it('follows the share table over many attempts', () => {
    const n = 40_000;
    const seen = new Map<AttemptKind, number>();
    for (let i = 0; i < n; i++) {
      const p = planAttempt(attemptRng(1, `call-${i}`, 1), callConfigDefaults, { allowDnd: true });
      // `long` talkers and answered calls over the limit both end as MAX_CALL_DURATION (`long`).
      seen.set(p.kind, (seen.get(p.kind) ?? 0) + 1);
    }
    const total = attemptShares.reduce((s, [, w]) => s + w, 0);
    for (const [kind, weight] of attemptShares) {
      if (kind === 'answered' || kind === 'long') continue; // answered calls past 300 s become `long`
      expect(Math.abs((seen.get(kind) ?? 0) / n - weight / total), kind).toBeLessThan(0.01);
    }
    const answeredOrLong = ((seen.get('answered') ?? 0) + (seen.get('long') ?? 0)) / n;
    expect(Math.abs(answeredOrLong - 42 / total)).toBeLessThan(0.01);
  });

  it('is a pure function of seed, call id and attempt', () => {
    const a = planAttempt(attemptRng(7, 'abc', 2), cfg, { allowDnd: false });
    const b = planAttempt(attemptRng(7, 'abc', 2), cfg, { allowDnd: false });
    expect(a).toEqual(b);
    const others = [attemptRng(8, 'abc', 2), attemptRng(7, 'abd', 2), attemptRng(7, 'abc', 3)].map((r) =>
      JSON.stringify(planAttempt(r, cfg, { allowDnd: false })),
    );
    expect(others.filter((o) => o === JSON.stringify(a)).length).toBeLessThan(3);
  });

  it('caps talk at max_call_length as MAX_CALL_DURATION', () => {
    const short = resolveCallConfig({ max_call_length: 20 });
    let capped = 0;
    for (let i = 0; i < 2000; i++) {
      const p = planAttempt(attemptRng(3, `c${i}`, 1), short, { allowDnd: true, shares: [['answered', 1]] });
      expect(p.talkSeconds).toBeLessThanOrEqual(20);
      expect(p.talkSeconds).toBeGreaterThan(0);
      if (p.talkSeconds === 20) {
        capped++;
        expect(p.subStatus).toBe('MAX_CALL_DURATION');
      } else expect(p.subStatus).toBe('ACCEPTED');
    }
    expect(capped).toBeGreaterThan(1500); // answered talk is 25–180 s, so nearly all hit 20 s
  });

  it('maps each unanswered outcome to its retry delay, and connected ones to none', () => {
    const only = (kind: AttemptKind) =>
      planAttempt(attemptRng(1, kind, 1), cfg, { allowDnd: true, shares: [[kind, 1]] });
    expect(only('no_answer')).toMatchObject({
      subStatus: 'USER_DID_NOT_JOIN',
      retryDelayMinutes: 30,
      talkSeconds: 0,
      connected: false,
    });
    expect(only('busy')).toMatchObject({
      subStatus: 'NOT_ABLE_TO_CALL',
      retryDelayMinutes: 20,
      talkSeconds: 0,
    });
    expect(only('failed')).toMatchObject({ subStatus: 'FAILED', retryDelayMinutes: 10, talkSeconds: 0 });
    expect(only('dnd')).toMatchObject({ subStatus: 'DND_SKIPPED', retryDelayMinutes: null, holdMs: 0 });
    expect(only('voicemail')).toMatchObject({
      subStatus: 'VOICEMAIL_DETECTED',
      voicemail: true,
      connected: true,
      retryDelayMinutes: null,
    });
    expect(only('user_left')).toMatchObject({ subStatus: 'USER_LEFT', connected: true });
    expect(only('idle')).toMatchObject({ subStatus: 'USER_BECAME_IDLE', connected: true });
    // No-answer rings 30–45 s and holds its slot that long.
    const na = only('no_answer');
    expect(na.holdMs).toBeGreaterThanOrEqual(30_000);
    expect(na.holdMs).toBeLessThanOrEqual(45_000);
  });

  it('never skips for DND when DND cannot apply (a call already put through, or a retry)', () => {
    const p = planAttempt(attemptRng(1, 'x', 1), cfg, { allowDnd: false, shares: [['dnd', 1]] });
    expect(p.kind).toBe('answered');
  });
});

describe('callCost', () => {
  it('bills connected seconds in 6-second pulses at 1 credit a minute', () => {
    expect(callCost({ connected: true, talkSeconds: 15.7 })).toBe(0.3);
    expect(callCost({ connected: true, talkSeconds: 60 })).toBe(1);
    expect(callCost({ connected: true, talkSeconds: 60.2 })).toBe(1.1);
    expect(callCost({ connected: false, talkSeconds: 0 })).toBe(0);
  });
});
