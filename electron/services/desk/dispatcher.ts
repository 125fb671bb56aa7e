import type { z } from 'zod';
import { contract, isChannel } from '../../../shared/ipc/contract.ts';
import type { Channel } from '../../../shared/ipc/contract.ts';
import { DeskFailure, fail, ok } from '../../../shared/ipc/result.ts';
import type { Result } from '../../../shared/ipc/result.ts';
import type { Logger } from '../logging/logger.ts';
import type { DomainHandlers, Handler } from './domain.ts';

export const INTERNAL_MESSAGE = 'Something went wrong inside Campaign Desk. The details are in its log file.';

type Issue = z.core.$ZodIssue;

/**
 * For a union, the branch the payload came closest to: the one whose first problem lies deepest
 * (`{draft: {baseUrl: 'x'}}` is a bad draft, not a bad `{id}`). Paths are made absolute.
 */
function mostSpecific(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    const first = branch[0];
    if (!first) continue;
    const candidate = mostSpecific({ ...first, path: [...issue.path, ...first.path] } as Issue);
    if (!best || candidate.path.length > best.path.length) best = candidate;
  }
  return best ?? issue;
}

/** The first problem of a request, naming the field (dot path) when it has one. */
export function invalidRequest(error: z.ZodError): Result<never> {
  const first = error.issues[0];
  if (!first) return fail('invalid_request', 'The request is not valid.');
  const issue = mostSpecific(first);
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.join(', ');
    const at = field ? `${field}.` : '';
    return fail('invalid_request', `Unknown field: ${at}${keys}`, `${at}${issue.keys[0] ?? ''}`);
  }
  if (!field) return fail('invalid_request', issue.message);
  return fail('invalid_request', `${field}: ${issue.message}`, field);
}

/**
 * Turns a channel name and an untrusted payload into a Result: unknown channel or a payload that
 * fails the channel's schema → invalid_request; a DeskFailure → that error; anything else →
 * internal with a generic message (the details go to the log). The response is parsed with the
 * channel's response schema too, so nothing outside the contract (a secret included) can leave.
 */
export function createDispatcher(handlers: DomainHandlers, logger: Logger) {
  return async function handle(channel: string, payload: unknown): Promise<Result<unknown>> {
    if (!isChannel(channel)) {
      return fail(
        'invalid_request',
        `Unknown channel: ${typeof channel === 'string' ? channel.slice(0, 80) : typeof channel}`,
      );
    }
    const def = contract[channel];
    const parsed = def.request.safeParse(payload);
    if (!parsed.success) return invalidRequest(parsed.error);
    const handler = handlers[channel] as Handler<Channel> | undefined;
    if (!handler) {
      logger.error('channel has no handler', undefined, { channel });
      return fail('internal', `${channel} is not available in this version of Campaign Desk.`);
    }
    try {
      const value: unknown = await handler(parsed.data as never);
      const checked = def.response.safeParse(value);
      if (!checked.success) {
        logger.error('handler answered outside the contract', checked.error, { channel });
        return fail('internal', INTERNAL_MESSAGE);
      }
      return ok(checked.data);
    } catch (error) {
      if (error instanceof DeskFailure) return fail(error.code, error.message, error.field);
      logger.error('handler failed', error, { channel });
      return fail('internal', INTERNAL_MESSAGE);
    }
  };
}
