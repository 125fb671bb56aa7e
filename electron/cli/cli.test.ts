// The CLI end to end, as a child process: exit codes, one-line errors, files and report.
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ensureContactsFile } from '../../bench/lib/contactsFile.ts';
import { generateContacts } from '../../shared/testing/contactsGenerator.ts';
import { expectedClean } from '../../shared/testing/contactsTruth.ts';
import { cleanReportSchema, parseRecords } from '../../shared/domain/contacts/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'electron', 'cli', 'main.ts');
const bin = join(root, 'bin', 'campaign-desk.mjs');
let dir = '';
let messy = '';

const run = (args: string[], script = cli) => {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', cwd: dir, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
/** A fresh folder per case, so "no file left behind" can be checked by listing it. */
const outDir = (name: string): string => {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  return d;
};
const outArgs = (d: string) => [
  '--out',
  join(d, 'upload.csv'),
  '--rejects',
  join(d, 'rejects.csv'),
  '--report',
  join(d, 'report.json'),
];
const write = (name: string, content: string | Uint8Array): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const nonZero = (counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
const oneLine = (stderr: string): string => {
  const lines = stderr.split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  return lines[0] as string;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-'));
  messy = ensureContactsFile(10_000, 42, dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('campaign-desk clean', () => {
  it("cleans the generator's 10k-row messy file: exit 0, the three files, a valid report", () => {
    const d = outDir('messy');
    const r = run([
      'clean',
      messy,
      '--country',
      'IN',
      '--map',
      'callee_name=Name',
      '--map',
      'loan_amount=Loan Amount',
      '--map',
      'due_date',
      '--optional',
      'due_date',
      ...outArgs(d),
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = cleanReportSchema.parse(JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')));
    expect(report).toMatchObject({
      rows: 10_000,
      encoding: 'utf-8',
      delimiter: ',',
      phone_column: 'Mobile Number',
    });
    expect(report.rows).toBe(report.valid + report.invalid + report.duplicates);
    // The generator's intent, counted by the rules: Name and Loan Amount are required.
    const expected = expectedClean(generateContacts({ rows: 10_000, seed: 42 }).truth, {
      required: ['Name', 'Loan Amount'],
    });
    expect({ ...report, issues: nonZero(report.issues) }).toMatchObject({
      valid: expected.valid,
      invalid: expected.invalid,
      duplicates: expected.duplicates,
      issues: expected.issues,
    });
    expect(r.stdout).toContain(`10,000 rows → ${report.valid.toLocaleString('en-US')} valid`);
    // Issue 22: the generator's formula names and notes, and its bidi phones, are said.
    expect([report.issues.formula_cell > 0, report.issues.phone_bidi_control > 0]).toEqual([true, true]);
    expect(r.stdout).toContain(
      `warning: ${report.issues.formula_cell.toLocaleString('en-US')} rows have cells a spreadsheet would run as formulas`,
    );
    expect(r.stdout).toContain(
      `warning: ${report.issues.phone_bidi_control.toLocaleString('en-US')} numbers hold bidi controls that disguise their digits (rejected)`,
    );
    const upload = parseRecords(readFileSync(join(d, 'upload.csv'), 'utf8'), ',', '\n');
    const rejects = parseRecords(readFileSync(join(d, 'rejects.csv'), 'utf8'), ',', '\n');
    expect(upload[0]).toEqual(['Mobile Number', 'Name', 'Loan Amount', 'Due Date']);
    expect(upload).toHaveLength(report.valid + 1);
    expect(upload.slice(1).every((row) => /^\+\d{8,15}$/.test(row[0] as string))).toBe(true);
    // No uploaded cell starts a formula (the generator's "=HYPERLINK(…)", "@SUM(1+1)", "\t=2+2", "-nothing-").
    expect(
      upload
        .slice(1)
        .flatMap((row) => row.slice(1))
        .filter((c) => /^[=+@-]/.test(c)),
    ).toEqual([]);
    expect(rejects[0]?.slice(0, 3)).toEqual(['Row', 'Reasons', 'Customer ID']);
    expect(rejects).toHaveLength(report.invalid + report.duplicates + 1);
    expect(readdirSync(d).sort()).toEqual(['rejects.csv', 'report.json', 'upload.csv']);
  });

  // What detection chose on ambiguous files (issue 25) is printed: a line per decision.
  it('notes the header found below a title line, and the delimiter under it', () => {
    const titled = write(
      'titled.csv',
      'Collections report, March 2026, Pune\nName;Phone;City\nAsha;9876543210;Pune\n',
    );
    const r = run(['clean', titled, '--country', 'IN', ...outArgs(outDir('titled'))]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('read as utf-8, delimiter ";"');
    expect(r.stdout).toContain(
      'note: header on row 2: skipped a line above it that looks like a title or note (fewer filled cells): "Collections report, March 2026, Pune"',
    );
  });

  it('notes the encoding detected and its confidence', () => {
    const big5 = write('big5.csv', generateContacts({ rows: 800, seed: 1, encoding: 'big5' }).bytes);
    const r = run(['clean', big5, '--country', 'IN', ...outArgs(outDir('big5'))]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /note: encoding not UTF-8: detected as Big5 \(Traditional Chinese\) \(confidence \d+%\)/,
    );
  });

  it('warns when the encoding is a guess of low confidence; --encoding settles it', () => {
    const cyrillic = write(
      'cp1251.csv',
      generateContacts({ rows: 800, seed: 1, encoding: 'windows-1251' }).bytes,
    );
    const d = outDir('cp1251');
    let r = run(['clean', cyrillic, '--country', 'IN', ...outArgs(d)]);
    expect(r.stdout).toMatch(
      /warning: encoding not UTF-8: detected as .+ with low confidence .+ \(or pass --encoding\)/,
    );
    r = run(['clean', cyrillic, '--country', 'IN', '--encoding', 'cp1251', ...outArgs(d)]);
    expect(r.stdout).toContain('read as windows-1251');
    expect(r.stdout).not.toContain('warning: encoding');
    expect(readFileSync(join(d, 'upload.csv'), 'utf8')).toMatch(/[А-я]{3}/);
  }, 120_000);

  it("the issue's unbalanced quote: all 20,000 rows after it counted, the row flagged with its line, exit 0", () => {
    const good = Array.from(
      { length: 20_000 },
      (_, i) => `+9198${String(10_000_000 + i).slice(-8)},Person ${i},x`,
    );
    const file = write(
      'stray-quote.csv',
      ['Mobile Number,Name,Notes', '+919876543210,Asha,"starts a quote and never ends', ...good].join('\n') +
        '\n',
    );
    const d = outDir('stray');
    const r = run(['clean', file, '--country', 'IN', ...outArgs(d)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('20,001 rows → 20,000 valid, 1 invalid, 0 duplicates');
    expect(r.stdout).toContain('warning: 1 rows with a quote that never closes');
    const report = cleanReportSchema.parse(JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')));
    expect(report).toMatchObject({ rows: 20_001, valid: 20_000, invalid: 1 });
    expect(report.issues.quote_unbalanced).toBe(1);
    expect(parseRecords(readFileSync(join(d, 'rejects.csv'), 'utf8'), ',', '\n')[1]).toEqual([
      '2',
      'quote_unbalanced:quote opened on line 2',
      "'+919876543210",
      'Asha',
      '"starts a quote and never ends',
    ]);
    const upload = parseRecords(readFileSync(join(d, 'upload.csv'), 'utf8'), ',', '\n');
    expect(upload).toHaveLength(20_001);
    expect(upload.every((row) => row.length === 3)).toBe(true); // nothing swallowed into one cell
  });

  it('repeated header names: reported, --phone-column refused until "#N" picks one, upload names unique', () => {
    const file = write(
      'repeated.csv',
      'Mobile Number,Name,Name,Mobile Number\n9876543210,Asha,A.,(206) 555-0123\n9876543211,Ravi,R.,\n',
    );
    const refused = run([
      'clean',
      file,
      '--country',
      'IN',
      '--phone-column',
      'Mobile Number',
      ...outArgs(outDir('rep-bad')),
    ]);
    expect(refused.code).toBe(2);
    expect(oneLine(refused.stderr)).toContain(
      'phone column "Mobile Number" names 2 columns (#1, #4); pick one by its position, e.g. "#4"',
    );
    expect(readdirSync(outDir('rep-bad'))).toEqual([]);

    const d = outDir('rep');
    const r = run(['clean', file, '--country', 'IN', '--phone-column', '#4', ...outArgs(d)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('warning: columns #1, #4 are all named "Mobile Number"');
    expect(r.stdout).toContain('warning: 1 numbers are valid only as landlines (uploaded)');
    const report = cleanReportSchema.parse(JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')));
    expect(report.duplicate_columns).toEqual([
      { name: 'Mobile Number', positions: [1, 4] },
      { name: 'Name', positions: [2, 3] },
    ]);
    expect(report).toMatchObject({ valid: 1, invalid: 1 });
    expect(report.issues).toMatchObject({ phone_landline: 1, phone_missing: 1 });
    const header = parseRecords(readFileSync(join(d, 'upload.csv'), 'utf8'), ',', '\n')[0] as string[];
    expect(header).toEqual(['Mobile Number', 'Mobile Number #1', 'Name', 'Name #3']);
    expect(new Set(header).size).toBe(header.length);
  });

  it('a later, otherwise valid row gets the number; the earlier invalid row points to it (rejects and report)', () => {
    const file = write(
      'late.csv',
      'Name,Mobile Number,Amount\nA,9876543210,\nB,+91 98765 43210,5\nC,09876543210,6\n',
    );
    const d = outDir('late');
    const r = run(['clean', file, '--country', 'IN', '--map', 'amount=Amount', ...outArgs(d)]);
    expect(r.code).toBe(0);
    const report = cleanReportSchema.parse(JSON.parse(readFileSync(join(d, 'report.json'), 'utf8')));
    expect(report).toMatchObject({ rows: 3, valid: 1, invalid: 1, duplicates: 1 });
    expect(report.issues).toMatchObject({ duplicate: 2, variable_missing: 1 });
    expect(readFileSync(join(d, 'upload.csv'), 'utf8')).toBe('Mobile Number,Amount\n+919876543210,5\n');
    expect(
      parseRecords(readFileSync(join(d, 'rejects.csv'), 'utf8'), ',', '\n').map((row) => row.slice(0, 2)),
    ).toEqual([
      ['Row', 'Reasons'],
      ['2', 'duplicate:row 3; variable_missing:Amount'],
      ['4', 'duplicate:row 3'],
    ]);
  });

  it('UTF-16 LE with a BOM and semicolons, decimal commas included', () => {
    const text = '\ufeffName;Mobile;Amount\nJosé;9876543210;1.234,50\nराहुल;+91 98765 43211;12,5\n';
    const bytes = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      bytes[i * 2] = text.charCodeAt(i) & 0xff;
      bytes[i * 2 + 1] = text.charCodeAt(i) >> 8;
    }
    const d = outDir('utf16');
    const r = run(['clean', write('utf16.csv', bytes), '--country', '+91', ...outArgs(d)]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(d, 'report.json'), 'utf8'))).toMatchObject({
      encoding: 'utf-16le',
      delimiter: ';',
      valid: 2,
    });
    expect(readFileSync(join(d, 'upload.csv'), 'utf8')).toBe(
      'Mobile Number,Name,Amount\n+919876543210,José,"1.234,50"\n+919876543211,राहुल,"12,5"\n',
    );
  });

  it('Windows-1252 with tabs and an explicit phone column and delimiter', () => {
    const bytes = Uint8Array.from('Name\tPhone\tAlt\nJosé\t9876543210\tx\nZoë\t12\ty\n', (c) =>
      c.charCodeAt(0),
    );
    const d = outDir('cp1252');
    const r = run([
      'clean',
      write('cp1252.csv', bytes),
      '--country',
      'IN',
      '--phone-column',
      'phone',
      '--delimiter',
      'tab',
      ...outArgs(d),
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(d, 'report.json'), 'utf8'))).toMatchObject({
      encoding: 'windows-1252',
      delimiter: '\t',
      delimiter_source: 'override',
      valid: 1,
      invalid: 1,
    });
    expect(readFileSync(join(d, 'rejects.csv'), 'utf8')).toBe(
      'Row,Reasons,Name,Phone,Alt\n3,phone_invalid,Zoë,12,y\n',
    );
  });

  it.each([
    ['missing', null, /^campaign-desk: .*missing\.csv: file not found$/, 1],
    ['empty', '', /^campaign-desk: .*empty\.csv: the file is empty$/, 1],
    [
      'workbook',
      Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0]),
      // A ZIP is read as a workbook (by content, not name): this one is cut short.
      /^campaign-desk: .*workbook\.csv: not a readable Excel workbook: the ZIP directory is missing/,
      1,
    ],
    [
      'binary',
      Uint8Array.from([0x4e, 0x61, 0, 0, 0x10, 0x11, 0x12, 0x0a]),
      /^campaign-desk: .*binary\.csv: not a CSV text file: it contains binary data$/,
      1,
    ],
    [
      'nophone',
      'Name,City\nRahul,Pune\n',
      /^campaign-desk: .*nophone\.csv: no phone column among the headers \("Name", "City"\).*; name it with --phone-column$/,
      1,
    ],
    [
      'headeronly',
      'Name,Mobile Number\n\n',
      /^campaign-desk: .*headeronly\.csv: the file has a header but no data rows$/,
      1,
    ],
  ])(
    '%s file: one line on stderr naming the file, exit 1, nothing written',
    (name, content, message, code) => {
      const path = content === null ? join(dir, `${name}.csv`) : write(`${name}.csv`, content);
      const d = outDir(`fail-${name}`);
      const r = run(['clean', path, '--country', 'IN', ...outArgs(d)]);
      expect(r.code).toBe(code);
      expect(oneLine(r.stderr)).toMatch(message);
      expect(r.stdout).toBe('');
      expect(readdirSync(d)).toEqual([]);
    },
  );

  it.each([
    [
      ['--country', 'IN', '--rejects', 'r.csv', '--report', 'p.json'],
      /clean: --out is required \(see campaign-desk clean --help\)$/,
    ],
    [['--out', 'u.csv', '--rejects', 'r.csv', '--report', 'p.json'], /clean: --country is required/],
    [['--country', 'IN', '--bogus', 'x'], /clean: Unknown option '--bogus'/],
    [
      ['--country', 'IN', '--encoding', 'ebcdic'],
      /--encoding must be utf-8, utf-16le, utf-16be, windows-1252 or another known encoding/,
    ],
    [['--country', 'Narnia'], /unknown country "Narnia"/],
    [
      ['--country', 'IN', '--map', 'amount=Amount'],
      /column for variable "amount" "Amount" is not a column of the file/,
    ],
  ])('bad usage %j: exit 2, one line', (args, message) => {
    const file = write('ok.csv', 'Name,Phone\nA,9876543210\n');
    const d = outDir(`usage-${readdirSync(dir).length}`);
    const all = args.includes('--rejects')
      ? ['clean', file, ...args]
      : ['clean', file, ...args, ...outArgs(d)];
    const r = run(all);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(message);
    expect(readdirSync(d)).toEqual([]);
    expect(['u.csv', 'r.csv', 'p.json'].filter((f) => existsSync(join(dir, f)))).toEqual([]);
  });

  it('an output that cannot be written: exit 1, one line naming it, nothing left behind', () => {
    const d = outDir('unwritable');
    const file = write('fine.csv', 'Name,Phone\nA,9876543210\n');
    const missing = join(d, 'no-such-folder', 'upload.csv');
    const r = run([
      'clean',
      file,
      '--country',
      'IN',
      '--out',
      missing,
      '--rejects',
      join(d, 'r.csv'),
      '--report',
      join(d, 'p.json'),
    ]);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toBe(`campaign-desk: ${missing}: cannot write it (its folder does not exist)`);
    expect(readdirSync(d)).toEqual([]);
  });

  it('Ctrl-C stops it: exit 130, no file left behind', async () => {
    const big = ensureContactsFile(100_000, 7, dir);
    const d = outDir('interrupted');
    const child = spawn(process.execPath, [cli, 'clean', big, '--country', 'IN', '--quiet', ...outArgs(d)], {
      cwd: dir,
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    // Interrupt once cleaning has begun (its temporary outputs exist), not after a fixed delay: a
    // loaded machine may not have installed the SIGINT handler yet, or may already be done.
    await vi.waitFor(() => expect(readdirSync(d).filter((f) => f.endsWith('.tmp'))).not.toEqual([]), {
      timeout: 20_000,
      interval: 5,
    });
    child.kill('SIGINT');
    const code = await closed;
    expect(code).toBe(130);
    expect(stderr).toBe('');
    expect(readdirSync(d)).toEqual([]);
  });
});

describe('campaign-desk commands and help', () => {
  it('prints usage', () => {
    const top = run(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/clean <file>.*\n.*sandbox.*\n.*web/);
    const clean = run(['clean', '--help']);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/^Usage: campaign-desk clean <file> --country <IN\|\+91>/);
    expect(run([]).code).toBe(2);
  });

  it('refuses an unknown command in one line', () => {
    const r = run(['frobnicate']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toBe(
      'campaign-desk: unknown command "frobnicate" (commands: clean, sandbox, web, agents, launch, sync, calls) (see campaign-desk --help)',
    );
  });

  it('launch: refuses two number sources, a bad window or a past start in one line, before any request', () => {
    const base = [
      'launch',
      'x.csv',
      '--data',
      'd',
      '--base-url',
      'http://127.0.0.1:9/v0',
      '--agent',
      'a',
      '--name',
      'n',
      '--country',
      'IN',
      '--start',
      '01/01/2030, 09:00',
      '--end',
      '02/01/2030, 09:00',
      '--timezone',
      'Asia/Kolkata',
    ];
    let r = run([...base, '--pool', 'p', '--from', '+919800000001']);
    expect([r.code, oneLine(r.stderr)]).toEqual([
      2,
      'campaign-desk launch: give exactly one number source: --pool <number_pool_id> or --from <number>... (see campaign-desk launch --help)',
    ]);
    r = run([...base, '--pool', 'p', '--window', '9-18']);
    expect([r.code, oneLine(r.stderr)]).toEqual([
      2,
      'campaign-desk launch: --window must be HH:MM-HH:MM such as 09:00-18:00 (got "9-18") (see campaign-desk launch --help)',
    ]);
    r = run([...base.map((a) => (a === '01/01/2030, 09:00' ? '01/01/2020, 09:00' : a)), '--pool', 'p']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/Start 01\/01\/2020, 09:00 \(Asia\/Kolkata\) is not in the future/);
  });

  it('hands sandbox and web to their own code', () => {
    const sandbox = run(['sandbox', '--help']);
    expect([sandbox.code, sandbox.stdout.split('\n')[0]]).toEqual([
      0,
      'Usage: campaign-desk sandbox --api-key <key> [--bearer <token>] [--data <dir>] [--seed <n>]',
    ]);
    const web = run(['web', '--help']);
    expect(web.code).toBe(0);
    expect(web.stdout).toMatch(/--no-open/);
  });

  it('sandbox starts on 127.0.0.1, prints its address, answers, and stops on Ctrl-C', async () => {
    const child = spawn(process.execPath, [cli, 'sandbox', '--api-key', 'test-key'], { cwd: dir });
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address printed: ${stdout}`)), 20_000);
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        const m = /^sandbox listening on (http:\/\/127\.0\.0\.1:\d+\/v0)\n$/.exec(stdout);
        if (m) {
          clearTimeout(timer);
          resolve(m[1] as string);
        }
      });
    });
    const answer = await fetch(`${url}/workspace`, { headers: { 'X-API-KEY': 'test-key' } });
    expect(answer.status).toBe(200);
    child.kill('SIGINT');
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
  });

  it('the bin shim runs the same CLI', () => {
    const r = run(['--help'], bin);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: campaign-desk <command>/);
  });

  const oldNode = ['/usr/bin/node', '/usr/local/bin/node'].find((p) => {
    if (!existsSync(p)) return false;
    const [major = 0, minor = 0] = spawnSync(p, ['-p', 'process.versions.node'], { encoding: 'utf8' })
      .stdout.trim()
      .split('.')
      .map(Number);
    return major < 22 || (major === 22 && minor < 18);
  });
  it.runIf(oldNode)("on an older Node the bin shim re-runs itself on the project's pinned Node", () => {
    const r = spawnSync(oldNode as string, [bin, '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: campaign-desk <command>/);
  });
  it.runIf(oldNode)('without a pinned Node the bin shim says clearly that Node is too old', () => {
    // A copy of the shim with no node_modules/ beside it: nothing to re-run on.
    const lonely = join(mkdtempSync(join(tmpdir(), 'desk-bin-')), 'bin');
    mkdirSync(lonely);
    copyFileSync(bin, join(lonely, 'campaign-desk.mjs'));
    const r = spawnSync(oldNode as string, [join(lonely, 'campaign-desk.mjs'), '--help'], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(oneLine(r.stderr)).toMatch(
      /^campaign-desk: needs Node 22\.18 or newer \(this is Node \d+\.\d+\.\d+\); run it through the project instead: npm run -s cli -- <command> …$/,
    );
  });
});
