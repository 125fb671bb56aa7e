import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateContacts } from '../shared/testing/contactsGenerator.ts';

const script = fileURLToPath(new URL('./gen-contacts.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'gen-contacts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (args: string[]) =>
  spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('scripts/gen-contacts.ts', () => {
  it('writes the generator’s file and its truth (one JSON line per row), atomically', () => {
    const out = join(dir, 'c.csv');
    const truth = join(dir, 'c.jsonl');
    const r = run(['2000', '42', out, '--bom', '--crlf', '--truth', truth]);
    expect([r.status, r.stderr.trim()]).toEqual([0, `wrote 2000 rows to ${out}`]);
    const expected = generateContacts({ rows: 2000, seed: '42', bom: true, crlf: true });
    expect(readFileSync(out).equals(Buffer.from(expected.bytes))).toBe(true);
    const lines = readFileSync(truth, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(expected.truth);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('writes the shapes of files from elsewhere: legacy encodings, titles, a stray header quote, lone LFs', () => {
    const out = join(dir, 'shapes.csv');
    const r = run([
      '300',
      '7',
      out,
      '--encoding',
      'big5',
      '--crlf',
      '--lone-lf',
      '--stray-quote-header',
      '--title',
      'Customer list, April 2026',
      '--title',
      'Source: loan book',
    ]);
    expect(r.status).toBe(0);
    const expected = generateContacts({
      rows: 300,
      seed: '7',
      encoding: 'big5',
      crlf: true,
      loneLf: true,
      strayQuoteHeader: true,
      title: ['Customer list, April 2026', 'Source: loan book'],
    });
    expect(readFileSync(out).equals(Buffer.from(expected.bytes))).toBe(true);
    expect(expected.truth[0]?.row).toBe(4);
  });

  it('says how to use it, exit 2, for bad arguments', () => {
    for (const args of [
      [],
      ['ten', '1', 'x.csv'],
      ['10', '1', 'x.csv', '--encoding', 'latin9'],
      ['10', '1', 'x.csv', '--nope'],
    ]) {
      const r = run(args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/usage: node scripts\/gen-contacts\.ts <rows> <seed> <out\.csv>/);
    }
  });
});
