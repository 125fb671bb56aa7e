import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { eventNames } from '../../shared/ipc/contract.ts';
import { fail } from '../../shared/ipc/result.ts';
import { clientMessageSchema, decodeBinaryInvoke, DESK_SOCKET_PATH } from '../../shared/ipc/wire.ts';
import type { ServerMessage } from '../../shared/ipc/wire.ts';
import type { Desk } from '../services/createDesk.ts';
import type { Logger } from '../services/logging/logger.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison (of fixed-length digests, so the length leaks nothing either). */
export const tokenMatches = (expected: string, given: string | null): boolean =>
  given !== null && timingSafeEqual(digest(expected), digest(given));

/** Largest message accepted from the page (a big contact batch fits; a runaway does not). */
const MAX_PAYLOAD = 64 * 1024 * 1024;

/**
 * The contract over a WebSocket at DESK_SOCKET_PATH. The upgrade is refused before the socket
 * opens unless the Host and Origin are this host's own (`http://127.0.0.1:<port>`, else 403) and
 * `?token=` matches (else 401). Each message is validated (shared/ipc/wire.ts); malformed ones are
 * answered when they carry an id and otherwise ignored. Back-end events go to every socket.
 */
export function createDeskSocket(options: {
  desk: Desk;
  token: string;
  origin: () => string;
  logger: Logger;
}) {
  const { desk, token, logger } = options;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });

  const send = (ws: WebSocket, message: ServerMessage) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };

  const unsubscribes = eventNames.map((event) =>
    desk.on(event, (payload) => {
      for (const ws of wss.clients) send(ws, { type: 'event', event, payload });
    }),
  );

  wss.on('connection', (ws) => {
    ws.on('error', (error) => logger.warn('socket error', { reason: error.message }));
    ws.on('message', (data, isBinary) => {
      let json: unknown;
      if (isBinary) {
        // An invoke with one field as raw bytes (an import batch): header checked like text.
        const frame = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
        json = decodeBinaryInvoke(frame);
        if (json === null) return;
      } else {
        try {
          json = JSON.parse(data.toString());
        } catch {
          return;
        }
      }
      const message = clientMessageSchema.safeParse(json);
      if (!message.success) {
        const id = (json as { id?: unknown } | null)?.id;
        if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) {
          send(ws, {
            type: 'result',
            id,
            result: fail('invalid_request', 'The message is not a valid request.'),
          });
        }
        return;
      }
      const { id, channel, request } = message.data;
      desk.handle(channel, request).then(
        (result) => send(ws, { type: 'result', id, result }),
        (error: unknown) => {
          logger.error('socket request failed', error, { channel });
          send(ws, {
            type: 'result',
            id,
            result: fail('internal', 'Something went wrong inside Campaign Desk.'),
          });
        },
      );
    });
  });

  const refuse = (socket: Duplex, status: 401 | 403 | 404, text: string) => {
    const body = `${text}\n`;
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  };

  return {
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      socket.on('error', () => socket.destroy());
      const origin = options.origin();
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname !== DESK_SOCKET_PATH) return refuse(socket, 404, 'Not Found');
      if (req.headers.host !== new URL(origin).host || req.headers.origin !== origin) {
        logger.warn('socket refused: foreign origin', {
          origin: String(req.headers.origin ?? 'none').slice(0, 100),
        });
        return refuse(socket, 403, 'Forbidden');
      }
      if (!tokenMatches(token, url.searchParams.get('token'))) {
        logger.warn('socket refused: wrong token');
        return refuse(socket, 401, 'Unauthorized');
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    get clients(): number {
      return wss.clients.size;
    },
    async close(): Promise<void> {
      unsubscribes.forEach((off) => off());
      for (const ws of wss.clients) ws.close(1001, 'Campaign Desk is shutting down');
      // Give pages a moment to answer the close handshake, then cut whatever is left.
      const deadline = Date.now() + 500;
      while (wss.clients.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
