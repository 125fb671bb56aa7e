import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOSE_REFUSED } from '../../../shared/ipc/wire.ts';
import type { SocketLike, TransportStatus } from './browserTransport.ts';
import { createBrowserTransport } from './browserTransport.ts';
import { LOST_MESSAGE, REFUSED_MESSAGE, UNREACHABLE_MESSAGE } from './messages.ts';

/** A scripted stand-in for the browser's WebSocket: the test opens, closes and answers it. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason?: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly url: string;
  constructor(url: string) {
    this.url = url;
  }
  send(data: string) {
    if (this.readyState !== 1) throw new Error('send before open');
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  receive(message: unknown) {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }
}

function setup(opts: { url?: string | null; hostAnswers?: boolean } = {}) {
  const sockets: FakeSocket[] = [];
  const statuses: TransportStatus[] = [];
  let hostUp = opts.hostAnswers ?? false;
  const transport = createBrowserTransport({
    url: opts.url === undefined ? 'ws://127.0.0.1:1/desk?token=t' : opts.url,
    openSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    hostAnswers: async () => hostUp,
    onStatus: (status) => statuses.push(status),
    random: () => 0.5, // no jitter: delays are exactly 250, 500, 1000, …
    queueTimeoutMs: 10_000,
  });
  const last = () => sockets[sockets.length - 1]!;
  return { transport, sockets, statuses, last, setHostUp: (up: boolean) => (hostUp = up) };
}

describe('browser transport', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('matches results to invokes by id, even when they arrive out of order', async () => {
    const { transport, last } = setup();
    last().open();
    const a = transport.invoke('app:info', {});
    const b = transport.invoke('workspaces:list', {});
    const [first, second] = last().sent as Array<{ id: number; channel: string; type: string }>;
    expect(first).toMatchObject({ type: 'invoke', channel: 'app:info', request: {} });
    expect(second).toMatchObject({ type: 'invoke', channel: 'workspaces:list' });
    expect(first!.id).not.toBe(second!.id);
    last().receive({ type: 'result', id: second!.id, result: { ok: true, value: 'B' } });
    last().receive({
      type: 'result',
      id: first!.id,
      result: { ok: false, error: { code: 'not_found', message: 'A' } },
    });
    await expect(a).resolves.toEqual({ ok: false, error: { code: 'not_found', message: 'A' } });
    await expect(b).resolves.toEqual({ ok: true, value: 'B' });
  });

  it('queues invokes made while connecting and sends them once the socket opens', async () => {
    const { transport, last } = setup();
    const pending = transport.invoke('app:info', {});
    expect(last().sent).toHaveLength(0);
    last().open();
    expect(last().sent).toHaveLength(1);
    const { id } = last().sent[0] as { id: number };
    last().receive({ type: 'result', id, result: { ok: true, value: 1 } });
    await expect(pending).resolves.toEqual({ ok: true, value: 1 });
  });

  it('ignores malformed and unknown messages without breaking later ones', async () => {
    const { transport, last } = setup();
    last().open();
    const pending = transport.invoke('app:info', {});
    const { id } = last().sent[0] as { id: number };
    last().receive('not json {');
    last().receive({ type: 'result', id: 'x', result: { ok: true, value: 1 } });
    last().receive({ type: 'result', id: 9999, result: { ok: true, value: 1 } });
    last().receive({ type: 'surprise' });
    last().receive({ type: 'result', id, result: { ok: false, error: { code: 'nonsense', message: 'x' } } });
    last().receive({ type: 'result', id, result: { ok: true, value: 'fine' } });
    await expect(pending).resolves.toEqual({ ok: true, value: 'fine' });
  });

  it('fails in-flight invokes with a Result error when the socket drops, then reconnects with backoff', async () => {
    const { transport, sockets, last, statuses } = setup();
    last().open();
    const pending = transport.invoke('workspaces:test', { id: 'w1' });
    last().drop();
    await expect(pending).resolves.toEqual({
      ok: false,
      error: { code: 'unreachable', message: LOST_MESSAGE },
    });
    expect(statuses.at(-1)).toEqual({ state: 'reconnecting', attempt: 1, retryInMs: 250 });
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(249);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);

    // The host is down: each failed attempt waits longer, up to the cap.
    last().drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(statuses.at(-1)).toEqual({ state: 'reconnecting', attempt: 2, retryInMs: 500 });
    await vi.advanceTimersByTimeAsync(500);
    expect(sockets).toHaveLength(3);
    for (let i = 0; i < 6; i++) {
      last().drop();
      await vi.advanceTimersByTimeAsync(5_000);
    }
    expect(
      statuses
        .filter((s) => s.state === 'reconnecting')
        .map((s) => (s.state === 'reconnecting' ? s.retryInMs : 0)),
    ).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);

    // While the back end is gone, calls fail at once instead of hanging.
    await expect(transport.invoke('app:info', {})).resolves.toEqual({
      ok: false,
      error: { code: 'unreachable', message: UNREACHABLE_MESSAGE },
    });

    // Back up: open resets the backoff and calls go through again.
    last().open();
    expect(statuses.at(-1)).toEqual({ state: 'open' });
    const again = transport.invoke('app:info', {});
    const { id } = last().sent[0] as { id: number };
    last().receive({ type: 'result', id, result: { ok: true, value: 'again' } });
    await expect(again).resolves.toEqual({ ok: true, value: 'again' });
    last().drop();
    expect(statuses.at(-1)).toEqual({ state: 'reconnecting', attempt: 1, retryInMs: 250 });
  });

  it('treats a socket closed before opening while the host answers as a refused token', async () => {
    const { transport, last, sockets, statuses } = setup({ hostAnswers: true });
    const pending = transport.invoke('app:info', {});
    last().drop(1006);
    await vi.advanceTimersByTimeAsync(0);
    expect(statuses.at(-1)).toEqual({ state: 'refused', reason: 'rejected' });
    await expect(pending).resolves.toEqual({
      ok: false,
      error: { code: 'unauthorized', message: REFUSED_MESSAGE },
    });
    // No reconnect storm against a host that said no.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
    await expect(transport.invoke('app:info', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
  });

  it('treats the refusal close code after opening as refused', async () => {
    const { last, statuses } = setup();
    last().open();
    last().drop(CLOSE_REFUSED);
    expect(statuses.at(-1)).toEqual({ state: 'refused', reason: 'rejected' });
  });

  it('refuses at once when the page has no token, without opening a socket', async () => {
    const { transport, sockets, statuses } = setup({ url: null });
    expect(sockets).toHaveLength(0);
    expect(statuses.at(-1)).toEqual({ state: 'refused', reason: 'missing-token' });
    await expect(transport.invoke('app:info', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
  });

  it('fails waiting invokes at once when the first attempt finds the host down', async () => {
    const { transport, last, statuses } = setup({ hostAnswers: false });
    const pending = transport.invoke('app:info', {});
    last().drop(1006);
    await expect(pending).resolves.toEqual({
      ok: false,
      error: { code: 'unreachable', message: UNREACHABLE_MESSAGE },
    });
    expect(statuses.at(-1)).toMatchObject({ state: 'reconnecting', attempt: 1 });
  });

  it('fails an invoke that waits too long for a connection', async () => {
    const { transport } = setup();
    const pending = transport.invoke('app:info', {});
    await vi.advanceTimersByTimeAsync(10_000);
    await expect(pending).resolves.toEqual({
      ok: false,
      error: { code: 'unreachable', message: UNREACHABLE_MESSAGE },
    });
  });

  it('delivers events to subscribers until they unsubscribe, and survives a throwing listener', () => {
    const { transport, last } = setup();
    last().open();
    const seen: unknown[] = [];
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    transport.subscribe('workspaces:changed', () => {
      throw new Error('broken listener');
    });
    const off = transport.subscribe('workspaces:changed', (payload) => seen.push(payload));
    last().receive({ type: 'event', event: 'workspaces:changed', payload: { activeId: 'a' } });
    last().receive({ type: 'event', event: 'app:connectivity-changed', payload: { online: true } });
    off();
    last().receive({ type: 'event', event: 'workspaces:changed', payload: { activeId: 'b' } });
    expect(seen).toEqual([{ activeId: 'a' }]);
    expect(errors).toHaveBeenCalledTimes(2);
    errors.mockRestore();
  });

  it('reconnectNow skips the wait; close stops everything', async () => {
    const { transport, sockets, last, statuses } = setup();
    last().open();
    last().drop();
    expect(sockets).toHaveLength(1);
    transport.reconnectNow();
    expect(sockets).toHaveLength(2);
    last().open();
    const pending = transport.invoke('app:info', {});
    transport.close();
    expect(last().closedWith).toBe(1000);
    expect(statuses.at(-1)).toEqual({ state: 'closed' });
    await expect(pending).resolves.toMatchObject({ ok: false, error: { code: 'unreachable' } });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(2);
  });

  it('answers a request that cannot be serialised with an error instead of throwing', async () => {
    const { transport, last } = setup();
    last().open();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(transport.invoke('app:info', circular)).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });
});
