import { z } from 'zod';
import { deskErrorSchema } from './result.ts';

/**
 * Messages on the browser host's WebSocket (`ws://127.0.0.1:<port>/desk?token=<token>`).
 * The token comes from the URL fragment the host prints (`#token=…`), so it never travels in an
 * HTTP request line or a Referer. A wrong token or a foreign Origin is refused at the upgrade
 * (HTTP 401 / 403) and the socket never opens.
 */
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('invoke'), id: z.number().int().nonnegative(), channel: z.string(), request: z.unknown() }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('result'),
    id: z.number().int().nonnegative(),
    result: z.discriminatedUnion('ok', [
      z.object({ ok: z.literal(true), value: z.unknown() }),
      z.object({ ok: z.literal(false), error: deskErrorSchema }),
    ]),
  }),
  z.object({ type: z.literal('event'), event: z.string(), payload: z.unknown() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

export const DESK_SOCKET_PATH = '/desk';
/** Close code the host uses when it refuses a socket after opening (e.g. token revoked). */
export const CLOSE_REFUSED = 4401;
