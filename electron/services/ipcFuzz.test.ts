import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelNames, contract } from '../../shared/ipc/contract.ts';
import type { Channel } from '../../shared/ipc/contract.ts';
import { createDesk } from './createDesk.ts';
import type { Desk } from './createDesk.ts';
import { tempDirs } from './db/testing.ts';
import { SessionSecretStore } from './secrets/sessionSecretStore.ts';
import { seededRandom } from '../../shared/testing/seededRandom.ts';

/** Deterministic picks (seededRandom) so a failure reproduces. */
function rng(seed: number) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}
type Rng = ReturnType<typeof rng>;

const weirdStrings = [
  '',
  ' ',
  'x'.repeat(5000),
  '\u0000',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE workspaces; --",
  'ftp://example.com/v0',
  'javascript:alert(1)',
  'http://',
  '\ud800',
  '🙂'.repeat(200),
  'null',
  '{}',
  'toString',
  '__proto__',
];

function randomValue(r: Rng, depth = 0): unknown {
  switch (r.int(depth > 2 ? 7 : 10)) {
    case 0:
      return null;
    case 1:
      return undefined;
    case 2:
      return r.pick([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -0, 2 ** 53, 1e308]);
    case 3:
      return r.pick([true, false]);
    case 4:
      return r.pick(weirdStrings);
    case 5:
      return Math.random()
        .toString(36)
        .slice(2, 2 + r.int(12));
    case 6:
      return r.pick([[], {}, new Date(0).toISOString()]);
    case 7:
      return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = r.int(4); i > 0; i--)
        o[r.pick(['id', 'name', 'baseUrl', 'apiKey', 'draft', 'x', 'constructor'])] = randomValue(
          r,
          depth + 1,
        );
      return o;
    }
  }
}

/** A valid request per channel, to mutate one field at a time (unknown channels fall back to {}). */
const examples: Partial<Record<Channel, Record<string, unknown>>> = {
  'workspaces:create': { name: 'Fuzz', baseUrl: 'http://127.0.0.1:9/v0', apiKey: 'fuzz-key' },
  'workspaces:update': { id: 'some-id', name: 'Renamed' },
  'workspaces:remove': { id: 'some-id' },
  'workspaces:set-active': { id: 'some-id' },
  'workspaces:test': { draft: { baseUrl: 'http://127.0.0.1:9/v0', apiKey: 'fuzz-key' } },
};

function mutate(r: Rng, base: Record<string, unknown>): unknown {
  const copy: Record<string, unknown> = structuredClone(base);
  const keys = Object.keys(copy);
  switch (r.int(5)) {
    case 0: // a field of the wrong type or shape
      if (keys.length) copy[r.pick(keys)] = randomValue(r);
      else copy[r.pick(['x', 'id'])] = randomValue(r);
      return copy;
    case 1: // an extra field (every request schema is strict)
      copy[r.pick(['extra', 'apiKeyEcho', 'isSandbox', '__proto__x'])] = randomValue(r);
      return copy;
    case 2: // a missing required field
      if (keys.length) delete copy[r.pick(keys)];
      else copy.unexpected = 1;
      return copy;
    case 3: {
      // prototype-pollution shapes, as a JSON parser would produce them
      const rest = JSON.stringify(copy).slice(1, -1);
      return JSON.parse(
        `{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}${rest ? `, ${rest}` : ''}}`,
      );
    }
    default:
      return randomValue(r);
  }
}

const PER_CHANNEL = 300;
const dirs = tempDirs('desk-fuzz-');
let desk: Desk;
beforeAll(async () => {
  desk = await createDesk({
    dataDir: dirs.make(),
    host: 'browser',
    version: '0',
    sandbox: 'off',
    secrets: new SessionSecretStore(),
  });
});
afterAll(async () => {
  await desk.close();
  dirs.cleanup();
});

describe('IPC fuzz: random and malformed payloads on every channel', () => {
  it.each(channelNames)('%s answers every malformed payload with invalid_request', async (channel) => {
    const r = rng([...channel].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
    const base = examples[channel] ?? {};
    let malformed = 0;
    for (let i = 0; i < PER_CHANNEL; i++) {
      const payload = r.next() < 0.5 ? mutate(r, base) : randomValue(r);
      const result = await desk.handle(channel, payload);
      expect(typeof result.ok, `${channel} #${i}`).toBe('boolean');
      if (contract[channel].request.safeParse(payload).success) continue; // a random hit on a valid request
      malformed++;
      expect(result, `${channel} #${i}: ${JSON.stringify(payload)?.slice(0, 200)}`).toMatchObject({
        ok: false,
        error: { code: 'invalid_request', message: expect.any(String) },
      });
    }
    expect(malformed).toBeGreaterThanOrEqual(PER_CHANNEL * 0.8);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers unknown and odd channel names with invalid_request', async () => {
    const r = rng(99);
    for (let i = 0; i < 200; i++) {
      const name = r.pick([
        ...weirdStrings,
        'app:',
        ':info',
        'app:info ',
        'APP:INFO',
        'hasOwnProperty',
        'constructor',
      ]);
      const result = await desk.handle(name, {});
      expect(result).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    for (const odd of [undefined, null, 42, {}, ['app:info']]) {
      expect(await desk.handle(odd as unknown as string, {})).toMatchObject({
        ok: false,
        error: { code: 'invalid_request' },
      });
    }
  });

  it('keeps answering valid requests afterwards', async () => {
    expect(await desk.handle('app:info', {})).toMatchObject({ ok: true, value: { version: '0' } });
    const list = await desk.handle('workspaces:list', {});
    expect(list.ok).toBe(true);
    const created = await desk.handle('workspaces:create', {
      name: 'After fuzz',
      baseUrl: 'http://127.0.0.1:9/v0',
      apiKey: 'k',
    });
    expect(created).toMatchObject({ ok: true, value: { name: 'After fuzz' } });
  });
});
