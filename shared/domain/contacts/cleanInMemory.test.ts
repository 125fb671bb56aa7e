// The whole engine (sniff → split → workers' rules → merge) on small nasty files, in-process.
import { describe, expect, it } from 'vitest';
import { cleanInMemory } from './cleanInMemory.ts';
import type { InMemoryOptions } from './cleanInMemory.ts';
import { ContactsError } from './errors.ts';
import { BUCKET_NAMES, flagCodes } from './issues.ts';
import { generateContacts } from '../../testing/contactsGenerator.ts';
import {
  encryptedWorkbook,
  loneLfCsv,
  strayQuoteHeaderCsv,
  titledSemicolonCsv,
} from '../../testing/contactsEdgeCases.ts';
import { oleBytes } from '../../testing/oleWriter.ts';
import { OLD_BINARY_OFFICE, PASSWORD_PROTECTED } from './binaryKind.ts';
import { expectedClean } from '../../testing/contactsTruth.ts';
import { parseRecords } from './parseRecords.ts';
import type { CleanChoices } from './types.ts';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const utf16 = (text: string, bigEndian: boolean): Uint8Array => {
  const units = '\ufeff' + text;
  const out = new Uint8Array(units.length * 2);
  for (let i = 0; i < units.length; i++) {
    const c = units.charCodeAt(i);
    out[i * 2] = bigEndian ? c >> 8 : c & 0xff;
    out[i * 2 + 1] = bigEndian ? c & 0xff : c >> 8;
  }
  return out;
};
/** Latin-1 range text as single bytes (Windows-1252 for these characters). */
const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

const IN: CleanChoices = { country: 'IN' };
const clean = (input: string | Uint8Array, choices: CleanChoices = IN, options: InMemoryOptions = {}) =>
  cleanInMemory(typeof input === 'string' ? utf8(input) : input, choices, {
    chunkBytes: 7,
    sniffBytes: 64,
    blockBytes: 32,
    ...options,
  });
const rows = (csv: string): string[][] => parseRecords(csv, ',', '\n');
const failure = async (promise: Promise<unknown>): Promise<ContactsError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ContactsError) return error;
    throw error;
  }
  throw new Error('expected a ContactsError');
};

describe('buckets, precedence and counts', () => {
  const file = [
    'Name,Mobile Number,Loan Amount',
    'Rahul Sharma,9876543210,500', // 2 valid
    'Priya,12345,600', // 3 phone_invalid
    'Amit,,700', // 4 phone_missing
    'Sneha,9.19877E+11,800', // 5 phone_scientific_notation (never repaired)
    'Vikram,919876543211.0,900', // 6 phone_excel_decimal
    'Rahul again,+91 98765 43210,500', // 7 duplicate of row 2 (other format)
    'Anjali,098765 43212,', // 8 variable_missing: +919876543212 goes to row 9, which it names
    'Suresh,9876543212,100', // 9 valid: the first otherwise valid row with that number
    'Pooja,0091 98765 43210,', // 10 variable_missing (invalid), naming row 2 (its number's holder)
    'Short row,9876543213', // 11 row_ragged (2 of 3 cells)
    'Long row,9876543214,1,extra', // 12 row_ragged (4 of 3)
    '', // 13 blank line
    ',,', // 14 only delimiters: blank too
    'Kavita,9876543215,1000', // 15 valid
  ].join('\n');
  const choices: CleanChoices = {
    country: 'IN',
    map: [
      ['name', 'Name'],
      ['loan_amount', 'Loan Amount'],
    ],
  };

  it('puts every data row in exactly one bucket and says why', async () => {
    const { report, upload, rejects } = await clean(file, choices);
    expect(report).toMatchObject({ rows: 12, valid: 3, invalid: 8, duplicates: 1, blank_rows: 2 });
    expect(report.rows).toBe(report.valid + report.invalid + report.duplicates);
    expect(report.issues).toEqual({
      row_ragged: 2,
      phone_missing: 1,
      phone_scientific_notation: 1,
      phone_excel_decimal: 1,
      phone_invalid: 1,
      duplicate: 3, // rows 7 and 10 repeat row 2; row 8's number went to row 9
      variable_missing: 3, // rows 8, 10 and the short row 11
      phone_landline: 0,
      quote_unbalanced: 0,
      formula_cell: 0,
      phone_bidi_control: 0,
    });
    // Row 9 (Suresh) is the first otherwise valid row with row 8's number: it is uploaded.
    expect(upload).toBe(
      'Mobile Number,Name,Loan Amount\n+919876543210,Rahul Sharma,500\n+919876543212,Suresh,100\n+919876543215,Kavita,1000\n',
    );
    expect(rows(rejects)).toEqual([
      ['Row', 'Reasons', 'Name', 'Mobile Number', 'Loan Amount'],
      ['3', 'phone_invalid', 'Priya', '12345', '600'],
      ['4', 'phone_missing', 'Amit', '', '700'],
      ['5', 'phone_scientific_notation', 'Sneha', '9.19877E+11', '800'],
      ['6', 'phone_excel_decimal', 'Vikram', '919876543211.0', '900'],
      ['7', 'duplicate:row 2', 'Rahul again', "'+91 98765 43210", '500'],
      ['8', 'duplicate:row 9; variable_missing:Loan Amount', 'Anjali', '098765 43212', ''],
      ['10', 'duplicate:row 2; variable_missing:Loan Amount', 'Pooja', '0091 98765 43210', ''],
      ['11', 'row_ragged:2 of 3 cells; variable_missing:Loan Amount', 'Short row', '9876543213'],
      ['12', 'row_ragged:4 of 3 cells', 'Long row', '9876543214', '1', 'extra'],
    ]);
  });

  it('gives the same files whatever the block and chunk sizes, in parallel or sequential mode', async () => {
    const reference = await clean(file, choices, { sequential: true });
    expect(reference.report.split.mode).toBe('sequential');
    for (const [chunkBytes, blockBytes] of [
      [1, 1],
      [3, 16],
      [64, 64],
      [1 << 16, 1 << 20],
    ] as const) {
      const r = await clean(file, choices, { chunkBytes, blockBytes });
      expect(r.report.split.mode).toBe('parallel');
      expect([r.upload, r.rejects]).toEqual([reference.upload, reference.rejects]);
      expect({ ...r.report, split: null }).toEqual({ ...reference.report, split: null });
    }
  });

  it('an optional variable may be empty', async () => {
    const { report } = await clean(file, { ...choices, optional: ['loan_amount'] });
    expect(report.issues.variable_missing).toBe(0);
    expect(report.valid).toBe(3); // Anjali (row 8) is now valid, and Suresh (row 9) repeats her
    expect(report.duplicates).toBe(3); // rows 7 and 10 repeat row 2, row 9 repeats row 8
  });
});

