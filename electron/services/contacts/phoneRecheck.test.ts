// Apply-a-country-to-all reads only each row's phone again (createPhoneRecheck): on the generator's
// messy rows, plus a quote never closed, its answer must be what checking the whole row gives.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineSetup } from '../../../shared/domain/contacts/index.ts';
import { resolveDefaultCountry } from '../../../shared/domain/phone/index.ts';
import { openDbClient } from '../db/client.ts';
import { phoneRechecked, revalidated } from './revalidate.ts';
import { tempDirs } from '../db/testing.ts';
import { silentLogger } from '../logging/logger.ts';
import { createContactsService } from './contactsService.ts';
import { ISSUE_BITS } from '../db/migrations/0130-contacts-formula-bidi-codes.ts';
import type { StoredRow } from './rowState.ts';
import { generate, importThroughService } from './testing.ts';

const dirs = tempDirs('desk-recheck-');
afterEach(() => dirs.cleanup());

const NUMBER_COLUMNS = ['e164', 'bucket', 'issues', 'reasons', 'duplicate_of'] as const;
const numbersOf = (r: Pick<StoredRow, (typeof NUMBER_COLUMNS)[number]>) =>
  Object.fromEntries(NUMBER_COLUMNS.map((c) => [c, r[c]]));

/** The generator's rows, a short row (no Notes cell), and last a row whose Notes opens a quote that never closes. */
function messyFile(country: 'IN' | 'US'): Uint8Array {
  const text = new TextDecoder().decode(generate(3000, country === 'IN' ? 11 : 12).bytes);
  return new TextEncoder().encode(
    `${text}X-0,Ravi,2015550199,Pune,250,2026-01-01,hi,b@example.com\nX-1,Asha,2015550123,Pune,,2026-01-01,hi,a@example.com,"starts a quote and never ends\n`,
  );
}

async function storedRows(country: 'IN' | 'US') {
  const dir = dirs.make();
  const file = join(dir, 'campaign-desk.sqlite');
  const db = await openDbClient({ file });
  const service = createContactsService({ db, logger: silentLogger, dataDir: dir });
  const { list } = await importThroughService(service, messyFile(country), {
    country,
    variables: [
      { variable: 'name', column: 'Name', optional: false },
      { variable: 'amount', column: 'Loan Amount', optional: false },
    ],
  });
  await service.settle();
  await db.close();
  const raw = new Database(file, { readonly: true });
  const setup = JSON.parse(
    (raw.prepare(`SELECT setup FROM contact_lists WHERE id = ?`).get(list.id) as { setup: string }).setup,
  ) as EngineSetup;
  const rows = raw
    .prepare(`SELECT * FROM contacts WHERE list_id = ? ORDER BY row`)
    .all(list.id) as StoredRow[];
  return { raw, setup, rows };
}

describe('reading only the phone again (apply a country to all)', () => {
  it('gives what checking the whole row gives, for rows of every kind and several countries', async () => {
    const seen = { same: 0, whole: 0, invalidNow: 0, validNow: 0, quote: 0, ragged: 0, variables: 0 };
    const mismatches: string[] = [];
    for (const [imported, targets] of [
      ['IN', ['US', 'GB', 'AE', 'IN']],
      ['US', ['IN', 'CA']],
    ] as const) {
      const { raw, setup, rows } = await storedRows(imported);
      try {
        for (const country of targets) {
          const resolved = resolveDefaultCountry(country)!;
          const target = { ...setup, country: resolved.country, callingCode: resolved.callingCode };
          for (const row of rows) {
            const quick = phoneRechecked(row, target);
            if (!quick) {
              seen.whole++;
              continue;
            }
            const whole = revalidated(raw, row, null, target, false);
            if (JSON.stringify(numbersOf(quick)) !== JSON.stringify(numbersOf(whole)))
              mismatches.push(`${imported}→${country} row ${row.row}: ${JSON.stringify([quick, whole])}`);
            seen.same++;
            const wasInvalid = (row.issues & ISSUE_BITS.phone_invalid) !== 0;
            const isInvalid = (quick.issues & ISSUE_BITS.phone_invalid) !== 0;
            if (!wasInvalid && isInvalid) seen.invalidNow++;
            if (wasInvalid && !isInvalid) seen.validNow++;
            if (row.issues & ISSUE_BITS.quote_unbalanced) seen.quote++;
            if (row.issues & ISSUE_BITS.row_ragged) seen.ragged++;
            if (row.issues & ISSUE_BITS.variable_missing) seen.variables++;
          }
        }
      } finally {
        raw.close();
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // Every kind of row was compared: numbers that became invalid and valid, a quote never
    // closed, short rows, missing variables; phones whose text alone decides went the whole way.
    for (const kind of ['invalidNow', 'validNow', 'quote', 'ragged', 'variables', 'whole'] as const)
      expect(seen[kind], kind).toBeGreaterThan(0);
    expect(seen.same).toBeGreaterThan(15_000);
  });
});
