import type { Channel, DeskTransport, EventName } from '../../../shared/ipc/contract.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import { fail } from '../../../shared/ipc/result.ts';
import type { ClientMessage } from '../../../shared/ipc/wire.ts';
import {
  binaryFieldOf,
  CLOSE_REFUSED,
  encodeBinaryInvoke,
  serverMessageSchema,
} from '../../../shared/ipc/wire.ts';
import type { BackoffOptions } from './backoff.ts';
import { backoffDelay, defaultBackoff } from './backoff.ts';
import { LOST_MESSAGE, REFUSED_MESSAGE, UNREACHABLE_MESSAGE } from './messages.ts';

/**
 * window.desk's transport in the browser host: the contract over one WebSocket
 * (protocol in shared/ipc/wire.ts). Matches results to invokes by id, fans events out to
 * listeners, reconnects with backoff, and tells a refused token apart from a dead host.
 */

/** The part of a browser WebSocket this transport uses (a fake in unit tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string | Uint8Array<ArrayBuffer>): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** Wraps a browser WebSocket in SocketLike (its handler types carry `this` and DOM events). */
export function adaptWebSocket(ws: WebSocket): SocketLike {
  const socket: SocketLike = {
    get readyState() {
      return ws.readyState;
    },
    send: (data) => ws.send(data),
    close: (code, reason) => ws.close(code, reason),
    onopen: null,
    onmessage: null,
    onclose: null,
    onerror: null,
  };
  ws.onopen = (event) => socket.onopen?.(event);
  ws.onmessage = (event) => socket.onmessage?.({ data: event.data });
  ws.onclose = (event) => socket.onclose?.({ code: event.code, reason: event.reason });
  ws.onerror = (event) => socket.onerror?.(event);
  return socket;
}

export type TransportStatus =
  | { state: 'connecting' }
  | { state: 'open' }
  | { state: 'reconnecting'; attempt: number; retryInMs: number }
  | { state: 'refused'; reason: 'missing-token' | 'rejected' }
  | { state: 'closed' };

export interface BrowserTransportOptions {
  /** ws:// URL including the token; null when the page was opened without one. */
  url: string | null;
  openSocket: (url: string) => SocketLike;
  /**
   * Whether the host's HTTP side answers. A socket that closes before opening while the host
   * answers was refused (wrong token / origin); one that fails while the host is silent means the
   * host is down, so we keep retrying.
   */
  hostAnswers: () => Promise<boolean>;
  onStatus?: (status: TransportStatus) => void;
  backoff?: BackoffOptions;
  random?: () => number;
  /** How long an invoke made while the first connection is opening may wait for it. */
  queueTimeoutMs?: number;
}

export interface BrowserTransport extends DeskTransport {
  status(): TransportStatus;
  /** Skip the current backoff wait and try now (e.g. a "Retry" button). */
  reconnectNow(): void;
  /** Stop for good: pending invokes fail, no more reconnects. */
  close(): void;
}

interface Waiting {
  message: ClientMessage;
  resolve: (result: Result<unknown>) => void;
  timer: ReturnType<typeof setTimeout>;
}

const OPEN = 1;