describe('spreadsheet row numbers', () => {
  it('count records, not physical lines: embedded line breaks stay in their row', async () => {
    const text =
      'Name,Mobile Number,Notes\n"Rahul\nSharma",12345,"a\nb\nc"\nPriya,,x\n\n"Amit",1,"q ""x"""\n';
    const { rejects } = await clean(text);
    expect(rows(rejects).map((r) => [r[0], r[2]])).toEqual([
      ['Row', 'Name'],
      ['2', 'Rahul\nSharma'],
      ['3', 'Priya'],
      ['5', 'Amit'],
    ]);
  });

  it('start at the header, even after blank lines before it', async () => {
    const { report, rejects } = await clean('\n\nName,Phone\nA,123\n');
    expect(report.header_row).toBe(3);
    expect(rows(rejects)[1]?.[0]).toBe('4');
  });
});

describe('encodings', () => {
  const text = 'Name,Mobile Number,City\nJosé Álvarez,9876543210,São Paulo\nराहुल शर्मा,+91 98765 43211,मुंबई\n';
  const expected =
    'Mobile Number,Name,City\n+919876543210,José Álvarez,São Paulo\n+919876543211,राहुल शर्मा,मुंबई\n';

  it.each([
    ['utf-8', utf8(text)],
    ['utf-8 with BOM', Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(text)])],
    ['utf-16le', utf16(text, false)],
    ['utf-16be', utf16(text, true)],
  ])('%s reads the same and no BOM reaches the header', async (name, bytes) => {
    const { report, upload } = await clean(bytes);
    expect(upload).toBe(expected);
    expect(report.header).toEqual(['Name', 'Mobile Number', 'City']);
    expect(report.encoding).toBe(name.slice(0, name.includes('16') ? 8 : 5));
  });

  it('reads Windows-1252 bytes and says so', async () => {
    const { report, upload } = await clean(latin1('Name,Phone\nJosé Müller,9876543210\n'));
    expect(report).toMatchObject({ encoding: 'windows-1252', encoding_source: 'detected' });
    expect(upload).toBe('Mobile Number,Name\n+919876543210,José Müller\n');
  });

  it('starts over as Windows-1252 when invalid UTF-8 shows up after the first chunk', async () => {
    const head = 'Name,Phone\n' + 'Rahul,9876543210\n'.repeat(20);
    const bytes = Uint8Array.from([...utf8(head), ...latin1('Zoë,9876543211\n')]);
    const { report, upload } = await clean(bytes, IN, { sniffBytes: 64, chunkBytes: 64 });
    expect(report.encoding).toBe('windows-1252');
    expect(report.encoding_note).toMatch(/not valid UTF-8/);
    expect(upload.endsWith('+919876543211,Zoë\n')).toBe(true);
    expect(report.duplicates).toBe(19);
  });

  it.each(['big5', 'shift_jis', 'euc-kr'] as const)(
    'a %s file is detected and its names reach the upload as UTF-8 (issue 25)',
    async (encoding) => {
      const { bytes } = generateContacts({ rows: 1500, seed: 3, encoding });
      const { report, blocks } = await cleanInMemory(bytes, IN, {
        includeCells: true,
        blockBytes: 16 * 1024,
      });
      expect([report.encoding, report.encoding_source, report.encoding_uncertain]).toEqual([
        encoding,
        'detected',
        false,
      ]);
      expect(report.encoding_note).toMatch(/^not UTF-8: detected as .+ \(confidence \d+%\)$/);
      // The names as the file's own encoding spells them (TextDecoder on the whole file).
      const names = parseRecords(new TextDecoder(encoding).decode(bytes), ',', '\n')
        .slice(1)
        .filter((r) => r.length > 1)
        .map((r) => r[1]);
      expect(blocks.flatMap((b) => b.cells ?? []).map((c) => c[1])).toEqual(names);
      expect(names.some((n) => /[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]/.test(n ?? ''))).toBe(true);
    },
  );

  it('says so, before anything is uploaded, when it is not sure of the encoding', async () => {
    const { bytes } = generateContacts({ rows: 1500, seed: 3, encoding: 'windows-1251' });
    const { report } = await cleanInMemory(bytes, IN);
    expect(report.encoding_uncertain).toBe(true);
    expect(report.encoding_note).toMatch(/low confidence/);
  });

  it('an encoding override wins', async () => {
    const { report, upload } = await clean(utf8('Name,Phone\nJosé,9876543210\n'), {
      country: 'IN',
      encoding: 'windows-1252',
    });
    expect(report).toMatchObject({ encoding: 'windows-1252', encoding_source: 'override' });
    expect(upload).toContain('JosÃ©'); // what the operator asked for
  });
});

