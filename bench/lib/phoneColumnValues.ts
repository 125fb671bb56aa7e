// The raw phone cells of a CSV file, found the way the engine finds them (same decoding, delimiter,
// phone column and parser), for checks that need every number.
import { readFileSync } from 'node:fs';
import { eachRecord, sniff } from '../../shared/domain/contacts/index.ts';
import type { CountryCode } from 'libphonenumber-js/max';

export function phoneColumnValues(
  path: string,
  country = 'IN',
): { raws: string[]; country: CountryCode; column: string } {
  const bytes = new Uint8Array(readFileSync(path));
  const sniffed = sniff(bytes, true, { country });
  const { setup } = sniffed;
  const raws: string[] = [];
  eachRecord(sniffed.rest, setup.delimiter, setup.newline, false, (cells) => {
    if (cells.length === 1 && cells[0] === '') return; // blank line
    raws.push(cells[setup.phoneIndex] ?? '');
  });
  return { raws, country: setup.country, column: setup.header[setup.phoneIndex] ?? '' };
}
