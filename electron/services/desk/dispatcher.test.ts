import { describe, expect, it } from 'vitest';
import { DeskFailure } from '../../../shared/ipc/result.ts';
import type { Logger } from '../logging/logger.ts';
import { createDispatcher, INTERNAL_MESSAGE } from './dispatcher.ts';

const recordingLogger = () => {
  const lines: string[] = [];
  const logger: Logger = {
    info: (m) => lines.push(`INFO ${m}`),
    warn: (m) => lines.push(`WARN ${m}`),
    error: (m, e) => lines.push(`ERROR ${m} ${e instanceof Error ? e.message : String(e)}`),
  };
  return { logger, lines };
};

const info = { version: '1.0.0', host: 'browser' as const, keychain: { available: true } };

describe('dispatcher', () => {
  it('answers an unknown channel with invalid_request', async () => {
    const { logger } = recordingLogger();
    const handle = createDispatcher({}, logger);
    expect(await handle('nope:nothing', {})).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: 'Unknown channel: nope:nothing' },
    });
    expect(await handle('__proto__', {})).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await handle('toString', {})).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('answers a payload that fails the schema with invalid_request naming the field', async () => {
    const handle = createDispatcher({}, recordingLogger().logger);
    const missing = await handle('workspaces:create', { name: 'A', apiKey: 'k' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'baseUrl' } });
    const badUrl = await handle('workspaces:create', { name: 'A', baseUrl: 'not a url', apiKey: 'k' });
    expect(badUrl).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_request',
        field: 'baseUrl',
        message: expect.stringContaining('Base URL must be a full URL'),
      },
    });
    const extra = await handle('app:info', { sneaky: 1 });
    expect(extra).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: 'Unknown field: sneaky' },
    });
    const draft = await handle('workspaces:test', { draft: { baseUrl: 'ftp://x', apiKey: 'k' } });
    expect(draft).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'draft.baseUrl' } });
  });

  it('passes a DeskFailure through and hides anything else behind a generic internal error', async () => {
    const { logger, lines } = recordingLogger();
    const handle = createDispatcher(
      {
        'workspaces:remove': async () => {
          throw new DeskFailure('not_found', 'This workspace no longer exists.', 'id');
        },
        'workspaces:set-active': async () => {
          throw new TypeError('cannot read properties of undefined (secret detail)');
        },
      },
      logger,
    );
    expect(await handle('workspaces:remove', { id: 'x' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'This workspace no longer exists.', field: 'id' },
    });
    const internal = await handle('workspaces:set-active', { id: 'x' });
    expect(internal).toEqual({ ok: false, error: { code: 'internal', message: INTERNAL_MESSAGE } });
    expect(lines.join('\n')).toContain('cannot read properties of undefined (secret detail)');
  });

  it('parses the response with the contract, dropping anything outside it', async () => {
    const handle = createDispatcher(
      { 'app:info': async () => ({ ...info, apiKey: 'leak' }) as typeof info },
      recordingLogger().logger,
    );
    expect(await handle('app:info', {})).toEqual({ ok: true, value: info });
  });

  it('answers internal when a handler returns something that breaks the contract', async () => {
    const { logger, lines } = recordingLogger();
    const handle = createDispatcher(
      { 'app:info': async () => ({ version: 1 }) as unknown as typeof info },
      logger,
    );
    expect(await handle('app:info', {})).toEqual({
      ok: false,
      error: { code: 'internal', message: INTERNAL_MESSAGE },
    });
    expect(lines[0]).toMatch(/answered outside the contract/);
  });

  it('says a channel without a handler is not available', async () => {
    const handle = createDispatcher({}, recordingLogger().logger);
    expect(await handle('app:info', {})).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});
