// The fast path's agreement with libphonenumber-js max on a 100k-row sample of the generator's
// file (the bench checks all 1M numbers: npm run verify:phones).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureContactsFile } from './contactsFile.ts';
import { checkPhoneAgreement, combineAgreement } from './phoneAgreement.ts';
import { phoneColumnValues } from './phoneColumnValues.ts';

const dir = mkdtempSync(join(tmpdir(), 'phones-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('phone fast path vs libphonenumber-js max', () => {
  it('agrees on every number of a 100k-row generated file (seed 42), mostly without the library', () => {
    const { raws, country, column } = phoneColumnValues(ensureContactsFile(100_000, 42, dir));
    expect([raws.length, country, column]).toEqual([100_000, 'IN', 'Mobile Number']);
    const result = checkPhoneAgreement(raws, country);
    expect(result.disagreements).toEqual([]);
    expect(result.disagreementCount).toBe(0);
    expect(result.checked).toBe(100_000);
    expect(result.valid).toBeGreaterThan(85_000);
    expect(result.fastPath / result.checked).toBeGreaterThan(0.95);
  }, 60_000);

  it('counts and lists disagreements (the check can fail)', () => {
    const result = checkPhoneAgreement(['9876543210'], 'IN');
    const broken = combineAgreement([
      result,
      { ...result, disagreementCount: 1, disagreements: [{ raw: 'x', engine: '+1', library: null }] },
    ]);
    expect(broken).toMatchObject({
      checked: 2,
      disagreementCount: 1,
      disagreements: [{ raw: 'x', engine: '+1', library: null }],
    });
  });
});
