// The generator's contact files (shared/testing/contactsGenerator.ts), made once and reused.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generateContactChunks } from '../../shared/testing/contactsGenerator.ts';
import type { GeneratorOptions } from '../../shared/testing/contactsGenerator.ts';

export type FileOptions = Omit<GeneratorOptions, 'rows' | 'seed'>;

const suffix = (o: FileOptions): string =>
  (o.bom ? '-bom' : '') +
  (o.crlf ? '-crlf' : '') +
  (o.encoding && o.encoding !== 'utf-8' ? `-${o.encoding}` : '') +
  (o.delimiter && o.delimiter !== ',' ? `-d${o.delimiter.charCodeAt(0)}` : '');

/** Where ensureContactsFile keeps a file ("gen" names this generator's files apart from older ones). */
export const contactsFilePath = (
  rows: number,
  seed: number,
  dir: string,
  options: FileOptions = {},
): string => join(dir, `gen-contacts-${rows}-${seed}${suffix(options)}.csv`);

/** Path of `<rows>` rows with `seed` in `dir`, generated (atomically) when missing. */
export function ensureContactsFile(
  rows: number,
  seed: number,
  dir: string,
  options: FileOptions = {},
): string {
  const path = contactsFilePath(rows, seed, dir, options);
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w');
  try {
    for (const chunk of generateContactChunks({ rows, seed, ...options })) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  return path;
}
