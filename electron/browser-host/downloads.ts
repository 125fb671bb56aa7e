import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DOWNLOAD_PATH_PREFIX, findDownload, removeDownload } from '../services/files/downloads.ts';
import { hardeningHeaders } from '../services/security/csp.ts';

/** RFC 6266 filename parameters: an ASCII fallback and the exact UTF-8 name. */
const disposition = (name: string): string =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** True for requests this handler owns (GET/HEAD /downloads/<token>). */
export const isDownloadRequest = (req: IncomingMessage): boolean =>
  (req.url ?? '').startsWith(DOWNLOAD_PATH_PREFIX);

/**
 * Streams an exported file once (contacts:export with `download`), then deletes it. The token in
 * the path is the only key (256 random bits, issued to the page that asked); unknown, used or
 * malformed tokens get 404.
 */
export function serveDownload(dataDir: string, req: IncomingMessage, res: ServerResponse): void {
  const headers = { ...hardeningHeaders, 'Cache-Control': 'no-store' };
  const token = (req.url ?? '').slice(DOWNLOAD_PATH_PREFIX.length).split(/[?#]/, 1)[0] ?? '';
  if (req.method !== 'GET') {
    res.writeHead(405, { ...headers, Allow: 'GET', 'Content-Type': 'text/plain; charset=utf-8' });
    return void res.end('Method not allowed\n');
  }
  const found = findDownload(dataDir, token);
  if (!found) {
    res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
    return void res.end('This download is not available (each export can be downloaded once).\n');
  }
  res.writeHead(200, {
    ...headers,
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Length': String(found.size),
    'Content-Disposition': disposition(found.name),
  });
  const stream = createReadStream(found.file);
  const done = () => removeDownload(found.dir);
  stream.on('error', () => {
    done();
    res.destroy();
  });
  res.on('close', done);
  stream.pipe(res);
}