describe('delimiters and line breaks', () => {
  it('semicolons with decimal commas', async () => {
    const { report, upload } = await clean(
      'Name;Mobile;Amount\nRahul;9876543210;1.234,50\nPriya;9876543211;12,5\n',
    );
    expect(report).toMatchObject({ delimiter: ';', delimiter_source: 'detected', phone_column: 'Mobile' });
    expect(upload).toBe(
      'Mobile Number,Name,Amount\n+919876543210,Rahul,"1.234,50"\n+919876543211,Priya,"12,5"\n',
    );
  });

  it('tabs, pipes and CRLF', async () => {
    expect((await clean('Name\tPhone\r\nA, B\t9876543210\r\n')).upload).toBe(
      'Mobile Number,Name\n+919876543210,"A, B"\n',
    );
    const piped = await clean('Name|Phone\r\nA|9876543210\r\n"B|C"|9876543211\r\n');
    expect(piped.report).toMatchObject({ delimiter: '|', newline: 'crlf' });
    expect(piped.upload).toBe('Mobile Number,Name\n+919876543210,A\n+919876543211,B|C\n');
  });

  it('a delimiter override wins', async () => {
    const { report, upload } = await clean('Phone;Name,x\n9876543210;A,y\n', {
      country: 'IN',
      delimiter: ';',
    });
    expect(report).toMatchObject({
      delimiter: ';',
      delimiter_source: 'override',
      header: ['Phone', 'Name,x'],
    });
    expect(upload).toBe('Mobile Number,"Name,x"\n+919876543210,"A,y"\n');
  });
});

describe('quoting', () => {
  it('keeps quoted fields, doubled quotes and embedded line breaks through to both files', async () => {
    const text =
      'Name,Phone,Notes\n"Sharma, Rahul",9876543210,"said ""call later""\nthen hung up"\n"D\'Souza",123,"=HYPERLINK(""x"")"\n';
    const { upload, rejects } = await clean(text);
    expect(rows(upload)).toEqual([
      ['Mobile Number', 'Name', 'Notes'],
      ['+919876543210', 'Sharma, Rahul', 'said "call later"\nthen hung up'],
    ]);
    expect(rows(rejects)[1]).toEqual(['3', 'phone_invalid', "D'Souza", '123', '\'=HYPERLINK("x")']);
  });

  it('reads the rest sequentially when a bare quote makes splitting unsafe, with the same result', async () => {
    const text =
      'Name,Phone,TV\n' +
      'Rahul,9876543210,32 inch\n'.repeat(5) +
      'Priya,9876543211,55" screen\n' +
      'Amit,9876543212,x\n'.repeat(5);
    const parallel = await clean(text);
    const sequential = await clean(text, IN, { sequential: true });
    expect(parallel.report.split).toEqual({
      workers: 1,
      mode: 'parallel-then-sequential',
      reason: 'a quote inside an unquoted field',
    });
    expect([parallel.upload, parallel.rejects]).toEqual([sequential.upload, sequential.rejects]);
    expect(parallel.upload).toContain('+919876543211,Priya,"55"" screen"');
    expect(parallel.report.duplicates).toBe(8);
  });
});

describe('Excel damage', () => {
  it('flags scientific notation and float suffixes, accepts lost leading zeros and the text apostrophe', async () => {
    const text =
      "Name,Phone\nA,9.19877E+11\nB,919876543210.0\nC,9876543210\nD,'+91 98765 43211\nE,912234567890\n";
    const { report, upload, rejects } = await clean(text);
    expect(report.issues).toMatchObject({ phone_scientific_notation: 1, phone_excel_decimal: 1 });
    expect(rows(upload).map((r) => r[0])).toEqual([
      'Mobile Number',
      '+919876543210',
      '+919876543211',
      '+912234567890',
    ]);
    expect(rows(rejects).map((r) => r[1])).toEqual([
      'Reasons',
      'phone_scientific_notation',
      'phone_excel_decimal',
    ]);
  });
});

