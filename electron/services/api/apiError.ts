/** What went wrong talking to the calling service, in the terms the app acts on. */
export type ApiErrorKind =
  | 'unauthorized'
  | 'not_found'
  | 'rate_limited'
  | 'rejected'
  | 'server'
  | 'unreachable'
  | 'timeout'
  | 'invalid_response'
  /** The service redirected a request to another origin (or from https to http): not followed. */
  | 'redirect_refused';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  operation: string;
  status?: number;
  /** The service's own error code (`error.code`), when it sent one. */
  code?: string;
  /** Seconds the service asked us to wait (429 `Retry-After`). */
  retryAfterSeconds?: number;
  /** How many attempts were made before giving up. */
  attempts?: number;
  /** Fields a validation error names (`detail: [{loc: ["body", "call_config"], …}]`). */
  fields?: string[];
}

/**
 * The one error the client throws. `message` is for people and never carries the API key or the
 * bearer token (the transport scrubs both before building it).
 */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly operation: string;
  readonly retryAfterSeconds: number | undefined;
  readonly attempts: number;
  readonly fields: string[];

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.operation = init.operation;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.attempts = init.attempts ?? 1;
    this.fields = init.fields ?? [];
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** The kind for an HTTP error status: any 4xx is a rejection unless it has a more precise meaning. */
export function kindForStatus(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'rejected';
}

/** Replace every occurrence of each secret with a mask, so no message or log line can leak one. */
export function redact(text: string, secrets: ReadonlyArray<string | null | undefined>): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('***');
  }
  return out;
}