export function createBrowserTransport(options: BrowserTransportOptions): BrowserTransport {
  const backoff = options.backoff ?? defaultBackoff;
  const random = options.random ?? Math.random;
  const queueTimeoutMs = options.queueTimeoutMs ?? 20_000;

  let status: TransportStatus = { state: 'connecting' };
  let socket: SocketLike | null = null;
  let nextId = 1;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Sent, waiting for their result. */
  const inFlight = new Map<number, (result: Result<unknown>) => void>();
  /** Not sent yet: waiting for the socket to open. */
  const queue: Waiting[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();

  const setStatus = (next: TransportStatus) => {
    status = next;
    options.onStatus?.(next);
  };

  const failInFlight = (result: Result<never>) => {
    const waiting = [...inFlight.values()];
    inFlight.clear();
    for (const resolve of waiting) resolve(result);
  };
  const failQueue = (result: Result<never>) => {
    for (const item of queue.splice(0)) {
      clearTimeout(item.timer);
      item.resolve(result);
    }
  };

  const send = (message: ClientMessage, resolve: (result: Result<unknown>) => void) => {
    let text: string | Uint8Array<ArrayBuffer>;
    try {
      // A request with bytes (an import batch) goes as one binary frame, its bytes never escaped.
      const field = binaryFieldOf(message.request);
      text = field === null ? JSON.stringify(message) : encodeBinaryInvoke(message, field);
    } catch {
      resolve(fail('invalid_request', 'This request cannot be sent: it is not plain data.'));
      return;
    }
    inFlight.set(message.id, resolve);
    socket!.send(text);
  };

  const flushQueue = () => {
    for (const item of queue.splice(0)) {
      clearTimeout(item.timer);
      send(item.message, item.resolve);
    }
  };

  const dispatchEvent = (event: string, payload: unknown) => {
    for (const listener of listeners.get(event) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        // One broken listener must not stop the others or the socket.
        console.error(`desk: listener for ${event} failed`, error);
      }
    }
  };

  const onMessage = (data: unknown) => {
    if (typeof data !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      return;
    }
    const parsed = serverMessageSchema.safeParse(json);
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'result') {
      const resolve = inFlight.get(message.id);
      if (!resolve) return;
      inFlight.delete(message.id);
      resolve(message.result);
    } else {
      dispatchEvent(message.event, message.payload);
    }
  };

  const refuse = (reason: 'missing-token' | 'rejected') => {
    setStatus({ state: 'refused', reason });
    const refused = fail('unauthorized', REFUSED_MESSAGE);
    failInFlight(refused);
    failQueue(refused);
  };

  const scheduleReconnect = () => {
    // Calls waiting for the first connection learn now that the back end is not there.
    failQueue(fail('unreachable', UNREACHABLE_MESSAGE));
    attempt += 1;
    const retryInMs = backoffDelay(attempt, backoff, random);
    setStatus({ state: 'reconnecting', attempt, retryInMs });
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect();
    }, retryInMs);
  };

  const connect = () => {
    if (options.url === null) {
      refuse('missing-token');
      return;
    }
    if (status.state !== 'reconnecting') setStatus({ state: 'connecting' });
    let opened = false;
    const current = options.openSocket(options.url);
    socket = current;
    current.onopen = () => {
      if (socket !== current) return;
      opened = true;
      attempt = 0;
      setStatus({ state: 'open' });
      flushQueue();
    };
    current.onmessage = (event) => {
      if (socket === current) onMessage(event.data);
    };
    current.onerror = () => {
      // The close event follows and carries what we need.
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      failInFlight(fail('unreachable', LOST_MESSAGE));
      if (status.state === 'closed') return;
      if (event.code === CLOSE_REFUSED) {
        refuse('rejected');
        return;
      }
      if (opened) {
        scheduleReconnect();
        return;
      }
      // Closed before opening: refused at the upgrade, or the host is gone. Ask the host's HTTP side.
      void options.hostAnswers().then(
        (answers) => {
          if (status.state === 'closed') return;
          if (answers) refuse('rejected');
          else scheduleReconnect();
        },
        () => {
          if (status.state !== 'closed') scheduleReconnect();
        },
      );
    };
  };

  connect();

  return {
    invoke(channel: Channel, request: unknown): Promise<Result<unknown>> {
      return new Promise((resolve) => {
        if (status.state === 'refused') {
          resolve(fail('unauthorized', REFUSED_MESSAGE));
          return;
        }
        // Closed for good, or lost and not back yet: answer now rather than leave the UI waiting.
        if (status.state === 'closed' || status.state === 'reconnecting') {
          resolve(fail('unreachable', UNREACHABLE_MESSAGE));
          return;
        }
        const message: ClientMessage = { type: 'invoke', id: nextId++, channel, request };
        if (socket && socket.readyState === OPEN && status.state === 'open') {
          send(message, resolve);
          return;
        }
        const item: Waiting = {
          message,
          resolve,
          timer: setTimeout(() => {
            const index = queue.indexOf(item);
            if (index >= 0) queue.splice(index, 1);
            resolve(fail('unreachable', UNREACHABLE_MESSAGE));
          }, queueTimeoutMs),
        };
        queue.push(item);
      });
    },
    subscribe(event: EventName, listener: (payload: unknown) => void): () => void {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const entry = (payload: unknown) => listener(payload);
      set.add(entry);
      return () => {
        listeners.get(event)?.delete(entry);
      };
    },
    status: () => status,
    reconnectNow() {
      if (status.state !== 'reconnecting' || retryTimer === null) return;
      clearTimeout(retryTimer);
      retryTimer = null;
      connect();
    },
    close() {
      if (retryTimer !== null) clearTimeout(retryTimer);
      retryTimer = null;
      setStatus({ state: 'closed' });
      const current = socket;
      socket = null;
      failInFlight(fail('unreachable', UNREACHABLE_MESSAGE));
      failQueue(fail('unreachable', UNREACHABLE_MESSAGE));
      current?.close(1000, 'closed by the page');
    },
  };
}
