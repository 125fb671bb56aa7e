// A local webhook receiver for tests: a node:http server on 127.0.0.1:0 that records every request
// and answers what the test tells it to (a status code, or never).
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';

export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  at: number;
}

/** Status to answer, or 'hang' to never answer. */
export type Responder = (req: Received, index: number) => number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  respond(r: Responder): void;
  /** Requests to paths starting with `prefix`. */
  on(prefix: string): Received[];
  /** Wait (real time) until `count` requests reached `prefix`. */
  waitFor(prefix: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let responder: Responder = () => 200;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://127.0.0.1');
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { unparsable: text };
      }
      const r: Received = {
        method: req.method ?? '',
        path: u.pathname,
        query: u.searchParams,
        headers: req.headers,
        body,
        at: Date.now(),
      };
      received.push(r);
      const answer = responder(r, received.length - 1);
      if (answer === 'hang') return;
      res.statusCode = answer;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const on = (prefix: string) => received.filter((r) => r.path.startsWith(prefix));
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    respond: (r) => {
      responder = r;
    },
    on,
    async waitFor(prefix, count, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (on(prefix).length < count) {
        if (Date.now() > until)
          throw new Error(`waited for ${count} requests to ${prefix}, got ${on(prefix).length}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return on(prefix);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
