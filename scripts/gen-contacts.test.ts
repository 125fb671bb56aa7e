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
