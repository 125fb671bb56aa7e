// The network profile over real HTTP: history pages and recordings wait their round trip and come
// no faster than the bandwidth cap; other paths are not shaped; in-flight requests are counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTime, startTestSandbox } from '../testing/harness.ts';
import type { TestSandbox } from '../testing/harness.ts';
import { formatNetworkProfile, parseNetworkProfile } from './network.ts';

interface NetworkState {
  profile: { rtt_ms: number; jitter_ms: number; bytes_per_second: number | null } | null;
  profile_text: string | null;
  counters: Record<'history' | 'recordings', { requests: number; in_flight: number; max_in_flight: number }>;
}

describe('parseNetworkProfile', () => {
  it('reads rtt, jitter and bandwidth with their units', () => {
    expect(parseNetworkProfile('rtt=80ms,jitter=20ms,bw=2MB/s')).toEqual({
      rtt_ms: 80,
      jitter_ms: 20,
      bytes_per_second: 2_000_000,
    });
    expect(parseNetworkProfile(' bw=500kB/s , rtt=0.1s ')).toEqual({
      rtt_ms: 100,
      jitter_ms: 0,
      bytes_per_second: 500_000,
    });
    expect(formatNetworkProfile(parseNetworkProfile('rtt=5ms'))).toBe('rtt=5ms,jitter=0ms');
  });

  it('names the part that is wrong', () => {
    expect(() => parseNetworkProfile('jitter=5ms')).toThrow(/rtt=… is required/);
    expect(() => parseNetworkProfile('rtt=80')).toThrow(/rtt must be a duration.*"80"/);
    expect(() => parseNetworkProfile('rtt=80ms,bw=2MBps')).toThrow(/bw must be a rate.*"2MBps"/);
    expect(() => parseNetworkProfile('rtt=80ms,loss=1%')).toThrow(/unknown part "loss=1%"/);
  });
});

describe('network profile (over HTTP)', () => {
  let t: TestSandbox;
  let recordingUrl = '';
  beforeAll(async () => {
    t = await startTestSandbox({ network: { rtt_ms: 150, jitter_ms: 0, bytes_per_second: null } });
    const seeded = await t.control('/seed-calls', {
      method: 'POST',
      json: { count: 200, status: 'completed' },
    });
    expect(seeded.status).toBe(200);
    const page = await t.api<{ calls: Array<{ audio_recording: string | null }> }>(
      `/calling/history?${allTime}&limit=1`,
    );
    recordingUrl = page.body.calls[0]?.audio_recording ?? '';
    expect(recordingUrl).not.toBe('');
  });
  afterAll(() => t.close());

  const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
    const s = performance.now();
    const r = await f();
    return [r, performance.now() - s];
  };

  it('delays history pages and recordings by the round trip from the command line options, not other paths', async () => {
    const [page, pageMs] = await timed(() => t.api(`/calling/history?${allTime}&limit=5`));
    expect(page.status).toBe(200);
    expect(pageMs).toBeGreaterThanOrEqual(145);
    const [rec, recMs] = await timed(() => fetch(recordingUrl).then((r) => r.arrayBuffer()));
    expect(rec.byteLength).toBeGreaterThan(0);
    expect(recMs).toBeGreaterThanOrEqual(145);
    const [, otherMs] = await timed(() => t.api('/workspace'));
    expect(otherMs).toBeLessThan(145);
  });

  it('caps each response at the bandwidth set through the control API, and counts requests in flight', async () => {
    const set = await t.control<NetworkState>('/network', {
      method: 'POST',
      json: { profile: 'rtt=20ms,jitter=10ms,bw=100kB/s', reset_counters: true },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.profile).toEqual({ rtt_ms: 20, jitter_ms: 10, bytes_per_second: 100_000 });
    // Three pages at once: each takes its size at 100 kB/s (the cap is per response).
    const [pages, ms] = await timed(() =>
      Promise.all(
        [0, 60, 120].map((offset) => t.api(`/calling/history?${allTime}&limit=60&offset=${offset}`)),
      ),
    );
    const largest = Math.max(...pages.map((p) => Buffer.byteLength(p.text)));
    expect(largest).toBeGreaterThan(30_000);
    expect(ms).toBeGreaterThanOrEqual((largest / 100_000) * 1000 * 0.9);
    expect(ms).toBeLessThan((largest / 100_000) * 1000 * 2 + 1500); // in parallel, not one after another
    const [rec, recMs] = await timed(() => fetch(recordingUrl).then((r) => r.arrayBuffer()));
    expect(recMs).toBeGreaterThanOrEqual((rec.byteLength / 100_000) * 1000 * 0.9);
    const state = await t.control<NetworkState>('/network');
    expect(state.body.counters.history).toEqual({ requests: 3, in_flight: 0, max_in_flight: 3 });
    expect(state.body.counters.recordings).toMatchObject({ requests: 1, in_flight: 0, max_in_flight: 1 });
    // Off again: loopback speed.
    const off = await t.control<NetworkState>('/network', { method: 'DELETE' });
    expect(off.body.profile).toBeNull();
    const [, fastMs] = await timed(() => t.api(`/calling/history?${allTime}&limit=5`));
    expect(fastMs).toBeLessThan(145);
  });

  it('refuses a bad profile naming the part', async () => {
    const bad = await t.control('/network', { method: 'POST', json: { profile: 'rtt=fast' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('rtt must be a duration');
  });
});
