import { describe, expect, it } from 'vitest';
import { createRng } from './rng.ts';

describe('rng.uuid', () => {
  it('produces RFC 4122 version-4 shaped ids, deterministic per seed', () => {
    const a = createRng(7);
    const b = createRng(7);
    const shape = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (let i = 0; i < 2000; i++) {
      const id = a.uuid();
      expect(id).toMatch(shape);
      expect(b.uuid()).toBe(id);
    }
  });
});
