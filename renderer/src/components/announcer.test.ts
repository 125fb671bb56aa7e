import { describe, expect, it } from 'vitest';
import { announce, createProgressAnnouncer, ProgressThrottle, useAnnouncer } from './announcer.ts';

function clock(start = 0) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('ProgressThrottle', () => {
  it('lets the first update through, then one per 10 s while the fraction creeps', () => {
    const c = clock();
    const throttle = new ProgressThrottle({ now: c.now });
    expect(throttle.shouldAnnounce(0)).toBe(true);
    const said: number[] = [];
    // 60 s of updates every 500 ms, 0.1% each: only the clock lets messages through.
    for (let i = 1; i <= 120; i++) {
      c.advance(500);
      if (throttle.shouldAnnounce(i / 1000)) said.push(c.now());
    }
    expect(said).toEqual([10_000, 20_000, 30_000, 40_000, 50_000, 60_000]);
  });

  it('says each further 10% at once when the work is fast, never more often', () => {
    const c = clock();
    const throttle = new ProgressThrottle({ now: c.now });
    const said: number[] = [];
    for (let pct = 0; pct <= 100; pct += 1) {
      c.advance(50); // the whole job takes 5 s
      if (throttle.shouldAnnounce(pct / 100)) said.push(pct);
    }
    expect(said).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  });

  it('without a fraction, speaks every interval only', () => {
    const c = clock();
    const throttle = new ProgressThrottle({ now: c.now, intervalMs: 1_000 });
    expect(throttle.shouldAnnounce(null)).toBe(true);
    c.advance(999);
    expect(throttle.shouldAnnounce(null)).toBe(false);
    c.advance(1);
    expect(throttle.shouldAnnounce(null)).toBe(true);
  });
});

describe('announce', () => {
  it('puts the message in the chosen region, with a new id each time', () => {
    announce('Saved');
    const first = useAnnouncer.getState().polite;
    announce('Saved');
    const second = useAnnouncer.getState().polite;
    expect(first.text).toBe('Saved');
    expect(second.text).toBe('Saved');
    expect(second.id).toBeGreaterThan(first.id);
    announce('Import failed', 'assertive');
    expect(useAnnouncer.getState().assertive.text).toBe('Import failed');
    expect(useAnnouncer.getState().polite.text).toBe('Saved');
  });

  it('a progress announcer drops updates between steps and always says the end', () => {
    const c = clock();
    const progress = createProgressAnnouncer({ now: c.now });
    progress.progress(0.01, 'Importing: 1%');
    expect(useAnnouncer.getState().polite.text).toBe('Importing: 1%');
    c.advance(1_000);
    progress.progress(0.05, 'Importing: 5%');
    expect(useAnnouncer.getState().polite.text).toBe('Importing: 1%');
    c.advance(1_000);
    progress.progress(0.12, 'Importing: 12%');
    expect(useAnnouncer.getState().polite.text).toBe('Importing: 12%');
    progress.finish('Import finished');
    expect(useAnnouncer.getState().polite.text).toBe('Import finished');
  });
});
