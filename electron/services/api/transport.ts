import type { z } from 'zod';
import { errorMessageOf } from '../../../shared/service/errors.ts';
import { ApiError, kindForStatus, redact } from './apiError.ts';
import type { ApiErrorKind } from './apiError.ts';

export interface ApiClientOptions {
  /** The service root, whose path carries `v0` (e.g. `https://prod-api.ringg.ai/ca/api/v0`). */
  baseUrl: string;
  /** Read the key at each request (it lives in the keychain and may be rotated). */
  apiKey: () => Promise<string | null>;
  /** Optional; only the agent subscription update sends it, and only when one is stored. */
  bearerToken?: () => Promise<string | null>;
  /** Per attempt, headers and body together. Default 15 s. */
  timeoutMs?: number;
  /**
   * Once headers arrived, a body that brings fewer than `bytes` in any `windowMs` is abandoned at
   * once (a dripping answer would otherwise hold the caller for the whole timeout, per attempt).
   * Default 2 KiB per 10 s; null: no check.
   */
  minReceiveRate?: MinReceiveRate | null;
  fetch?: typeof fetch;
  /** Extra attempts for idempotent requests (GETs) on 429 / 5xx / dropped connections. Default 3. */
  maxRetries?: number;
  /** First backoff step when the service gives no Retry-After. Default 300 ms, doubled per retry. */
  retryBaseDelayMs?: number;
  /** A longer Retry-After than this is not waited for: the 429 is thrown. Default 10 s. */
  maxRetryDelayMs?: number;
  /** Told about each retry (for logging; carries no secret). */
  onRetry?: (info: RetryInfo) => void;
}

export interface MinReceiveRate {
  bytes: number;
  windowMs: number;
}

export const defaultMinReceiveRate: MinReceiveRate = { bytes: 2048, windowMs: 10_000 };