describe('what the upload file holds', () => {
  const text =
    'Customer ID,Name,Mobile Number,City,Notes\nC1,  Mr  Rahul   Sharma ,+91 98765 43210, Pune ,=cmd\n';
  it('all columns when nothing is mapped: Mobile Number first (E.164), values trimmed, names space-collapsed', async () => {
    const { upload, report } = await clean(text);
    expect(upload).toBe(
      // "=cmd" is a formula cell: defused, its "=" dropped (formulaCells.ts).
      'Mobile Number,Customer ID,Name,City,Notes\n+919876543210,C1,Mr Rahul Sharma,Pune,cmd\n',
    );
    expect(report).toMatchObject({
      name_column: 'Name',
      upload_columns: ['Mobile Number', 'Customer ID', 'Name', 'City', 'Notes'],
    });
  });
  it('only the mapped columns, in mapping order, the phone column never twice', async () => {
    const { upload } = await clean(text, {
      country: '+91',
      map: [
        ['city', 'City'],
        ['callee_name', 'Name'],
        ['mobile_number', 'Mobile Number'],
        ['town', 'City'],
      ],
    });
    expect(upload).toBe('Mobile Number,City,Name\n+919876543210,Pune,Mr Rahul Sharma\n');
  });
  it('a phone column with another name is still written as Mobile Number; a column called so is kept apart', async () => {
    const { upload } = await clean('Phone,Mobile Number\n9876543210,old\n', {
      country: 'IN',
      phoneColumn: 'Phone',
    });
    expect(upload).toBe('Mobile Number,Mobile Number #2\n+919876543210,old\n');
  });
});

describe('duplicates', () => {
  it('the first row with a valid number wins, however the number is written', async () => {
    const text =
      'Name,Phone\nA,+1 415-823-4567\nB,+14158234567\nC,(415) 823-4567\nD,098765 43210\nE,+91-98765-43210\n';
    const { rejects, report } = await clean(text);
    expect(report.duplicates).toBe(2);
    expect(
      rows(rejects)
        .slice(1)
        .map((r) => [r[0], r[1]]),
    ).toEqual([
      ['3', 'duplicate:row 2'],
      ['6', 'duplicate:row 5'],
    ]);
  });
  it('also for numbers too long to be exact as float64', async () => {
    const { report } = await clean('Name,Phone\nA,00379898172371414\nB,00379898172371414\n', {
      country: 'JP',
    });
    expect(report).toMatchObject({ valid: 1, duplicates: 1 });
  });
});

describe('files that cannot be cleaned', () => {
  it.each([
    ['empty', new Uint8Array(0), 'empty_file', 'the file is empty'],
    ['only spaces and line breaks', utf8(' \n \n'), 'empty_file', 'the file is empty'],
    [
      'an Excel workbook',
      Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]),
      'not_text',
      'not a CSV text file: it looks like an Excel workbook or ZIP archive (export it as CSV)',
    ],
    [
      'a password-protected .xlsx (an OLE file with EncryptionInfo and EncryptedPackage)',
      encryptedWorkbook(),
      'not_text',
      `not a CSV text file: it looks like ${PASSWORD_PROTECTED}`,
    ],
    [
      'an old .xls workbook (an OLE file with a Workbook stream)',
      oleBytes([{ name: 'Workbook', bytes: new Uint8Array(700) }]),
      'not_text',
      `not a CSV text file: it looks like ${OLD_BINARY_OFFICE}`,
    ],
    [
      'binary',
      Uint8Array.from([1, 2, 0, 5, 0, 0, 7, 8, 9, 10, 200, 0]),
      'not_text',
      'not a CSV text file: it contains binary data',
    ],
    ['header only', utf8('Name,Phone\n'), 'no_data_rows', 'the file has a header but no data rows'],
    [
      'header and blank lines',
      utf8('Name,Phone\n\n,\n'),
      'no_data_rows',
      'the file has a header but no data rows',
    ],
  ])('%s', async (_name, bytes, code, message) => {
    // The hosts sniff the first megabyte (an OLE file's directory is further in than 64 bytes).
    const error = await failure(clean(bytes, IN, { sniffBytes: 1 << 20 }));
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it('no phone column: says which headers it saw', async () => {
    const error = await failure(clean('Name,City\nA,Pune\n'));
    expect(error.code).toBe('no_phone_column');
    expect(error.message).toBe(
      'no phone column among the headers ("Name", "City"); expected "Mobile Number" or a header such as Phone, Mobile, Contact, MSISDN',
    );
  });

  it('bad options name the option', async () => {
    expect((await failure(clean('Name,Phone\nA,1\n', { country: 'Narnia' }))).message).toMatch(
      /unknown country "Narnia"/,
    );
    expect(
      (await failure(clean('Name,Phone\nA,1\n', { country: 'IN', map: [['amount', 'Amount']] }))).message,
    ).toBe('column for variable "amount" "Amount" is not a column of the file (columns: "Name", "Phone")');
    expect((await failure(clean('Name,Phone\nA,1\n', { country: 'IN', optional: ['x'] }))).message).toBe(
      'optional variable "x" is not mapped to a column',
    );
    expect((await failure(clean('Name,Phone\nA,1\n', { country: 'IN', phoneColumn: 'Mobile' }))).code).toBe(
      'unknown_column',
    );
  });
});

describe('merged blocks (what the in-app host stores)', () => {
  it('carry every data row with its spreadsheet row, bucket, flags, duplicate pointer and cells', async () => {
    const text = 'Name,Phone\nA,9876543210\n\nB,12\nC,+91 98765 43210\n';
    const { blocks } = await clean(text, IN, { includeCells: true, blockBytes: 1 << 20 });
    const rowsOf = blocks.flatMap((b) =>
      [...b.rowNumbers].map((row, i) => ({
        row,
        bucket: b.buckets[i],
        flags: b.flags[i],
        duplicateOf: b.duplicateOf[i],
        cells: b.cells?.[i],
      })),
    );
    expect(rowsOf).toEqual([
      { row: 2, bucket: 0, flags: 0, duplicateOf: 0, cells: ['A', '9876543210'] },
      { row: 4, bucket: 1, flags: 16, duplicateOf: 0, cells: ['B', '12'] },
      { row: 5, bucket: 2, flags: 0, duplicateOf: 2, cells: ['C', '+91 98765 43210'] },
    ]);
  });
});

