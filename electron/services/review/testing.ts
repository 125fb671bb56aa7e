// Test fixture of the review domain: an HTTP proxy on 127.0.0.1 in front of the sandbox that
// forwards every request unchanged and keeps what it saw, so a test can show what reached the
// service (and that review marks never did).
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  /** Header names and values, the API key left out. */
  headers: string;
  body: string;
}

export interface RecordingProxy {
  /** The proxy's `…/v0` (give it to the workspace instead of the sandbox's). */
  baseUrl: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function recordingProxy(targetBaseUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetBaseUrl);
  const seen: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: Object.entries(req.headers)
          .filter(([k]) => k !== 'x-api-key')
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join('\n'),
        body: body.toString('utf8'),
      });
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.writeHead(502).end());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname.replace(/\/$/, '')}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
