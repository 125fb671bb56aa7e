// A stored row checked again with the engine's rules: the whole row (createRowRevalidator) after an
// edit or a new country, or its phone alone (createPhoneRecheck) when that decides it.
import {
  BUCKET,
  bucketOf,
  createPhoneRecheck,
  createRowRevalidator,
  ISSUE,
  REASON_SEPARATOR,
  withDuplicateReason,
} from '../../../shared/domain/contacts/index.ts';
import type { EngineSetup } from '../../../shared/domain/contacts/index.ts';
import { phoneText, resolveDefaultCountry } from '../../../shared/domain/phone/index.ts';
import type { Db } from '../db/define.ts';
import { prepared } from '../db/define.ts';
import { cellsJson } from '../db/storedCells.ts';
import { e164Digits, flagsOf, issueBits, ownReasons } from './rowState.ts';
import type { StoredRow } from './rowState.ts';

/**
 * One `make(setup)` per setup, of the last eight: compiling the phone fast path is worth caching.
 * A bulk change passes the same setup object for every row (the key's JSON is skipped then), or an
 * equal one per chunk.
 */
function perSetup<T>(make: (setup: EngineSetup) => T): (setup: EngineSetup) => T {
  const byKey = new Map<string, T>();
  const byObject = new WeakMap<EngineSetup, T>();
  return (setup) => {
    const known = byObject.get(setup);
    if (known) return known;
    const key = JSON.stringify(setup);
    let made = byKey.get(key);
    if (!made) {
      const oldest = byKey.keys().next();
      if (byKey.size >= 8 && !oldest.done) byKey.delete(oldest.value);
      made = make(setup);
      byKey.set(key, made);
    }
    byObject.set(setup, made);
    return made;
  };
}
const revalidatorFor = perSetup(createRowRevalidator);
const phoneRecheckFor = perSetup(createPhoneRecheck);

/** The list's setup for a row with its own country (set by applying a country to invalid numbers). */
export function setupWithCountry(setup: EngineSetup, country: string | null): EngineSetup {
  if (country === null) return setup;
  const resolved = resolveDefaultCountry(country);
  return resolved ? { ...setup, country: resolved.country, callingCode: resolved.callingCode } : setup;
}

/** A number that carries its own country code ("+1 …", "0044 …") ignores the default country. */
export const hasCountryCode = (raw: string): boolean => {
  const text = phoneText(raw);
  return text.startsWith('+') || text.startsWith('00');
};

/** The smallest row other than `row` whose valid phone is `digits`, or 0. */
const earliestWith = (db: Db, listId: number, digits: number, row: number): number =>
  prepared<[number, number, number], { first: number | null }>(
    db,
    `SELECT min(row) AS first FROM contact_numbers WHERE list_id = ? AND e164 = ? AND row != ?`,
  ).get(listId, digits, row)?.first ?? 0;

/**
 * Checks `cells` (null: the row's own, kept as stored) again with the engine's rules (for the
 * row's effective setup); duplicate_of as the revalidator decides it, or 0 when duplicates are left
 * to a later pass. How the file was read (quote_unbalanced) is not in the cells: it stays unless
 * the operator edited the row (`edited`).
 */
export function revalidated(
  db: Db,
  before: StoredRow,
  newCells: string[] | null,
  setup: EngineSetup,
  withDuplicates: boolean,
  edited = false,
): StoredRow {
  const revalidate = revalidatorFor(setup);
  const cells = newCells ?? cellsJson(before.cells);
  const outcome = revalidate(cells, before.row, (e164) =>
    withDuplicates ? earliestWith(db, before.list_id, Number(e164.slice(1)), before.row) : 0,
  );
  let flags = 0;
  for (const code of outcome.issues) if (code !== 'duplicate') flags |= ISSUE[code];
  let reasons = outcome.reasons;
  const quote = edited ? undefined : ownReasons(before.reasons).split(REASON_SEPARATOR)[0];
  if (quote?.startsWith('quote_unbalanced:')) {
    flags |= ISSUE.quote_unbalanced;
    reasons = withDuplicateReason(
      [quote, ownReasons(outcome.reasons)].filter((r) => r !== '').join(REASON_SEPARATOR),
      outcome.duplicateOf,
    );
  }
  return {
    ...before,
    cells: newCells === null ? before.cells : JSON.stringify(newCells),
    phone_raw: outcome.phoneRaw,
    e164: e164Digits(outcome.e164),
    bucket: BUCKET[bucketOf(flags, outcome.duplicateOf)],
    issues: issueBits(flags, outcome.duplicateOf),
    reasons,
    duplicate_of: outcome.duplicateOf,
  };
}

/**
 * The row with its phone alone read again for `setup`'s country (createPhoneRecheck: the other
 * cells' issues stay as stored), duplicates left to a later pass; null when the whole row must be
 * checked (revalidated).
 */
export function phoneRechecked(
  before: Pick<StoredRow, 'phone_raw' | 'issues' | 'reasons'>,
  setup: EngineSetup,
): Pick<StoredRow, 'e164' | 'bucket' | 'issues' | 'reasons' | 'duplicate_of'> | null {
  const r = phoneRecheckFor(setup)(before.phone_raw, flagsOf(before.issues), ownReasons(before.reasons));
  if (!r) return null;
  return {
    e164: e164Digits(r.e164),
    bucket: BUCKET[bucketOf(r.flags, 0)],
    issues: issueBits(r.flags, 0),
    reasons: r.reasons,
    duplicate_of: 0,
  };
}