describe('progress and cancel', () => {
  it('reports rows, bytes, rate and ETA', async () => {
    const seen: number[] = [];
    const text = 'Name,Phone\n' + 'A,9876543210\n'.repeat(200);
    await clean(text, IN, { progressEveryMs: 0, onProgress: (p) => seen.push(p.rows) });
    expect(seen.length).toBeGreaterThan(2);
    expect(seen[seen.length - 1]).toBe(200);
  });

  it('stops when cancelled', async () => {
    const abort = new AbortController();
    const text = 'Name,Phone\n' + 'A,9876543210\n'.repeat(500);
    const run = clean(text, IN, {
      signal: abort.signal,
      onProgress: () => abort.abort(),
      progressEveryMs: 0,
    });
    expect((await failure(run)).code).toBe('cancelled');
  });
});

describe('a number belongs to the first row that is otherwise valid (issue 11)', () => {
  const choices: CleanChoices = { country: 'IN', map: [['amount', 'Amount']] };
  const file = [
    'Name,Mobile Number,Amount',
    'A,9876543210,', // 2 invalid (amount missing): holds the number until row 4 claims it
    'B,98765 43210,', // 3 invalid, points at the holder
    'C,+919876543210,5', // 4 valid: claims it
    'D,09876543210,6', // 5 duplicate of row 4
    'E,9123456789,', // 6 invalid, no one else has its number
    'F,9123456789,', // 7 invalid too: points at row 6
  ].join('\n');

  it('uploads the later valid row, and the earlier invalid rows keep their issues and point to it', async () => {
    for (const options of [{}, { sequential: true }, { blockBytes: 1 << 20 }]) {
      const { report, upload, rejects, lateDuplicates } = await clean(file, choices, options);
      expect(report).toMatchObject({ rows: 6, valid: 1, invalid: 4, duplicates: 1 });
      expect(report.issues).toMatchObject({ variable_missing: 4, duplicate: 4 });
      expect(upload).toBe('Mobile Number,Amount\n+919876543210,5\n');
      expect(rows(rejects).map((r) => r.slice(0, 2))).toEqual([
        ['Row', 'Reasons'],
        ['2', 'duplicate:row 4; variable_missing:Amount'],
        ['3', 'duplicate:row 4; variable_missing:Amount'],
        ['5', 'duplicate:row 4'],
        ['6', 'variable_missing:Amount'],
        ['7', 'duplicate:row 6; variable_missing:Amount'],
      ]);
      expect(lateDuplicates).toEqual([
        [2, 4],
        [3, 4],
      ]);
    }
  });
});

describe('phone_landline (issue 11): valid only as a fixed line', () => {
  it('warns, stays valid and uploaded, and is counted', async () => {
    const file =
      'Name,Mobile Number\nUS read as IN,(206) 555-0123\nMobile,9876543210\nDelhi office,011 2345 6789\nUS,+1 206 823 4567\n';
    const { report, upload, rejects, blocks } = await clean(file);
    expect(report).toMatchObject({ rows: 4, valid: 4, invalid: 0, duplicates: 0 });
    expect(report.issues.phone_landline).toBe(2);
    expect(upload).toBe(
      'Mobile Number,Name\n+912065550123,US read as IN\n+919876543210,Mobile\n+911123456789,Delhi office\n+12068234567,US\n',
    );
    expect(rows(rejects)).toHaveLength(1);
    expect(blocks.flatMap((b) => [...b.flags]).map((f) => f === 64)).toEqual([true, false, true, false]);
  });
});

