import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { protocol } from 'electron';
import type { Session } from 'electron';
import { contentSecurityPolicy, contentTypes, hardeningHeaders } from '../services/security/csp.ts';
import { resolveStaticPath } from '../services/security/staticPath.ts';
import { APP_HOST, APP_SCHEME } from './trustedUrl.ts';
import { audioType, playbackFile, RECORDING_PATH_PREFIX } from '../services/calls/playback.ts';

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
    if (url.pathname.startsWith(RECORDING_PATH_PREFIX)) {
      // A saved recording (calls:get playUrl): the whole file; Chromium seeks within it.
      const file = playbackFile(url.pathname.slice(RECORDING_PATH_PREFIX.length));
      if (!file) return text(404, 'Not found');
      const audio = await readFile(file).catch(() => null);
      if (!audio) return text(404, 'Not found');
      return new Response(audio, {
        status: 200,
        headers: { ...hardeningHeaders, 'Content-Type': audioType(file), 'Cache-Control': 'no-store' },
      });
    }
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
