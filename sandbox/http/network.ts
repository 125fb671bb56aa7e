// A network profile in front of history pages and recordings: each request waits its round trip
// (rtt ± jitter) before it is answered, and each response body is sent no faster than the bandwidth
// cap (per response, as a real service's own link shapes each transfer). Loopback answers in
// microseconds; this is how benches and tests see what an operator waits for. In-flight requests
// are counted (the most at once, too) so tests can check a client's concurrency from the server.
import { Readable, Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Rng } from '../rng.ts';

export const networkProfileSchema = z
  .object({
    rtt_ms: z.number().int().min(0).max(60_000),
    jitter_ms: z.number().int().min(0).max(60_000).default(0),
    /** Bytes per second per response; null: no cap. */
    bytes_per_second: z.number().int().min(1).max(10_000_000_000).nullable().default(null),
  })
  .strict();
export type NetworkProfile = z.infer<typeof networkProfileSchema>;

const DURATION = /^(\d+(?:\.\d+)?)(ms|s)$/;
const RATE = /^(\d+(?:\.\d+)?)(B|kB|KB|MB|GB)\/s$/;
const RATE_UNITS: Record<string, number> = { B: 1, kB: 1e3, KB: 1e3, MB: 1e6, GB: 1e9 };

/**
 * `rtt=80ms,jitter=20ms,bw=2MB/s` (any order; jitter and bw optional; units ms or s, B/kB/MB/GB per
 * second with MB = 1,000,000 bytes). Throws an Error naming the part that is wrong.
 */
export function parseNetworkProfile(text: string): NetworkProfile {
  const out: { rtt_ms?: number; jitter_ms: number; bytes_per_second: number | null } = {
    jitter_ms: 0,
    bytes_per_second: null,
  };
  for (const part of text.split(',').map((p) => p.trim())) {
    const [key, value = ''] = part.split('=', 2).map((s) => s.trim()) as [string, string?];
    if (key === 'rtt' || key === 'jitter') {
      const m = DURATION.exec(value);
      if (!m)
        throw new Error(`network profile: ${key} must be a duration such as 80ms or 0.1s, got "${value}"`);
      const ms = Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1));
      if (ms > 60_000) throw new Error(`network profile: ${key} must be at most 60s, got "${value}"`);
      if (key === 'rtt') out.rtt_ms = ms;
      else out.jitter_ms = ms;
    } else if (key === 'bw') {
      const m = RATE.exec(value);
      if (!m) throw new Error(`network profile: bw must be a rate such as 2MB/s or 500kB/s, got "${value}"`);
      const bps = Math.round(Number(m[1]) * RATE_UNITS[m[2]!]!);
      if (bps < 1) throw new Error(`network profile: bw must be at least 1B/s, got "${value}"`);
      out.bytes_per_second = bps;
    } else {
      throw new Error(`network profile: unknown part "${part}" (expected rtt=…, jitter=…, bw=…)`);
    }
  }
  if (out.rtt_ms === undefined) throw new Error('network profile: rtt=… is required (e.g. rtt=80ms)');
  return { rtt_ms: out.rtt_ms, jitter_ms: out.jitter_ms, bytes_per_second: out.bytes_per_second };
}

/** `rtt=80ms,jitter=20ms,bw=2MB/s` back from a profile (for logs and the control API). */
export function formatNetworkProfile(p: NetworkProfile): string {
  const bw = p.bytes_per_second === null ? '' : `,bw=${p.bytes_per_second}B/s`;
  return `rtt=${p.rtt_ms}ms,jitter=${p.jitter_ms}ms${bw}`;
}

export interface InFlightCounts {
  requests: number;
  in_flight: number;
  max_in_flight: number;
}

type Lane = 'history' | 'recordings';

/** The shaped paths: history pages and recording files. */
export function laneOf(path: string): Lane | null {
  if (path === '/v0/calling/history') return 'history';
  if (path.startsWith('/v0/recordings/')) return 'recordings';
  return null;
}

export class NetworkShaper {
  private current: NetworkProfile | null;
  private readonly counts: Record<Lane, InFlightCounts> = {
    history: { requests: 0, in_flight: 0, max_in_flight: 0 },
    recordings: { requests: 0, in_flight: 0, max_in_flight: 0 },
  };
  private readonly rng: Rng;
  constructor(rng: Rng, profile: NetworkProfile | null = null) {
    this.rng = rng;
    this.current = profile;
  }
  profile(): NetworkProfile | null {
    return this.current;
  }
  set(profile: NetworkProfile | null): void {
    this.current = profile;
  }
  /** Counts since the last reset (the most at once starts again from those in flight now). */
  stats(): Record<Lane, InFlightCounts> {
    return { history: { ...this.counts.history }, recordings: { ...this.counts.recordings } };
  }
  resetCounters(): void {
    for (const c of Object.values(this.counts)) {
      c.requests = 0;
      c.max_in_flight = c.in_flight;
    }
  }
  begin(lane: Lane): () => void {
    const c = this.counts[lane];
    c.requests++;
    c.in_flight++;
    c.max_in_flight = Math.max(c.max_in_flight, c.in_flight);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      c.in_flight--;
    };
  }
  /** This request's wait: rtt ± jitter, uniformly, never below 0. */
  delayMs(): number {
    const p = this.current;
    if (!p) return 0;
    return Math.max(0, Math.round(p.rtt_ms + (this.rng.next() * 2 - 1) * p.jitter_ms));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Passes bytes on no faster than `bytesPerSecond` (slices of 1/50 s). */
export function throttle(bytesPerSecond: number): Transform {
  const slice = Math.max(512, Math.floor(bytesPerSecond / 50));
  let sent = 0;
  let start = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (start === 0) start = performance.now();
      void (async () => {
        for (let at = 0; at < chunk.length; at += slice) {
          const part = chunk.subarray(at, at + slice);
          // Each slice leaves when the bytes before it have had their time at the cap.
          const wait = start + (sent / bytesPerSecond) * 1000 - performance.now();
          if (wait > 1) await sleep(wait);
          sent += part.length;
          this.push(part);
        }
      })().then(() => done(), done);
    },
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    networkLane?: 'history' | 'recordings';
  }
}

/** Registered before faults and authentication: every request on a shaped path is counted and delayed. */
export function installNetworkDelay(app: FastifyInstance, shaper: NetworkShaper): void {
  app.addHook('onRequest', async (req, reply) => {
    const lane = laneOf(req.url.split('?')[0] ?? '');
    if (!lane) return;
    req.networkLane = lane;
    // Counted until the answer is sent or the connection goes.
    reply.raw.once('close', shaper.begin(lane));
    const wait = shaper.delayMs();
    if (wait > 0) await sleep(wait);
  });
}

/** Registered after faults: a truncated body is cut from what the cap lets through. */
export function installNetworkBandwidth(app: FastifyInstance, shaper: NetworkShaper): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const bps = shaper.profile()?.bytes_per_second ?? null;
    if (!req.networkLane || bps === null || payload === null || payload === undefined) return payload;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
      const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
      reply.header('content-length', String(body.length));
      return Readable.from([body]).pipe(throttle(bps));
    }
    if (payload instanceof Readable) return payload.pipe(throttle(bps));
    return payload;
  });
}