export interface RetryInfo {
  operation: string;
  attempt: number;
  delayMs: number;
  reason: string;
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestSpec<S extends z.ZodType> {
  operation: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  /** multipart/form-data; fetch sets the boundary itself. */
  form?: FormData;
  schema: S;
  /** Safe to repeat: only these are retried automatically. Nothing that starts calls is. */
  idempotent: boolean;
  /** Send `Authorization: Bearer <token>` too, when the workspace has one. */
  bearer?: boolean;
  signal?: AbortSignal;
  /** Given the body's text of an answer that passed `schema` (the history sync stores the page's text). */
  onBody?: (text: string) => void;
}

export type Transport = <S extends z.ZodType>(spec: RequestSpec<S>) => Promise<z.infer<S>>;

/** A failure of one attempt, before we decide whether to retry. */
interface AttemptFailure {
  kind: ApiErrorKind;
  message: string;
  status?: number;
  code?: string;
  retryAfterSeconds?: number;
  fields?: string[];
  retryable: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createTransport(options: ApiClientOptions): Transport {
  const base = normalizeBaseUrl(options.baseUrl);
  const origin = safeOrigin(base);
  const timeoutMs = options.timeoutMs ?? 15_000;
  const doFetch = options.fetch ?? globalThis.fetch;
  const maxRetries = options.maxRetries ?? 3;
  const baseDelay = options.retryBaseDelayMs ?? 300;
  const maxDelay = options.maxRetryDelayMs ?? 10_000;
  const minRate = options.minReceiveRate === undefined ? defaultMinReceiveRate : options.minReceiveRate;

  return async function request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.infer<S>> {
    const apiKey = await options.apiKey();
    if (!apiKey) {
      throw new ApiError({
        kind: 'unauthorized',
        operation: spec.operation,
        message: 'No API key is stored for this workspace',
      });
    }
    // X-API-KEY authenticates every operation; a workspace that also has a bearer token sends it
    // where the seed shows one (PATCH /agent/v1), and a workspace without one simply does not.
    const bearer = spec.bearer ? ((await options.bearerToken?.()) ?? null) : null;
    const secrets = [apiKey, bearer];
    const url = buildUrl(base, spec.path, spec.query);
    const headers: Record<string, string> = { 'X-API-KEY': apiKey, Accept: 'application/json' };
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    let body: string | FormData | undefined;
    if (spec.form) body = spec.form;
    else if (spec.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(spec.json);
    }
    const firstHop: Hop = { url, method: spec.method, headers, body };

    const attempts = spec.idempotent ? maxRetries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      const failure = await attemptOnce();
      if ('ok' in failure) return failure.value;
      const last = attempt >= attempts || !failure.retryable;
      const delay = last ? 0 : retryDelay(failure, attempt);
      if (last || delay === null) {
        throw new ApiError({
          kind: failure.kind,
          operation: spec.operation,
          message: redact(failure.message, secrets),
          ...(failure.status !== undefined ? { status: failure.status } : {}),
          ...(failure.code !== undefined ? { code: redact(failure.code, secrets) } : {}),
          ...(failure.retryAfterSeconds !== undefined
            ? { retryAfterSeconds: failure.retryAfterSeconds }
            : {}),
          ...(failure.fields && failure.fields.length > 0 ? { fields: failure.fields } : {}),
          attempts: attempt,
        });
      }
      options.onRetry?.({
        operation: spec.operation,
        attempt,
        delayMs: delay,
        reason: redact(failure.message, secrets),
      });
      await sleep(delay);
      if (spec.signal?.aborted) throw spec.signal.reason;
    }

    function retryDelay(failure: AttemptFailure, attempt: number): number | null {
      if (failure.retryAfterSeconds !== undefined) {
        const ms = failure.retryAfterSeconds * 1000;
        return ms > maxDelay ? null : ms;
      }
      const exp = baseDelay * 2 ** (attempt - 1);
      return Math.min(maxDelay, exp + Math.floor(Math.random() * baseDelay));
    }

    async function attemptOnce(): Promise<AttemptFailure | { ok: true; value: z.infer<S> }> {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
      let res: Response;
      // Redirects are followed here, not by fetch: fetch would carry X-API-KEY to any host the
      // service (or whoever answers in its name) points at. Same origin only, a few hops.
      let hop = firstHop;
      for (let hops = 0; ; hops++) {
        try {
          res = await doFetch(hop.url, {
            method: hop.method,
            headers: hop.headers,
            body: hop.body,
            signal,
            redirect: 'manual',
          });
        } catch (e) {
          if (spec.signal?.aborted) throw spec.signal.reason;
          if (timeout.aborted) return timedOut();
          return {
            kind: 'unreachable',
            message: `Cannot reach the calling service at ${origin}: ${describeNetworkError(e)}`,
            retryable: true,
          };
        }
        const location = REDIRECTS.has(res.status) ? res.headers.get('location') : null;
        if (location === null) break;
        await res.body?.cancel().catch(() => undefined);
        const next = nextHop(hop, res.status, location, origin, spec.operation);
        if ('kind' in next) return next;
        if (hops + 1 > MAX_REDIRECTS) {
          return {
            kind: 'invalid_response',
            status: res.status,
            message: `The calling service redirected ${spec.operation} more than ${MAX_REDIRECTS} times`,
            retryable: false,
          };
        }
        hop = next;
      }
      let text: string;
      try {
        const body = await readText(res, minRate);
        if (!body.ok) {
          return {
            kind: 'timeout',
            status: res.status,
            message: `The calling service sent its answer too slowly (${body.bytes} bytes in ${Math.round(body.windowMs / 100) / 10} s); abandoned`,
            // A new attempt often gets a healthy connection; idempotent requests only.
            retryable: true,
          };
        }
        text = body.text;
      } catch (e) {
        if (spec.signal?.aborted) throw spec.signal.reason;
        if (timeout.aborted) return timedOut();
        return {
          kind: 'invalid_response',
          status: res.status,
          message: `The calling service's response was cut off (${describeNetworkError(e)})`,
          retryable: true,
        };
      }
      const parsedJson = parseJson(text);
      if (res.status >= 200 && res.status < 300) {
        if (!parsedJson.ok) {
          return {
            kind: 'invalid_response',
            status: res.status,
            message: `The calling service answered ${spec.operation} with a body that is not JSON`,
            retryable: false,
          };
        }
        const checked = spec.schema.safeParse(parsedJson.value);
        if (!checked.success) {
          const issue = checked.error.issues[0];
          const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'body';
          return {
            kind: 'invalid_response',
            status: res.status,
            message: `Unexpected response to ${spec.operation}: ${where}: ${issue?.message ?? 'invalid'}`,
            retryable: false,
          };
        }
        spec.onBody?.(text);
        return { ok: true, value: checked.data };
      }
      const fromBody = parsedJson.ok ? errorMessageOf(parsedJson.value) : null;
      const kind = kindForStatus(res.status);
      const retryAfterSeconds = parseRetryAfter(res.headers.get('retry-after'));
      const message =
        fromBody?.message ??
        (kind === 'unauthorized' && res.status === 401
          ? 'Invalid credentials'
          : `The calling service answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
      return {
        kind,
        status: res.status,
        message,
        ...(fromBody?.code ? { code: fromBody.code } : {}),
        ...(fromBody ? { fields: fromBody.fields } : {}),
        ...(retryAfterSeconds !== undefined && res.status === 429 ? { retryAfterSeconds } : {}),
        retryable: res.status === 429 || res.status >= 500,
      };
    }

    function timedOut(): AttemptFailure {
      return {
        kind: 'timeout',
        message: `The calling service did not answer within ${Math.round(timeoutMs / 100) / 10} s`,
        // Waiting again as long would double the operator's wait; the caller decides.
        retryable: false,
      };
    }
  };
}

/** One request of a redirect chain. */
interface Hop {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | FormData | undefined;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
export const MAX_REDIRECTS = 5;

/**
 * Where a redirect leads, or why it is not followed: another origin (scheme, host or port) would
 * receive the API key, and an https service sending us to http would put it on the wire in clear.
 * 303 (and 301/302 after a POST, as browsers do) becomes a GET without a body; 307/308 keep both.
 */
function nextHop(
  hop: Hop,
  status: number,
  location: string,
  origin: string,
  operation: string,
): Hop | AttemptFailure {
  let target: URL;
  try {
    target = new URL(location, hop.url);
  } catch {
    return {
      kind: 'invalid_response',
      status,
      message: `The calling service redirected ${operation} to an address that is not a URL`,
      retryable: false,
    };
  }
  if (target.origin !== origin) {
    const from = new URL(hop.url);
    const downgrade = from.protocol === 'https:' && target.protocol !== 'https:';
    return {
      kind: 'redirect_refused',
      status,
      message: downgrade
        ? `The calling service redirected ${operation} from https to ${target.protocol.replace(':', '')}://${target.host}; the API key is only sent over https, so the request was not repeated there`
        : `The calling service redirected ${operation} to another host (${target.host}); the API key is only sent to ${from.host}, so the request was not repeated there`,
      retryable: false,
    };
  }
  const toGet =
    status === 303 ? hop.method !== 'HEAD' : (status === 301 || status === 302) && hop.method === 'POST';
  if (!toGet) return { ...hop, url: target.toString() };
  const { 'Content-Type': _dropped, ...headers } = hop.headers;
  return { url: target.toString(), method: 'GET', headers, body: undefined };
}

/**
 * The body as text, or `ok: false` as soon as a whole window brings fewer bytes than the minimum
 * (the stream is cancelled: the connection is not held). A body that ends inside its first window
 * is never judged.
 */
async function readText(
  res: Response,
  rate: MinReceiveRate | null,
): Promise<{ ok: true; text: string } | { ok: false; bytes: number; windowMs: number }> {
  if (!rate || !res.body) return { ok: true, text: await res.text() };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let windowBytes = 0;
  let slow: number | null = null;
  const timer = setInterval(() => {
    if (windowBytes < rate.bytes) {
      slow = windowBytes;
      void reader.cancel().catch(() => undefined);
    }
    windowBytes = 0;
  }, rate.windowMs);
  try {
    for (;;) {
      const chunk = await reader.read();
      if (slow !== null) return { ok: false, bytes: slow, windowMs: rate.windowMs };
      if (chunk.done) break;
      windowBytes += chunk.value.byteLength;
      text += decoder.decode(chunk.value, { stream: true });
    }
    return { ok: true, text: text + decoder.decode() };
  } finally {
    clearInterval(timer);
  }
}

function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** scheme://host:port only: never credentials or paths in messages. */
function safeOrigin(base: string): string {
  try {
    return new URL(base).origin;
  } catch {
    return 'the configured base URL';
  }
}

function buildUrl(base: string, path: string, query?: Record<string, QueryValue>): string {
  const url = new URL(base + (path.startsWith('/') ? path : `/${path}`));
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  }
  return url.toString();
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Retry-After: delta seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function describeNetworkError(e: unknown): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : null;
  const code = cause && 'code' in cause && typeof cause.code === 'string' ? cause.code : null;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection closed by the service';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host not found';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connection timed out';
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return 'TLS certificate rejected';
    default:
      if (code) return code;
      if (cause) return cause.message;
      return e instanceof Error ? e.message : 'network error';
  }
}
