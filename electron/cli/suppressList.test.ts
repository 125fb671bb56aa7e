// `clean --suppress` and `--workspace`, as the operator runs them: the CLI as a child process, a
// do-not-call file as CSV (Windows-1252, semicolons, national numbers) and as .xlsx, and an app
// data folder whose workspace and shared lists hold more numbers.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xlsxBytes } from '../../shared/testing/xlsxWriter.ts';
import { openDbClient } from '../services/db/client.ts';

const cli = fileURLToPath(new URL('./main.ts', import.meta.url));
let dir = '';
const run = (args: string[]) => {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: dir, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const contacts = () => {
  const path = join(dir, 'contacts.csv');
  const rows = Array.from({ length: 10 }, (_, i) => `+91 98765 0000${i},Customer ${i}`);
  writeFileSync(path, `Mobile Number,Name\n${rows.join('\n')}\n`);
  return path;
};
const outputs = (name: string) => ({
  out: join(dir, `${name}-upload.csv`),
  rejects: join(dir, `${name}-rejects.csv`),
  report: join(dir, `${name}-report.json`),
});
const cleanArgs = (o: ReturnType<typeof outputs>) => [
  'clean',
  contacts(),
  '--country',
  'IN',
  '--out',
  o.out,
  '--rejects',
  o.rejects,
  '--report',
  o.report,
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'desk-cli-suppress-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('clean --suppress', () => {
  it('holds back the numbers of a CSV do-not-call file (legacy encoding, semicolons, national numbers), counted per reason', () => {
    const dnc = join(dir, 'dnc.csv');
    // "Café" in Windows-1252: the engine decodes it as it would a contact list.
    writeFileSync(
      dnc,
      Buffer.from(
        'Phone;Note;reason\r\n9876500001;Caf\xe9;complaint\r\n098765 00004;x;\r\n12345;bad;manual\r\n',
        'latin1',
      ),
    );
    const o = outputs('csv');
    const r = run([...cleanArgs(o), '--suppress', dnc]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2 held back (do-not-call): complaint 1, imported 1');
    const upload = readFileSync(o.out, 'utf8');
    expect(upload).not.toContain('+919876500001');
    expect(upload).not.toContain('+919876500004');
    expect(upload.trim().split('\n')).toHaveLength(9);
    const report = JSON.parse(readFileSync(o.report, 'utf8')) as { suppressed: unknown };
    expect(report.suppressed).toEqual({ total: 2, by_reason: { complaint: 1, imported: 1 } });
  });

  it('reads an .xlsx do-not-call file', () => {
    const dnc = join(dir, 'dnc.xlsx');
    writeFileSync(
      dnc,
      xlsxBytes({
        sheets: [
          {
            name: 'DNC',
            rows: [
              ['Mobile Number', 'reason'],
              ['+919876500007', 'opted_out'],
            ],
          },
        ],
      }),
    );
    const o = outputs('xlsx');
    const r = run([...cleanArgs(o), '--suppress', dnc]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 held back (do-not-call): opted_out 1');
    expect(readFileSync(o.out, 'utf8')).not.toContain('+919876500007');
  });

  it("applies a workspace's list and the shared list from the data folder with --workspace", async () => {
    const data = join(dir, 'data');
    const db = await openDbClient({ file: join(data, 'campaign-desk.sqlite'), readLane: false });
    try {
      for (const [id, name] of [
        ['w1', 'Production'],
        ['w2', 'Other'],
      ] as const)
        await db.call('workspaces.insert', {
          id,
          name,
          baseUrl: 'https://api.example.com/v0',
          isSandbox: false,
          secretStorage: 'keychain',
        });
      const entry = (e164: number) => ({
        e164,
        reason: 'opted_out' as const,
        sources: [],
        addedBy: 't',
        addedAt: '2026-11-01T00:00:00.000Z',
        expiresAt: null,
      });
      await db.call('suppression.add', { workspaceId: 'w1', entries: [entry(919876500002)] });
      await db.call('suppression.add', { workspaceId: '', entries: [entry(919876500003)] });
      await db.call('suppression.add', { workspaceId: 'w2', entries: [entry(919876500005)] });
    } finally {
      await db.close();
    }
    const o = outputs('ws');
    const r = run([...cleanArgs(o), '--workspace', 'production', '--data', data]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2 held back (do-not-call): opted_out 2');
    const upload = readFileSync(o.out, 'utf8');
    expect(upload).not.toContain('+919876500002');
    expect(upload).not.toContain('+919876500003');
    expect(upload).toContain('+919876500005');

    const missing = run([...cleanArgs(outputs('missing')), '--workspace', 'Nope', '--data', data]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(`campaign-desk: no workspace named "Nope" in ${data}`);
    const alone = run([...cleanArgs(outputs('alone')), '--workspace', 'Production']);
    expect(alone.code).toBe(2);
  });
});
