import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { contentTypes, hardeningHeaders } from '../services/security/csp.ts';
import { resolveStaticPath } from '../services/security/staticPath.ts';

/**
 * Serves the built renderer: GET and HEAD only, nothing outside `root`, every response with the
 * CSP and hardening headers. Nothing is cached (the renderer may be rebuilt between starts).
 */
export function serveStatic(root: string, csp: string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const headers = { ...hardeningHeaders, 'Content-Security-Policy': csp, 'Cache-Control': 'no-store' };
    const plain = (status: number, text: string, extra: Record<string, string> = {}) => {
      res.writeHead(status, { ...headers, ...extra, 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return plain(405, 'Method not allowed', { Allow: 'GET, HEAD' });

    const path = (req.url ?? '/').split(/[?#]/, 1)[0] ?? '/';
    if (!path.startsWith('/')) return plain(400, 'Bad request');
    const found = resolveStaticPath(root, path);
    if (!found.ok) return plain(found.status, found.status === 404 ? 'Not found' : 'Bad request');

    res.writeHead(200, {
      ...headers,
      'Content-Type': contentTypes[extname(found.file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': String(found.size),
    });
    if (req.method === 'HEAD') return void res.end();
    const stream = createReadStream(found.file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  };
}
