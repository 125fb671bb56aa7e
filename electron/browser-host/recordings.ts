import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { audioType, byteRange, playbackFile, RECORDING_PATH_PREFIX } from '../services/calls/playback.ts';
import { hardeningHeaders } from '../services/security/csp.ts';

/** True for requests this handler owns (GET/HEAD /recordings/<token>). */
export const isRecordingRequest = (req: IncomingMessage): boolean =>
  (req.url ?? '').startsWith(RECORDING_PATH_PREFIX);

/**
 * Plays a saved recording offline (calls:get's playUrl): the token (256 random bits, issued by the
 * back end for one saved file, this run only) is the only key; Range requests let the player seek.
 */
export function serveRecording(req: IncomingMessage, res: ServerResponse): void {
  const headers = { ...hardeningHeaders, 'Cache-Control': 'no-store' };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...headers, Allow: 'GET, HEAD' });
    return void res.end();
  }
  const token = (req.url ?? '').slice(RECORDING_PATH_PREFIX.length).split(/[?#]/, 1)[0] ?? '';
  const file = playbackFile(token);
  let size = -1;
  try {
    if (file) size = statSync(file).size;
  } catch {
    size = -1;
  }
  if (!file || size < 0) {
    res.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
    return void res.end('This recording is not available.\n');
  }
  const base = { ...headers, 'Content-Type': audioType(file), 'Accept-Ranges': 'bytes' };
  const range = byteRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...base, 'Content-Range': `bytes */${size}` });
    return void res.end();
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  res.writeHead(range ? 206 : 200, {
    ...base,
    'Content-Length': String(end - start + 1),
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  });
  if (req.method === 'HEAD' || size === 0) return void res.end();
  const stream = createReadStream(file, { start, end });
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