describe('formula_cell (issue 22): a cell a spreadsheet would run', () => {
  // The issue's cells, a tab that trims to a live formula, a bidi mark hiding one, plain numbers.
  const file = [
    'Name,Mobile Number,Amount,Notes',
    '"=HYPERLINK(""http://evil.example/x"",""Pay"")",9876543210,500,ok', // 2 formula in Name
    '@SUM(1+1),9876543211,-500,', // 3 formula in Name; -500 is a number
    '"\t=2+2",9876543212,+12.5,', // 4 "=2+2" once trimmed
    'Ravi,+91 98765 43213,-2+3,', // 5 formula in Amount; the phone column is never one
    'Sita,9876543214,100,\u200F=1+1', // 6 a bidi mark in front of a formula
    'Gita,9876543215,100,-', // 7 a lone dash: nothing to run (a placeholder), not a formula
    'Hari,12345,100,=cmd', // 8 invalid phone and a formula
    'Mohan,9876543216,1000,e-mail later', // 9 nothing
  ].join('\n');
  const choices: CleanChoices = { country: 'IN' };

  it('warns (the row stays valid), counts, defuses the upload and keeps the rejects formula-safe', async () => {
    const { report, upload, rejects, blocks } = await clean(file, choices);
    expect(report).toMatchObject({ rows: 8, valid: 7, invalid: 1, duplicates: 0 });
    expect(report.issues.formula_cell).toBe(6);
    const flagged = blocks.flatMap((b) =>
      [...b.rowNumbers].filter((_, i) => flagCodes(b.flags[i] as number).includes('formula_cell')),
    );
    expect(flagged).toEqual([2, 3, 4, 5, 6, 8]);
    // The service reads text: leading = + - @ dropped, plain numbers and their signs kept.
    expect(rows(upload)).toEqual([
      ['Mobile Number', 'Name', 'Amount', 'Notes'],
      ['+919876543210', 'HYPERLINK("http://evil.example/x","Pay")', '500', 'ok'],
      ['+919876543211', 'SUM(1+1)', '-500', ''],
      ['+919876543212', '2+2', '+12.5', ''],
      ['+919876543213', 'Ravi', '2+3', ''],
      ['+919876543214', 'Sita', '100', '1+1'],
      ['+919876543215', 'Gita', '100', '-'],
      ['+919876543216', 'Mohan', '1000', 'e-mail later'],
    ]);
    for (const record of rows(upload).slice(1))
      for (const cell of record.slice(1))
        expect(/^\s*[=+@-]/.test(cell) && !/^[+-][\d.]+$/.test(cell) && cell !== '-').toBe(false);
    // A warning is not a reason; the rejects file neutralises the formula with an apostrophe.
    expect(rows(rejects)).toEqual([
      ['Row', 'Reasons', 'Name', 'Mobile Number', 'Amount', 'Notes'],
      ['8', 'phone_invalid', 'Hari', '12345', '100', "'=cmd"],
    ]);
  });

  it('flags the same in every mode (parallel blocks, sequential)', async () => {
    const parallel = await clean(file, choices, { blockBytes: 40 });
    // A bare quote inside a field: the rest of the file is read in one lane, in order.
    const bare = file.replace('9876543210,500,ok', '9876543210,500,ok"ish');
    const sequential = await clean(bare, choices, { blockBytes: 40 });
    expect(parallel.report.split.mode).toBe('parallel');
    expect(sequential.report.split.mode).not.toBe('parallel');
    expect(parallel.report.issues.formula_cell).toBe(6);
    expect(sequential.report.issues.formula_cell).toBe(6);
    expect(sequential.upload).toBe(parallel.upload.replace(',ok\n', ',"ok""ish"\n'));
  });

  it('uploads formula cells as they are when asked to, still flagged', async () => {
    const { report, upload } = await clean(file, { ...choices, keepFormulaCells: true });
    expect(report.issues.formula_cell).toBe(6);
    expect(rows(upload)[1]).toEqual([
      '+919876543210',
      '=HYPERLINK("http://evil.example/x","Pay")',
      '500',
      'ok',
    ]);
    expect(rows(upload)[3]).toEqual(['+919876543212', '=2+2', '+12.5', '']);
  });
});

describe('phone_bidi_control (issue 22): bidi controls in a phone', () => {
  it('makes the row invalid with its own reason, shows the controls in the rejects and drops them from the upload', async () => {
    const file = [
      'Name,Mobile Number',
      'Spoof,+91\u202E0123456789', // shows as +919876543210
      'Mark,98765\u200F43210',
      'Isolated,\u2066+91 98765 43211\u2069',
      'Arabic mark,+91 98765\u061C43212',
      '\u202ERavi,9876543213', // a name with a control: valid, the control is not uploaded
    ].join('\n');
    const { report, upload, rejects, blocks } = await clean(file);
    expect(report).toMatchObject({ rows: 5, valid: 1, invalid: 4, duplicates: 0 });
    expect(report.issues.phone_bidi_control).toBe(4);
    expect(report.issues.phone_invalid).toBe(0);
    expect(blocks.flatMap((b) => [...b.flags].map(flagCodes))).toEqual([
      ['phone_bidi_control'],
      ['phone_bidi_control'],
      ['phone_bidi_control'],
      ['phone_bidi_control'],
      [],
    ]);
    expect(upload).toBe('Mobile Number,Name\n+919876543213,Ravi\n');
    expect(rows(rejects)).toEqual([
      ['Row', 'Reasons', 'Name', 'Mobile Number'],
      ['2', 'phone_bidi_control', 'Spoof', "'+91⟨RLO⟩0123456789"],
      ['3', 'phone_bidi_control', 'Mark', '98765⟨RLM⟩43210'],
      ['4', 'phone_bidi_control', 'Isolated', '⟨LRI⟩+91 98765 43211⟨PDI⟩'],
      ['5', 'phone_bidi_control', 'Arabic mark', "'+91 98765⟨ALM⟩43212"],
    ]);
  });
});

