// One delivery attempt over real HTTP: the subscriber's method, headers and URL, a JSON body, a
// time limit. Only HTTP 200 counts as delivered (notes §6, error-handling page); redirects are not
// followed (a 3xx is a failure like any other non-200).

export interface DeliveryRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  /** Add `content-type: application/json` unless given (default true). */
  json?: boolean;
}

export interface DeliveryResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

export const deliveryTimeoutMs = 30_000;

/**
 * Headers sent: our user agent and (for webhook events) the JSON content type, unless the subscriber
 * set them. The per-call callback gets no content type of ours (`json: false`).
 */
export function outgoingHeaders(given: Record<string, string>, json = true): Record<string, string> {
  const lower = new Set(Object.keys(given).map((k) => k.toLowerCase()));
  return {
    ...(lower.has('content-type') || !json ? {} : { 'content-type': 'application/json' }),
    ...(lower.has('user-agent') ? {} : { 'user-agent': 'campaign-desk-sandbox-webhooks/1' }),
    ...given,
  };
}

export async function sendOnce(
  req: DeliveryRequest,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<DeliveryResult> {
  const timeoutMs = opts.timeoutMs ?? deliveryTimeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers: outgoingHeaders(req.headers, req.json ?? true),
      // Bytes, not a string: fetch would add `text/plain` to a string body on its own.
      body: new TextEncoder().encode(req.body),
      redirect: 'manual',
      signal,
    });
    await res.body?.cancel().catch(() => undefined);
    return res.status === 200
      ? { ok: true, status: 200, error: null }
      : { ok: false, status: res.status, error: `HTTP ${res.status}` };
  } catch (e) {
    if (timeout.aborted) return { ok: false, status: null, error: `timeout after ${timeoutMs / 1000} s` };
    if (opts.signal?.aborted) return { ok: false, status: null, error: 'sandbox stopping' };
    return { ok: false, status: null, error: describe(e) };
  }
}

/** "connection refused (ECONNREFUSED)" rather than undici's bare "fetch failed". */
function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: string }).code;
    return code ? `${cause.message} (${code})` : cause.message;
  }
  return e.message;
}
