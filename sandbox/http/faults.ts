// Fault injection for tests, per path pattern: error statuses (500, 429 + Retry-After, …), latency,
// dropped connections and truncated bodies, at a rate, optionally at most N times.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { serverErrorCode } from '../../shared/service/errors.ts';
import type { Rng } from '../rng.ts';
import { errorObject } from './errors.ts';

export const faultSpecSchema = z
  .object({
    /** Path glob (`*` = any characters). Relative patterns are under /v0 (`calling/*`). */
    path: z.string().min(1),
    method: z.string().trim().toUpperCase().optional(),
    kind: z.enum(['error', 'latency', 'drop', 'truncate']),
    /** For `error`: 500 by default; 429 adds Retry-After. */
    status: z.number().int().min(400).max(599).optional(),
    retry_after_seconds: z.number().min(0).optional(),
    latency_ms: z.number().int().min(0).max(120_000).optional(),
    /** Share of matching requests hit, 0..1 (default 1). */
    rate: z.number().min(0).max(1).optional(),
    /** Stop after this many hits. */
    max_count: z.number().int().positive().optional(),
  })
  .strict()
  .refine((f) => f.kind !== 'latency' || f.latency_ms !== undefined, {
    message: 'latency_ms is required for a latency fault',
    path: ['latency_ms'],
  });
export type FaultSpec = z.infer<typeof faultSpecSchema>;

export interface Fault extends FaultSpec {
  id: number;
  hits: number;
  pattern: RegExp;
}

export const statusTexts: Record<number, string> = {
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function compile(path: string): RegExp {
  let p = path.trim();
  if (!p.startsWith('/')) p = `/v0/${p}`;
  else if (!p.startsWith('/v0') && !p.startsWith('/_sandbox')) p = `/v0${p}`;
  const escaped = p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

declare module 'fastify' {
  interface FastifyRequest {
    truncateBody?: boolean;
  }
}

export class FaultRegistry {
  private faults: Fault[] = [];
  private nextId = 1;
  private readonly rng: Rng;
  constructor(rng: Rng) {
    this.rng = rng;
  }

  add(spec: FaultSpec): Fault {
    const f: Fault = { ...spec, id: this.nextId++, hits: 0, pattern: compile(spec.path) };
    this.faults.push(f);
    return f;
  }
  clear(id?: number): number {
    const before = this.faults.length;
    this.faults = id === undefined ? [] : this.faults.filter((f) => f.id !== id);
    return before - this.faults.length;
  }
  list() {
    return this.faults.map(({ pattern: _p, ...f }) => f);
  }

  /** The fault to apply to this request, if any (counts the hit). The control API is never faulted. */
  pick(method: string, path: string): Fault | undefined {
    if (path.startsWith('/_sandbox')) return undefined;
    for (const f of this.faults) {
      if (f.max_count !== undefined && f.hits >= f.max_count) continue;
      if (f.method && f.method !== method) continue;
      if (!f.pattern.test(path)) continue;
      if (this.rng.next() >= (f.rate ?? 1)) continue;
      f.hits++;
      return f;
    }
    return undefined;
  }
}

/** Registered before authentication: a fault in front of the service happens whatever the key. */
export function installFaults(app: FastifyInstance, registry: FaultRegistry): void {
  app.addHook('onRequest', async (req, reply) => {
    const fault = registry.pick(req.method, req.url.split('?')[0] ?? '');
    if (!fault) return;
    switch (fault.kind) {
      case 'latency':
        await new Promise((r) => setTimeout(r, fault.latency_ms ?? 0));
        return;
      case 'drop':
        reply.hijack();
        req.raw.socket.destroy();
        return;
      case 'truncate':
        req.truncateBody = true;
        return;
      case 'error': {
        const status = fault.status ?? 500;
        const code = status === 500 ? serverErrorCode : `${status} ${statusTexts[status] ?? 'Error'}`;
        if (status === 429) reply.header('retry-after', String(fault.retry_after_seconds ?? 1));
        else if (fault.retry_after_seconds !== undefined)
          reply.header('retry-after', String(fault.retry_after_seconds));
        return reply
          .code(status)
          .send(errorObject(code, `Injected fault on ${req.method} ${req.url.split('?')[0]}`));
      }
    }
  });

  // A truncated body: announce the full length, send half, then cut the connection.
  app.addHook('onSend', async (req: FastifyRequest, reply, payload) => {
    if (!req.truncateBody || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
    const full = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    reply.header('content-length', String(full.length));
    const half = full.subarray(0, Math.floor(full.length / 2));
    const socket = req.raw.socket;
    const before = socket.bytesWritten;
    let sent = false;
    // Cut only once the half (and the headers) have left for the client: destroying the stream
    // right after pushing could drop the half before it was written, so nothing would arrive.
    const cutWhenFlushed = (tries: number) => {
      if ((socket.bytesWritten - before > half.length && socket.writableLength === 0) || tries > 2000)
        socket.destroy();
      else setTimeout(() => cutWhenFlushed(tries + 1), 1);
    };
    return new Readable({
      read() {
        if (sent) return;
        sent = true;
        this.push(half);
        setTimeout(() => cutWhenFlushed(0), 1);
      },
    });
  });
}
