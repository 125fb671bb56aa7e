// cleanFile with real files and real worker threads (coordinator + block workers).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureContactsFile } from '../../../../bench/lib/contactsFile.ts';
import { cleanInMemory } from '../../../../shared/domain/contacts/index.ts';
import type { CleanChoices, Progress } from '../../../../shared/domain/contacts/index.ts';
import { DeskFailure } from '../../../../shared/ipc/result.ts';
import { generateContacts } from '../../../../shared/testing/contactsGenerator.ts';
import { expectedClean } from '../../../../shared/testing/contactsTruth.ts';
import { cleanFile } from './cleanFile.ts';

let dir = '';
let file = '';
const choices: CleanChoices = {
  country: 'IN',
  map: [
    ['callee_name', 'Name'],
    ['loan_amount', 'Loan Amount'],
    ['due_date', 'Due Date'],
  ],
  optional: ['due_date'],
};
/** The columns of the required (non-optional) variables above. */
const REQUIRED = ['Name', 'Loan Amount'];
const outputs = (name: string) => ({
  out: join(dir, `${name}-upload.csv`),
  rejects: join(dir, `${name}-rejects.csv`),
  report: join(dir, `${name}-report.json`),
});
const failureOf = async (run: Promise<unknown>): Promise<DeskFailure> => {
  try {
    await run;
  } catch (error) {
    if (error instanceof DeskFailure) return error;
    throw error;
  }
  throw new Error('expected a DeskFailure');
};
const leftovers = (): string[] => readdirSync(dir).filter((f) => f.endsWith('.tmp'));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'clean-file-'));
  file = ensureContactsFile(20_000, 42, dir); // the generator's messy file, 2 MB
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cleanFile (worker threads, files on disk)', () => {
  it('writes the same files as the in-process engine, for 1, 2 and 3 workers', async () => {
    const reference = await cleanInMemory(new Uint8Array(readFileSync(file)), choices);
    for (const workers of [1, 2, 3]) {
      const paths = outputs(`w${workers}`);
      const report = await cleanFile({ path: file, ...choices, ...paths, workers, blockBytes: 64 * 1024 });
      expect(readFileSync(paths.out, 'utf8')).toBe(reference.upload);
      expect(readFileSync(paths.rejects, 'utf8')).toBe(reference.rejects);
      const written = JSON.parse(readFileSync(paths.report, 'utf8')) as typeof report;
      expect(written).toEqual(report);
      expect(report).toMatchObject({
        rows: 20_000,
        valid: reference.report.valid,
        invalid: reference.report.invalid,
        duplicates: reference.report.duplicates,
        split: { workers, mode: 'parallel', reason: null },
        input: { file, bytes: readFileSync(file).length },
      });
      expect(report.rows).toBe(report.valid + report.invalid + report.duplicates);
    }
    // And what the generator meant, counted by the rules (variables mapped: see `choices`).
    const expected = expectedClean(generateContacts({ rows: 20_000, seed: 42 }).truth, {
      required: REQUIRED,
    });
    expect(reference.report).toMatchObject({
      rows: expected.rows,
      valid: expected.valid,
      invalid: expected.invalid,
      duplicates: expected.duplicates,
    });
    expect(Object.fromEntries(Object.entries(reference.report.issues).filter(([, n]) => n > 0))).toEqual(
      expected.issues,
    );
    expect(leftovers()).toEqual([]);
  });

  it('reads the Excel-style export (UTF-8 BOM, CRLF) of the same data to the same files', async () => {
    const excel = ensureContactsFile(20_000, 42, dir, { bom: true, crlf: true });
    const plain = outputs('plain');
    const bomCrlf = outputs('bom-crlf');
    await cleanFile({ path: file, ...choices, ...plain });
    const report = await cleanFile({ path: excel, ...choices, ...bomCrlf });
    expect(report).toMatchObject({
      encoding: 'utf-8',
      encoding_source: 'bom',
      newline: 'crlf',
      rows: 20_000,
    });
    expect(report.header[0]).toBe('Customer ID');
    expect(readFileSync(bomCrlf.out, 'utf8')).toBe(readFileSync(plain.out, 'utf8'));
    expect(readFileSync(bomCrlf.rejects, 'utf8')).toBe(readFileSync(plain.rejects, 'utf8'));
  });

  it('reports progress: rows and bytes grow, with a rate and an ETA', async () => {
    const seen: Progress[] = [];
    await cleanFile({ path: file, ...choices, ...outputs('progress'), onProgress: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThan(0);
    const last = seen[seen.length - 1] as Progress;
    expect(last.rows).toBe(20_000);
    expect(last.totalBytes).toBe(readFileSync(file).length);
    expect(last.rowsPerSecond).toBeGreaterThan(0);
    for (let i = 1; i < seen.length; i++)
      expect((seen[i] as Progress).rows).toBeGreaterThanOrEqual((seen[i - 1] as Progress).rows);
  });

  it('cancel stops the run and leaves no file behind', async () => {
    const abort = new AbortController();
    const paths = outputs('cancelled');
    // A file ten times longer than the others, so the run is still under way when the cancel
    // message reaches the coordinator even on a loaded machine.
    const big = ensureContactsFile(200_000, 7, dir);
    const run = cleanFile({
      path: big,
      ...choices,
      ...paths,
      signal: abort.signal,
      blockBytes: 16 * 1024,
      onProgress: () => abort.abort(), // as soon as it is under way
    });
    const failure = await failureOf(run);
    expect(failure.code).toBe('cancelled');
    expect([existsSync(paths.out), existsSync(paths.rejects), existsSync(paths.report)]).toEqual([
      false,
      false,
      false,
    ]);
    expect(leftovers()).toEqual([]);
  });

  it('a file that cannot be cleaned leaves no output and keeps an older one untouched', async () => {
    const bad = join(dir, 'no-phone.csv');
    writeFileSync(bad, 'Name,City\nRahul,Pune\n');
    const paths = outputs('bad');
    writeFileSync(paths.out, 'previous upload');
    const failure = await failureOf(cleanFile({ path: bad, country: 'IN', ...paths }));
    expect(failure).toMatchObject({ code: 'file_error', field: 'phoneColumn' });
    expect(failure.message).toMatch(/^.*no-phone\.csv: no phone column among the headers \("Name", "City"\)/);
    expect(readFileSync(paths.out, 'utf8')).toBe('previous upload');
    expect([existsSync(paths.rejects), existsSync(paths.report)]).toEqual([false, false]);
    expect(leftovers()).toEqual([]);
  });

  it('says what is wrong with the input path or the outputs', async () => {
    const paths = outputs('paths');
    expect(
      await failureOf(cleanFile({ path: join(dir, 'missing.csv'), country: 'IN', ...paths })),
    ).toMatchObject({
      code: 'file_error',
      message: `${join(dir, 'missing.csv')}: file not found`,
    });
    expect((await failureOf(cleanFile({ path: dir, country: 'IN', ...paths }))).message).toMatch(
      /is a folder, not a CSV file$/,
    );
    expect(await failureOf(cleanFile({ path: file, country: 'IN', ...paths, out: file }))).toMatchObject({
      code: 'invalid_request',
      message: `${file}: an output file cannot be the input file`,
    });
    expect((await failureOf(cleanFile({ path: file, country: 'XX', ...paths }))).code).toBe(
      'invalid_request',
    );
  });
});
