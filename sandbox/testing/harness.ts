// Test helpers: a real sandbox on 127.0.0.1:0 and small fetch wrappers (real HTTP, no inject).
import { startSandbox } from '../server.ts';
import type { SandboxHandle, StartSandboxOptions } from '../server.ts';

export const testApiKey = 'test-key-0123456789';

/**
 * A history window covering every call a test makes: without dates the service (and the sandbox)
 * answers its fixed default day only.
 */
export const allTime = 'start_date=2000-01-01T00:00:00Z&end_date=2100-01-01T00:00:00Z';
export const testBearer = 'test-bearer-abcdef';

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestSandbox {
  sb: SandboxHandle;
  /** Call a v0 operation with the right key (override headers to test auth). */
  api<T = unknown>(path: string, init?: RequestInit & { json?: unknown }): Promise<HttpResult<T>>;
  /** Call the control API. */
  control<T = unknown>(path: string, init?: RequestInit & { json?: unknown }): Promise<HttpResult<T>>;
  advance(seconds: number): Promise<void>;
  close(): Promise<void>;
}

async function call<T>(url: string, init: RequestInit & { json?: unknown } = {}): Promise<HttpResult<T>> {
  const { json, headers, ...rest } = init;
  const h = new Headers(headers);
  if (!h.has('x-api-key')) h.set('x-api-key', testApiKey);
  if (h.get('x-api-key') === '') h.delete('x-api-key');
  let body = rest.body;
  if (json !== undefined) {
    h.set('content-type', 'application/json');
    body = JSON.stringify(json);
  }
  const res = await fetch(url, { ...rest, headers: h, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export async function startTestSandbox(opts: Partial<StartSandboxOptions> = {}): Promise<TestSandbox> {
  const sb = await startSandbox({
    apiKey: testApiKey,
    bearerToken: testBearer,
    seed: 42,
    quiet: true,
    clockSpeed: 0,
    ...opts,
  });
  return {
    sb,
    api: (path, init) => call(`${sb.baseUrl}${path}`, init),
    control: (path, init) => call(`${sb.controlUrl}${path}`, init),
    advance: async (seconds) => {
      const r = await call(`${sb.controlUrl}/clock`, { method: 'POST', json: { advance_seconds: seconds } });
      if (r.status !== 200) throw new Error(`advance failed: ${r.text}`);
    },
    close: () => sb.close(),
  };
}

/**
 * Place an individual call (`POST /calling/v2/outbound/individual`) and return its id and status;
 * throws unless it answers 200. `json` overrides the body, which defaults to the first seeded agent
 * and number pool.
 */
export async function placeCall(
  t: TestSandbox,
  json: Record<string, unknown> = {},
): Promise<{ id: string; status: string }> {
  const store = t.sb.context.store;
  const r = await t.api<{ data: { call_id: string; call_status: string } }>(
    '/calling/v2/outbound/individual',
    {
      method: 'POST',
      json: {
        name: 'A',
        mobile_number: '+919876543210',
        agent_id: store.agents.all()[0]?.id,
        number_pool_id: store.numbers.list(1, 0)[0]?.number_pool_id,
        ...json,
      },
    },
  );
  if (r.status !== 200) throw new Error(`individual call: ${r.text}`);
  return { id: r.body.data.call_id, status: r.body.data.call_status };
}
