import { describe, expect, it } from 'vitest';
import { checkMapping, invalidRowsCsv, parseCsvFile, validateContacts } from './contactList.ts';
import { countryFor } from './phone.ts';
import { extractFirstName, formatCalleeName, transliterate } from './smartFormatter.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('CSV parsing', () => {
  it('strips a BOM, handles CRLF, quoted commas and embedded newlines, and tracks physical lines', () => {
    const csv =
      '\uFEFFMobile Number,Name,Notes\r\n+919876543210,"Kumar, Asha","line one\nline two"\r\n\r\n09876543211,Ravi,x\r\n';
    const r = parseCsvFile(bytes(csv), 'a.csv');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.header).toEqual(['Mobile Number', 'Name', 'Notes']);
    expect(r.value.rows.map((x) => [x.cells[1], x.line])).toEqual([
      ['Kumar, Asha', 2],
      ['Ravi', 5],
    ]);
  });

  it.each([
    [new Uint8Array([0xff, 0xfe, 0x00, 0x41]), 'not UTF-8'],
    [bytes('a,b\u0000'), 'not a CSV'],
    [bytes('  \n'), 'empty'],
    [bytes('Mobile Number,,Name\n1,2,3'), 'column 2'],
    [bytes('Mobile Number,Name \n1,2'), 'spaces'],
    [bytes('Name,Name\n1,2'), 'twice'],
  ])('refuses a bad file (%#) naming the problem', (data, message) => {
    const r = parseCsvFile(data, 'bad.csv');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(message);
  });
});

describe('mapping and rows', () => {
  const header = ['Mobile Number', 'Name', 'Amount'];
  it('checks variables against the agent and the header', () => {
    expect(
      checkMapping(
        { callee_name: 'Name', amount: 'Amount' },
        ['callee_name', 'mobile_number', 'amount'],
        'A',
        header,
      ).ok,
    ).toBe(true);
    expect(checkMapping({ callee_name: 'Name' }, ['callee_name', 'amount'], 'A', header)).toMatchObject({
      ok: false,
      message: expect.stringContaining('"amount" has no CSV column'),
    });
    expect(
      checkMapping({ callee_name: 'Nom', amount: 'Amount' }, ['callee_name', 'amount'], 'A', header),
    ).toMatchObject({ ok: false });
    expect(
      checkMapping(
        { callee_name: 'Name', amount: 'Amount', x: 'Name' },
        ['callee_name', 'amount'],
        'A',
        header,
      ),
    ).toMatchObject({ ok: false, message: expect.stringContaining('"x"') });
    const custom = checkMapping(
      { callee_name: 'Name', amount: 'Amount', mobile_number: 'Name' },
      ['callee_name', 'amount'],
      'A',
      header,
    );
    expect(custom.ok && custom.value.phoneColumn).toBe('Name');
  });

  it('validates phone, values and duplicates, keeping every row with a reason', () => {
    const csv = parseCsvFile(
      bytes(
        'Mobile Number,Name,Amount\n98765 43210,Asha,100\n+91 98765 43210,Ravi,200\nabc,Om,1\n9876543212,,5\n9876543213,Zed\n',
      ),
      'c.csv',
    );
    if (!csv.ok) throw new Error(csv.message);
    const entries = validateContacts(csv.value, {
      country: countryFor('+91') ?? 'IN',
      phoneColumn: 'Mobile Number',
      columns: [
        ['callee_name', 'Name'],
        ['amount', 'Amount'],
      ],
      transliterateTo: null,
    });
    expect(entries.map((e) => [e.valid, e.reason])).toEqual([
      [true, null],
      [false, 'Mobile Number +919876543210 repeats row 1'],
      [false, 'Mobile Number "abc" is not a phone number'],
      [false, 'Name is empty (needed for callee_name)'],
      [false, 'has 2 fields, the header has 3'],
    ]);
    expect(entries[0]?.customArgsValues).toEqual({
      callee_name: 'Asha',
      amount: '100',
      mobile_number: '+919876543210',
    });
    const out = invalidRowsCsv(
      csv.value.header,
      entries
        .filter((e) => !e.valid)
        .map((e) => ({ row_number: e.rowNumber, reason: e.reason, cells: JSON.stringify(e.cells) })),
    );
    expect(out.split('\r\n')[0]).toBe('Mobile Number,Name,Amount,Row Number,Reason');
    expect(out).toContain('9876543213,Zed,,5,"has 2 fields, the header has 3"');
  });

  it('reads country_code as a dialing prefix or ISO-2', () => {
    expect(countryFor('+91')).toBe('IN');
    expect(countryFor('IN')).toBe('IN');
    expect(countryFor('+1')).toBe('US');
    expect(countryFor('+999')).toBeNull();
    expect(countryFor('XX')).toBeNull();
  });
});

describe('smart formatter', () => {
  it.each([
    ['Mr. Rajesh Kumar', 'Rajesh'],
    ['Kumar, Rajesh', 'Rajesh'],
    ['  dr   asha  rao ', 'Asha'],
    ['Shree Ganesh Rao', 'Ganesh'],
    ['RAHUL SHARMA', 'Rahul'],
    ['Smt. Lakshmi', 'Lakshmi'],
    ['Mr.', 'Mr.'],
  ])('extracts the first name of %s', (name, first) => expect(extractFirstName(name)).toBe(first));

  it('transliterates Latin names to Devanagari for hi/mr, and leaves other targets alone', () => {
    expect(transliterate('Priya', 'hi')).toBe('प्रिया');
    expect(transliterate('Amit Shah', 'hi-IN')).toBe('अमित शह');
    expect(transliterate('Priya', 'ta')).toBe('Priya');
    expect(transliterate('प्रिया', 'hi')).toBe('प्रिया');
    expect(
      formatCalleeName('Mr Priya Das', {
        extract_first_name: true,
        transliteration: true,
        transliteration_language: { source: 'en', target: 'hi' },
      }),
    ).toBe('प्रिया');
  });
});