describe('quote_unbalanced (issue 11): a quote that never closes', () => {
  const good = (n: number) =>
    Array.from({ length: n }, (_, i) => `+9198${String(10_000_000 + i).slice(-8)},Person ${i},note ${i}`);

  it("the issue's case: the line is read with the quote as a character, all 20,000 rows after it count", async () => {
    const file =
      ['Mobile Number,Name,Notes', '+919876543210,Asha,"starts a quote and never ends', ...good(20_000)].join(
        '\n',
      ) + '\n';
    for (const options of [
      { blockBytes: 64 * 1024, chunkBytes: 64 * 1024, sniffBytes: 1 << 20 },
      { sequential: true, chunkBytes: 64 * 1024 },
    ]) {
      const { report, upload, rejects } = await clean(file, IN, options);
      expect(report).toMatchObject({ rows: 20_001, valid: 20_000, invalid: 1, duplicates: 0 });
      expect(report.issues.quote_unbalanced).toBe(1);
      expect(rows(rejects)).toEqual([
        ['Row', 'Reasons', 'Mobile Number', 'Name', 'Notes'],
        [
          '2',
          'quote_unbalanced:quote opened on line 2',
          "'+919876543210",
          'Asha',
          '"starts a quote and never ends',
        ],
      ]);
      const uploaded = rows(upload);
      expect(uploaded).toHaveLength(20_001);
      expect(uploaded.at(-1)).toEqual(['+919810019999', 'Person 19999', 'note 19999']);
    }
  });

  it('names the physical line (after quoted line breaks) and reads the rest of the file normally', async () => {
    const lines = [
      'Name,Mobile Number,Notes',
      '"Two',
      'lines",9876543210,x', // row 2 (lines 2-3)
      'B,9876543211,"says ""hi"", twice"', // row 3 (line 4)
      'C,9876543212,"5" tall, and more', // row 4 (line 5): a quote closed by the next field's quote
      'D,9876543213,"a, b"', // row 5 (line 6)
      ...Array.from({ length: 70 }, (_, i) => `E${i},98765${String(43300 + i)},ok`),
      'F,9876543299,"never closes',
      'G,9876543298,last',
    ];
    const file = lines.join('\n') + '\n';
    const reference = await clean(file, IN, { sequential: true, chunkBytes: 1 << 16 });
    for (const options of [{}, { blockBytes: 1 << 20, chunkBytes: 1 << 20 }]) {
      const r = await clean(file, IN, options);
      expect([r.upload, r.rejects]).toEqual([reference.upload, reference.rejects]);
    }
    const { report, rejects } = reference;
    expect(report).toMatchObject({ rows: 76, invalid: 2 });
    expect(report.issues.quote_unbalanced).toBe(2);
    expect(rows(rejects).map((r) => [r[0], r[1], ...r.slice(2)])).toEqual([
      ['Row', 'Reasons', 'Name', 'Mobile Number', 'Notes'],
      [
        '4',
        'quote_unbalanced:quote opened on line 5; row_ragged:4 of 3 cells',
        'C',
        '9876543212',
        '"5" tall',
        ' and more',
      ],
      ['76', 'quote_unbalanced:quote opened on line 77', 'F', '9876543299', '"never closes'],
    ]);
  });
});

