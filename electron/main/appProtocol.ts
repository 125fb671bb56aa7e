import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { protocol } from 'electron';
import type { Session } from 'electron';
import { contentSecurityPolicy, contentTypes, hardeningHeaders } from '../services/security/csp.ts';
import { resolveStaticPath } from '../services/security/staticPath.ts';
import { APP_HOST, APP_SCHEME } from './trustedUrl.ts';

/** Must run before `app.ready`: app:// behaves like https (secure context, fetch, same-origin). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    },
  ]);
}

/**
 * Serves the built renderer from app://desk/: GET only, our host only, nothing outside
 * `rendererDir` (shared traversal checks with the browser host), the CSP on every response.
 */
export function handleAppProtocol(session: Session, rendererDir: string): void {
  const csp = contentSecurityPolicy();
  const text = (status: number, body: string, extra: Record<string, string> = {}) =>
    new Response(body, {
      status,
      headers: {
        ...hardeningHeaders,
        'Content-Security-Policy': csp,
        'Content-Type': 'text/plain',
        ...extra,
      },
    });

  session.protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET') return text(405, 'Method not allowed', { Allow: 'GET' });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return text(400, 'Bad request');
    }
    if (url.host !== APP_HOST) return text(404, 'Not found');
    const found = resolveStaticPath(rendererDir, url.pathname);
    if (!found.ok) return text(found.status, found.status === 404 ? 'Not found' : 'Bad request');
    const body = await readFile(found.file);
    return new Response(body, {
      status: 200,
      headers: {
        ...hardeningHeaders,
        'Content-Security-Policy': csp,
        'Content-Type': contentTypes[extname(found.file).toLowerCase()] ?? 'application/octet-stream',
        'Cache-Control': 'no-store',
      },
    });
  });
}
