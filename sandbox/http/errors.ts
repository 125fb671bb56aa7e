import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  detailBody,
  errorObjectBody,
  invalidParameterCode,
  serverErrorCode,
} from '../../shared/service/errors.ts';
import type { ErrorBody } from '../../shared/service/errors.ts';

export const errorObject = errorObjectBody;
export const detail = detailBody;

/** Which of the two error shapes a route answers with (route config `errorShape`). */
export type ErrorShape = 'error' | 'detail';

declare module 'fastify' {
  interface FastifyContextConfig {
    errorShape?: ErrorShape;
  }
}

/** Thrown by handlers for an expected refusal: the status and body go out as given. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;
  constructor(status: number, body: ErrorBody, headers: Record<string, string> = {}) {
    super(JSON.stringify(body));
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

export const invalidParameter = (message: string, status = 400) =>
  new HttpError(status, errorObject(invalidParameterCode, message));
export const notFound = (message: string) => new HttpError(404, errorObject('not_found', message));
export const detailError = (status: number, message: string) => new HttpError(status, detail(message));

/** The route's error in its own shape. */
export function shapedError(req: FastifyRequest, status: number, code: string, message: string): HttpError {
  return req.routeOptions.config?.errorShape === 'detail'
    ? new HttpError(status, detail(message))
    : new HttpError(status, errorObject(code, message));
}

/** Parse with zod; the first problem becomes a message naming the field. */
export function parseOr<T extends z.ZodType>(
  schema: T,
  value: unknown,
  fail: (message: string) => Error,
  prefix = '',
): z.infer<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const where = [prefix, path].filter(Boolean).join('.');
  throw fail(`${where ? `${where}: ` : ''}${issue?.message ?? 'invalid value'}`);
}

export function sendHttpError(reply: FastifyReply, e: HttpError) {
  for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
  return reply.code(e.status).send(e.body);
}

/** Every failure leaves in one of the seed's two shapes; faults are the seed's 500 body. */
export function installErrorHandling(app: FastifyInstance, log: (m: string) => void): void {
  app.setErrorHandler((err: FastifyError | HttpError | Error, req, reply) => {
    if (err instanceof HttpError) return sendHttpError(reply, err);
    const status = 'statusCode' in err && typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Fastify's own refusals: unparsable JSON, wrong content type, body or file too large.
      const code = status === 413 ? 'payload_too_large' : invalidParameterCode;
      return sendHttpError(reply, shapedError(req, status, code, plainMessage(err)));
    }
    log(`500 on ${req.method} ${req.url}: ${err.stack ?? err.message}`);
    return reply.code(500).send(errorObject(serverErrorCode, `Internal error: ${err.message}`));
  });
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send(errorObject('not_found', `No operation ${req.method} ${req.url.split('?')[0]}`)),
  );
}

function plainMessage(err: Error): string {
  // Fastify prefixes codes such as "FST_ERR_CTP_INVALID_JSON_BODY"; people need the sentence.
  return err.message.replace(/^FST_[A-Z_]+:\s*/, '');
}
