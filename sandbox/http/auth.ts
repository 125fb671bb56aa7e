import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { unauthorizedBody } from '../../shared/service/errors.ts';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison of two secrets. */
export function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

/** The Bearer token of an Authorization header, or undefined. */
export function bearerOf(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S.*)$/i.exec(header ?? '');
  return m?.[1]?.trim();
}

/**
 * Every operation (v0 and the control API) needs `X-API-KEY`; a missing or wrong key answers the
 * seed's exact 401 body. Paths in `publicPrefixes` (storage-style file URLs) are exempt.
 */
export function installApiKeyCheck(
  app: FastifyInstance,
  apiKey: string,
  publicPrefixes: readonly string[],
): void {
  const expected = digest(apiKey);
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (publicPrefixes.some((p) => path.startsWith(p))) return;
    const header = req.headers['x-api-key'];
    const given = Array.isArray(header) ? header[0] : header;
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      return reply.code(401).send(unauthorizedBody);
    }
  });
}