describe('repeated header names (issue 11)', () => {
  const file = 'Mobile Number,Name,Name,Mobile Number\n9876543210,Asha,A.,9123456789\n9876543211,Ravi,R.,\n';

  it('are reported with their positions, and the upload header never repeats a name', async () => {
    const { report, upload } = await clean(file);
    expect(report.duplicate_columns).toEqual([
      { name: 'Mobile Number', positions: [1, 4] },
      { name: 'Name', positions: [2, 3] },
    ]);
    expect(report.phone_column).toBe('Mobile Number');
    expect(report.upload_columns).toEqual(['Mobile Number', 'Name', 'Name #3', 'Mobile Number #4']);
    expect(rows(upload)).toEqual([
      ['Mobile Number', 'Name', 'Name #3', 'Mobile Number #4'],
      ['+919876543210', 'Asha', 'A.', '9123456789'],
      ['+919876543211', 'Ravi', 'R.', ''],
    ]);
  });

  it('a phone column or mapping naming one of them is refused until a position picks it', async () => {
    expect((await failure(clean(file, { country: 'IN', phoneColumn: 'Mobile Number' }))).message).toBe(
      'phone column "Mobile Number" names 2 columns (#1, #4); pick one by its position, e.g. "#4"',
    );
    const byPosition = await clean(file, { country: 'IN', phoneColumn: '#4' });
    expect(byPosition.report).toMatchObject({ phone_column: 'Mobile Number', valid: 1, invalid: 1 });
    expect(rows(byPosition.upload).slice(0, 2)).toEqual([
      ['Mobile Number', 'Mobile Number #1', 'Name', 'Name #3'],
      ['+919123456789', '9876543210', 'Asha', 'A.'],
    ]);
    expect((await failure(clean(file, { country: 'IN', map: [['name', 'Name']] }))).message).toMatch(
      /"Name" names 2 columns \(#2, #3\)/,
    );
    expect((await failure(clean(file, { country: 'IN', map: [['name', '']] }))).message).toMatch(
      /"name" names 2 columns \(#2, #3\)/,
    );
    const mapped = await clean(file, { country: 'IN', map: [['name', '#3']] });
    expect(rows(mapped.upload)[0]).toEqual(['Mobile Number', 'Name']);
    expect(rows(mapped.upload)[1]).toEqual(['+919876543210', 'A.']);
  });
});

describe('files written elsewhere (issue 25)', () => {
  const modes: InMemoryOptions[] = [{}, { sequential: true }, { blockBytes: 1 << 20, sniffBytes: 1 << 20 }];
  const cellsOf = (blocks: Array<{ cells?: string[][] }>): string[][] => blocks.flatMap((b) => b.cells ?? []);

  it('a stray quote in the header is read like one in a data row: no row swallowed, rows numbered from 2', async () => {
    for (const options of modes) {
      const { report, upload, blocks } = await clean(strayQuoteHeaderCsv(), IN, {
        ...options,
        includeCells: true,
      });
      expect(report.header).toEqual(['Name', '"Age" (years)', 'City', 'Phone']);
      expect([report.rows, report.valid, report.header_row, report.issues.quote_unbalanced]).toEqual([
        3, 3, 1, 0,
      ]);
      expect(report.header_note).toMatch(/the header has a quote that never closes/);
      expect(blocks.flatMap((b) => [...b.rowNumbers])).toEqual([2, 3, 4]);
      expect(cellsOf(blocks).map((c) => c[0])).toEqual(['Asha', 'Ravi', 'Meera']);
      expect(rows(upload).map((r) => r[0])).toEqual([
        'Mobile Number',
        '+919876543210',
        '+919876543211',
        '+919876543212',
      ]);
    }
  });

  it('a lone LF in a CRLF file ends a line: 4 records stay 4, none ragged, no LF left in the last cell', async () => {
    for (const options of modes) {
      const { report, blocks } = await clean(loneLfCsv(), IN, { ...options, includeCells: true });
      expect(report.newline).toBe('crlf');
      expect([report.rows, report.valid, report.issues.row_ragged]).toEqual([4, 4, 0]);
      expect(blocks.flatMap((b) => [...b.rowNumbers])).toEqual([2, 3, 4, 5]);
      expect(cellsOf(blocks)).toEqual([
        ['Asha', '9876543210', 'Pune'],
        ['Ravi', '9876543211', 'Delhi'],
        ['Meera', '9876543212', 'Goa\nNorth'],
        ['Kabir', '9876543213', 'Agra'],
      ]);
    }
  });

  it('finds the header and the delimiter below a title and notes (the title has commas), and says so', async () => {
    for (const options of modes) {
      // The hosts sniff the first megabyte; the title and notes alone are longer than 64 bytes.
      const { report, upload } = await clean(titledSemicolonCsv(), IN, { sniffBytes: 4096, ...options });
      expect([report.delimiter, report.delimiter_source, report.header_row]).toEqual([';', 'detected', 4]);
      expect(report.header).toEqual(['Name', 'Phone', 'City', 'Amount']);
      expect([report.rows, report.valid, report.issues.row_ragged]).toEqual([3, 3, 0]);
      expect(report.header_note).toBe(
        'header on row 4: skipped 2 lines above it that look like a title or notes (fewer filled cells): "Collections report, March 2026, Pune branch", "Exported by ops, do not edit"',
      );
      expect(rows(upload)[1]).toEqual(['+919876543210', 'Asha', 'Pune', '1.234,50']);
    }
    // A delimiter chosen by the operator is kept; the header is still found below the title.
    const chosen = await clean(titledSemicolonCsv(), { country: 'IN', delimiter: ';' }, { sniffBytes: 4096 });
    expect([chosen.report.delimiter_source, chosen.report.header_row]).toEqual(['override', 4]);
    // A title padded with delimiters by Excel ("Report;;;") is a title too.
    const padded = await clean('Collections report;;;\nName;Phone;City;Amount\nAsha;9876543210;Pune;1\n');
    expect([padded.report.header_row, padded.report.header, padded.report.rows]).toEqual([
      2,
      ['Name', 'Phone', 'City', 'Amount'],
      1,
    ]);
  });
});

describe("the generator's files (shared/testing/contactsGenerator.ts)", () => {
  it('every row lands where the generator meant it: bucket, number holder and issue codes', async () => {
    const variants = [
      {},
      { bom: true, crlf: true },
      { encoding: 'utf-16le' },
      { encoding: 'windows-1252' },
      { delimiter: ';' },
      // Shapes of files written elsewhere (issue 25):
      { delimiter: ';', title: ['Customer list, April 2026, all branches', 'Source: loan book, v2'] },
      { strayQuoteHeader: true },
      { crlf: true, loneLf: true },
      { encoding: 'big5' },
      { encoding: 'shift_jis', crlf: true },
    ] as const;
    let lateClaims = 0;
    let landlines = 0;
    let formulas = 0;
    let bidi = 0;
    for (const variant of variants) {
      const { bytes, truth } = generateContacts({ rows: 4000, seed: 9, ...variant });
      const result = await cleanInMemory(
        bytes,
        {
          country: 'IN',
          map: [
            ['name', 'Name'],
            ['amount', 'Loan Amount'],
          ],
        },
        { blockBytes: 64 * 1024 },
      );
      const expected = expectedClean(truth, { required: ['Name', 'Loan Amount'] });
      const late = new Map(result.lateDuplicates);
      const got = result.blocks.flatMap((b) =>
        [...b.rowNumbers].map((row, i) => {
          const duplicateOf = late.get(row) ?? (b.duplicateOf[i] as number);
          const codes = [...flagCodes(b.flags[i] as number), ...(duplicateOf > 0 ? ['duplicate'] : [])];
          return [row, BUCKET_NAMES[b.buckets[i] as number], duplicateOf, codes.sort()];
        }),
      );
      const want = [...expected.byRow.values()].map((r) => [
        r.row,
        r.bucket,
        r.duplicateOf,
        [...r.issues].sort(),
      ]);
      expect(got).toEqual(want);
      lateClaims += result.lateDuplicates.length;
      landlines += result.report.issues.phone_landline;
      formulas += result.report.issues.formula_cell;
      bidi += result.report.issues.phone_bidi_control;
      expect(result.report).toMatchObject({
        valid: expected.valid,
        invalid: expected.invalid,
        duplicates: expected.duplicates,
      });
    }
    // The rules under test were exercised: later rows claimed numbers, landlines, formula cells
    // and bidi phones were seen.
    expect([lateClaims > 0, landlines > 0, formulas > 0, bidi > 0]).toEqual([true, true, true, true]);
  });
});
