import { z } from 'zod';
import { deskErrorSchema } from './result.ts';

/**
 * Messages on the browser host's WebSocket (`ws://127.0.0.1:<port>/desk?token=<token>`).
 * The token comes from the URL fragment the host prints (`#token=…`), so it never travels in an
 * HTTP request line or a Referer. A wrong token or a foreign Origin is refused at the upgrade
 * (HTTP 401 / 403) and the socket never opens.
 */
export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('invoke'),
    id: z.number().int().nonnegative(),
    channel: z.string(),
    request: z.unknown(),
  }),
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

// ---- binary invokes: one request field carried as raw bytes (import batches) ----
// A binary frame is `[u32 LE header length][header: the invoke as JSON, UTF-8][bytes]`; the header
// names the field (`binaryField`) the bytes go to, and is validated like any text message. Bytes
// are never escaped into JSON text, so a batch crosses the socket as it was built.

/** The header of a binary frame: an invoke whose request gets the trailing bytes as `binaryField`. */
export const binaryInvokeHeaderSchema = z.object({
  type: z.literal('invoke'),
  id: z.number().int().nonnegative(),
  channel: z.string(),
  request: z.record(z.string(), z.unknown()),
  binaryField: z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,40}$/),
});

/** The request field holding a Uint8Array, when there is exactly one at the top level. */
export function binaryFieldOf(request: unknown): string | null {
  if (typeof request !== 'object' || request === null) return null;
  const fields = Object.entries(request).filter(([, v]) => v instanceof Uint8Array);
  return fields.length === 1 ? (fields[0] as [string, unknown])[0] : null;
}

/** One invoke as a binary frame (`field` is the request field carried as bytes). */
export function encodeBinaryInvoke(message: ClientMessage, field: string): Uint8Array<ArrayBuffer> {
  const request = { ...(message.request as Record<string, unknown>) };
  const bytes = request[field] as Uint8Array;
  delete request[field];
  const header = new TextEncoder().encode(JSON.stringify({ ...message, request, binaryField: field }));
  const frame = new Uint8Array(4 + header.byteLength + bytes.byteLength);
  new DataView(frame.buffer).setUint32(0, header.byteLength, true);
  frame.set(header, 4);
  frame.set(bytes, 4 + header.byteLength);
  return frame;
}

/** A binary frame back into an invoke (the bytes a view of `frame`), or null when it is malformed. */
export function decodeBinaryInvoke(frame: Uint8Array): ClientMessage | null {
  if (frame.byteLength < 4) return null;
  const length = new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(0, true);
  if (4 + length > frame.byteLength) return null;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(frame.subarray(4, 4 + length)));
  } catch {
    return null;
  }
  const header = binaryInvokeHeaderSchema.safeParse(json);
  if (!header.success) return null;
  const { binaryField, request, ...message } = header.data;
  return { ...message, request: { ...request, [binaryField]: frame.subarray(4 + length) } };
}
