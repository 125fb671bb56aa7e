import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../../shared/ipc/contract.ts';
import type { Logger } from '../logging/logger.ts';
import { contractListener, EventBus } from './events.ts';

/** A logger that keeps what it was told (the real one writes files; only the calls matter here). */
function recordingLogger() {
  const errors: Array<{ message: string; fields: unknown }> = [];
  const logger: Logger = {
    info: () => {},
    warn: () => {},
    error: (message, _error, fields) => void errors.push({ message, fields }),
  };
  return { logger, errors };
}

describe('events to the UI keep to the contract', () => {
  it('delivers a payload the contract names, as its schema parses it, and drops and logs one outside it', () => {
    const { logger, errors } = recordingLogger();
    const bus = new EventBus(logger);
    const got: Array<EventPayload<'app:connectivity-changed'>> = [];
    bus.on(
      'app:connectivity-changed',
      contractListener('app:connectivity-changed', (p) => got.push(p), logger),
    );

    bus.emit('app:connectivity-changed', { online: true, checkedAt: '2026-11-26T12:00:00.000Z' });
    // A field the contract does not name is not sent along (as with channel answers).
    bus.emit('app:connectivity-changed', {
      online: false,
      checkedAt: '2026-11-26T12:01:00.000Z',
      apiKey: 'sk-live-secret',
    } as EventPayload<'app:connectivity-changed'>);
    // A payload of the wrong shape is not delivered at all.
    bus.emit('app:connectivity-changed', {
      online: 'yes',
    } as unknown as EventPayload<'app:connectivity-changed'>);

    expect(got).toEqual([
      { online: true, checkedAt: '2026-11-26T12:00:00.000Z' },
      { online: false, checkedAt: '2026-11-26T12:01:00.000Z' },
    ]);
    expect(errors).toEqual([
      { message: 'event outside the contract was not sent', fields: { event: 'app:connectivity-changed' } },
    ]);
  });
});
